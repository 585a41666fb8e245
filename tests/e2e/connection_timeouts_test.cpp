// How long the API waits on a connection: a request must arrive whole within api.request_timeout_ms
// of its first byte, and a connection with no request under way is closed after
// api.keepalive_timeout_ms. A connection in use is never cut, however long it has been open.
#include "tests/support/raw_connection.hpp"
#include "tests/support/settings_env.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

using namespace squawk::testing;
using namespace std::chrono_literals;

namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kRequestTimeout = 1000ms;
constexpr auto kKeepaliveTimeout = 3000ms;

const std::string kHealth = "GET /health HTTP/1.1\r\nHost: squawk\r\n\r\n";

SettingsEnv short_timeouts() {
    return SettingsEnv(
        {{"SQUAWK_API_REQUEST_TIMEOUT_MS", std::to_string(kRequestTimeout.count())},
         {"SQUAWK_API_KEEPALIVE_TIMEOUT_MS", std::to_string(kKeepaliveTimeout.count())}});
}

}  // namespace

TEST_CASE("a connection in steady use outlives the request timeout and every answer is its own",
          "[e2e][connections]") {
    const auto env = short_timeouts();
    Stack stack(api_only());
    RawConnection connection(stack.base_url());
    const auto until = Clock::now() + 3 * kRequestTimeout;
    int answered = 0;
    while (Clock::now() < until) {
        connection.send(kHealth);
        const std::string answer = connection.read_response(5s);
        INFO("after " << answered << " answers: " << answer);
        REQUIRE(answer.starts_with("HTTP/1.1 200"));
        ++answered;
        std::this_thread::sleep_for(100ms);
    }
    CHECK(answered >= 10);
}

TEST_CASE(
    "a request whose head stops arriving is answered 408 after the request timeout and "
    "its connection closed",
    "[e2e][connections]") {
    const auto env = short_timeouts();
    Stack stack(api_only());
    RawConnection connection(stack.base_url());
    connection.send("GET /health HTTP/1.1\r\nHost: squawk\r\n");
    const auto sent = Clock::now();
    const auto ending = connection.read_to_close(10s);
    CHECK(ending.closed);
    CHECK(ending.received.starts_with("HTTP/1.1 408"));
    CHECK(Clock::now() - sent >= kRequestTimeout);
}

TEST_CASE(
    "an idle kept-alive connection outlasts the request timeout and is closed without a "
    "word after the keep-alive timeout",
    "[e2e][connections]") {
    const auto env = short_timeouts();
    Stack stack(api_only());
    RawConnection connection(stack.base_url());
    connection.send(kHealth);
    REQUIRE(connection.read_response(5s).starts_with("HTTP/1.1 200"));

    std::this_thread::sleep_for(2 * kRequestTimeout);
    connection.send(kHealth);
    REQUIRE(connection.read_response(5s).starts_with("HTTP/1.1 200"));

    const auto idle_from = Clock::now();
    const auto ending = connection.read_to_close(10s);
    CHECK(ending.closed);
    CHECK(ending.received.empty());
    CHECK(Clock::now() - idle_from >= kKeepaliveTimeout);
}
