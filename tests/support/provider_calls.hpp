// What provider tests hand a generation provider instead of a job: blocking work runs on the
// calling thread, HTTP (when asked for) goes through a client with its own loop thread, and the
// test sets the stop flag; and the ProviderError a call throws, for checking its kind.
#pragma once

#include "common/core/http/http_client.hpp"
#include "common/domain/generation/provider_calls.hpp"
#include "common/domain/generation/provider_error.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <stdexcept>

namespace squawk::testing {

class DirectCalls final : public generation::ProviderCalls {
  public:
    enum class Http { none, own_client };
    explicit DirectCalls(Http http = Http::none)
        : client_(http == Http::own_client ? std::make_unique<http::Client>() : nullptr) {}

    http::Client* http() override { return client_.get(); }
    void blocking(const std::function<void()>& work) override { work(); }
    const std::atomic<bool>& stop() const override { return stop_; }
    void request_stop() { stop_ = true; }

  private:
    std::unique_ptr<http::Client> client_;
    std::atomic<bool> stop_{false};
};

// The ProviderError `call` throws; fails the test when it throws none.
template <class Call>
generation::ProviderError failure_of(Call call) {
    try {
        call();
    } catch (const generation::ProviderError& e) {
        return e;
    }
    FAIL("no ProviderError was thrown");
    throw std::logic_error("unreachable");
}

}  // namespace squawk::testing
