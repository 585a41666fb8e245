// Runs a generation provider for a task and turns what it throws into the task's own errors: a
// retryable provider error retries the job, a permanent one fails it, a stop cancels it.
#pragma once

#include "common/domain/generation/provider_error.hpp"
#include "workers/errors.hpp"

#include <utility>

namespace squawk::workers::generate {

template <class F>
auto call_provider(F&& call) {
    try {
        return std::forward<F>(call)();
    } catch (const generation::ProviderStopped&) {
        throw TaskCancelled();
    } catch (const generation::ProviderError& e) {
        if (e.is_retryable()) throw RetryableError(e.what());
        throw PermanentError(e.what(), e.details());
    }
}

}  // namespace squawk::workers::generate
