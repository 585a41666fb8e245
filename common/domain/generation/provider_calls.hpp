// What a provider may use while it works for a job: the worker's HTTP client (whose send() parks
// only the calling fiber), a plain thread for blocking work (rendering, helper programs), and the
// stop flag. Providers are called on a fiber; tests pass a plain implementation.
#pragma once

#include <atomic>
#include <functional>

namespace squawk::http {
class Client;
}

namespace squawk::generation {

class ProviderCalls {
  public:
    virtual ~ProviderCalls() = default;

    // Null when the process has no HTTP client; a provider that needs one fails retryably.
    virtual http::Client* http() = 0;
    // Runs `work` on a plain thread while the calling fiber waits; rethrows what it throws.
    virtual void blocking(const std::function<void()>& work) = 0;
    // Turns true when the job was cancelled or the worker is stopping: end with ProviderStopped.
    virtual const std::atomic<bool>& stop() const = 0;
};

}  // namespace squawk::generation
