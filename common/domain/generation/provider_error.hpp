// How a generation provider reports failure, whatever its modality: the job running it retries a
// retryable error, fails at once on a permanent one, and stops when the provider was told to stop.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <stdexcept>
#include <string>

namespace squawk::generation {

class ProviderError : public std::runtime_error {
  public:
    // The same call may succeed later: a timeout, a crashed helper program, a busy service.
    // `retry_after` is the wait the other side asked for (a 429's Retry-After), zero if none.
    static ProviderError retryable(const std::string& reason,
                                   std::chrono::seconds retry_after = std::chrono::seconds(0)) {
        return {reason, true, {}, retry_after};
    }
    // Calling again cannot help (an unknown voice, a refused prompt); `details` say which input
    // was wrong.
    static ProviderError permanent(const std::string& reason,
                                   nlohmann::json details = nlohmann::json::object()) {
        return {reason, false, std::move(details), std::chrono::seconds(0)};
    }

    bool is_retryable() const { return retryable_; }
    const nlohmann::json& details() const { return details_; }
    std::chrono::seconds retry_after() const { return retry_after_; }

  private:
    ProviderError(const std::string& reason, bool retryable, nlohmann::json details,
                  std::chrono::seconds retry_after)
        : std::runtime_error(reason),
          retryable_(retryable),
          details_(std::move(details)),
          retry_after_(retry_after) {}

    bool retryable_;
    nlohmann::json details_;
    std::chrono::seconds retry_after_;
};

// The provider gave up because its caller's stop flag turned true (job cancelled, shutdown).
class ProviderStopped : public std::runtime_error {
  public:
    ProviderStopped() : std::runtime_error("generation stopped on request") {}
};

}  // namespace squawk::generation
