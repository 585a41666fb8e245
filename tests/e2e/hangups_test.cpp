// Clients that hang up before their answer: the answer must die with their connection. The server
// reuses the number of a closed connection for the next one it accepts, so an answer written by
// number after the hang-up would reach a stranger (in the cluster run, HAProxy's next request).
#include "tests/support/raw_connection.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

using namespace squawk::testing;
using namespace std::chrono_literals;

TEST_CASE("an answer to a client that hung up never reaches the client that connects next",
          "[e2e][connections]") {
    StackOptions options = api_only();
    options.api_threads = 1;  // one reactor: every new connection lands where the answer waits
    Stack stack(options);
    const std::string me = "GET /v1/me HTTP/1.1\r\nHost: squawk\r\nAuthorization: Bearer " +
                           stack.tenant().test_key + "\r\n\r\n";
    const std::string health = "GET /health HTTP/1.1\r\nHost: squawk\r\n\r\n";

    std::atomic<bool> running{true};
    std::atomic<long long> hangups{0}, answers{0}, strangers{0};
    std::mutex mutex;
    std::string first_stranger;
    std::vector<std::thread> hanging_up, checking;
    // Hang-ups go on until the health checks have met enough of them, however the cores are
    // shared with whatever else runs.
    const auto give_up = std::chrono::steady_clock::now() + 60s;
    const auto enough = [&] {
        return (hangups >= 1000 && answers >= 200) || std::chrono::steady_clock::now() > give_up;
    };
    for (int t = 0; t < 2; ++t)
        hanging_up.emplace_back([&] {
            while (!enough()) {
                RawConnection c(stack.base_url());
                c.send(me);
                c.close();
                ++hangups;
            }
        });
    for (int t = 0; t < 2; ++t)
        checking.emplace_back([&] {
            while (running) {
                RawConnection c(stack.base_url());
                c.send(health);
                const std::string answer = c.read_response(5s);
                ++answers;
                if (answer.find("\"status\":\"ok\"") == std::string::npos && ++strangers == 1) {
                    std::lock_guard lock(mutex);
                    first_stranger = answer;
                }
            }
        });
    for (auto& t : hanging_up) t.join();
    running = false;
    for (auto& t : checking) t.join();

    INFO(hangups << " hang-ups, " << answers
                 << " health checks; first wrong answer: " << first_stranger);
    CHECK(hangups >= 1000);
    CHECK(answers >= 200);
    CHECK(strangers == 0);
}
