// How a task reports failure: the worker turns these into the job's next state (retry, fail, drop).
// Any other exception escaping a task counts as retryable.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <stdexcept>
#include <string>

namespace squawk::workers {

// The same run may succeed later (network, a busy provider, a crashed subprocess).
// `not_before` is the earliest retry the other side asked for (a 429's retry_after); the retry
// waits for the later of it and the backoff.
class RetryableError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
    RetryableError(const std::string& reason, std::chrono::microseconds not_before)
        : std::runtime_error(reason), not_before_(not_before) {}
    std::chrono::microseconds not_before() const { return not_before_; }

  private:
    std::chrono::microseconds not_before_{0};
};

// Running again cannot help (bad payload, unknown voice); the job fails at once with the reason.
class PermanentError : public std::runtime_error {
  public:
    explicit PermanentError(const std::string& reason,
                            nlohmann::json details = nlohmann::json::object())
        : std::runtime_error(reason), details_(std::move(details)) {}
    const nlohmann::json& details() const { return details_; }

  private:
    nlohmann::json details_;
};

// The task stopped at a safe point because its job was cancelled or the worker is shutting down.
class TaskCancelled : public std::runtime_error {
  public:
    TaskCancelled() : std::runtime_error("task stopped: job cancelled or worker shutting down") {}
};

}  // namespace squawk::workers
