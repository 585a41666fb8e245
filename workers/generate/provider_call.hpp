// Runs a generation provider for a task and turns what it throws into the task's own errors: a
// retryable error retries the job (no sooner than the provider asked), a permanent one fails it
// with the provider's reason, a stop cancels it. Also finds the provider configuration names.
#pragma once

#include "common/core/config/config.hpp"
#include "common/domain/generation/provider_error.hpp"
#include "common/domain/generation/provider_registry.hpp"
#include "common/extensions/providers/registered.hpp"
#include "workers/errors.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <utility>

namespace squawk::workers::generate {

template <class F>
auto call_provider(F&& call) {
    try {
        return std::forward<F>(call)();
    } catch (const generation::ProviderStopped&) {
        throw TaskCancelled();
    } catch (const generation::ProviderError& e) {
        if (e.is_retryable())
            throw RetryableError(
                e.what(), std::chrono::duration_cast<std::chrono::microseconds>(e.retry_after()));
        nlohmann::json details = e.details();
        if (!details.contains("code")) details["code"] = "PROVIDER_ERROR";
        details["retryable"] = false;
        throw PermanentError(e.what(), std::move(details));
    }
}

template <class Interface>
struct ConfiguredProvider {
    std::string name;
    std::unique_ptr<Interface> instance;
};

// The provider [generation] <modality> names; the job fails when there is none (the API checked
// at acceptance, so the configuration changed since).
template <class Interface>
ConfiguredProvider<Interface> configured(const config::Config& config) {
    const std::string modality = name_of(Interface::kModality);
    const auto chosen = config.generation.default_provider.find(modality);
    try {
        if (chosen == config.generation.default_provider.end())
            throw generation::UnknownProvider("none is configured");
        return {chosen->second, providers::registered().create<Interface>(chosen->second, config)};
    } catch (const generation::UnknownProvider& e) {
        throw PermanentError(
            "no " + modality + " provider: " + e.what(),
            {{"code", "MODEL_NOT_AVAILABLE"}, {"setting", "generation." + modality}});
    }
}

}  // namespace squawk::workers::generate
