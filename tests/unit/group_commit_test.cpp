// Rounds of requests: callers that arrive while two rounds are served are served together in the
// next one, each gets its own result or exception, and a lone caller is served at once on its
// thread.
#include "common/core/db/group_commit.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <latch>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using squawk::db::GroupCommit;
using namespace std::chrono_literals;

namespace {

using Rounds = GroupCommit<int, int>;

std::vector<Rounds::Outcome> doubled(const std::vector<const int*>& requests) {
    std::vector<Rounds::Outcome> out;
    for (const auto* r : requests) out.push_back({*r * 2, nullptr});
    return out;
}

}  // namespace

TEST_CASE("a lone request is served at once, on its caller's thread", "[unit][db]") {
    Rounds rounds(8);
    std::thread::id served_on;
    const auto serve = [&](const std::vector<const int*>& requests) {
        served_on = std::this_thread::get_id();
        return doubled(requests);
    };
    CHECK(rounds.run(21, serve) == 42);
    CHECK(served_on == std::this_thread::get_id());
}

namespace {

// What `rounds` makes of callers 0 and 1, whose rounds last until `waiting` more callers (2, 3,
// ...) have come and queued behind them: the size of each round in the order they ran, and each
// caller's result.
struct Served {
    std::vector<size_t> round_sizes;
    std::vector<int> results;
};

Served behind_two_held_rounds(Rounds& rounds, int waiting) {
    Served served;
    served.results.assign(static_cast<size_t>(waiting + 2), 0);
    std::mutex mutex;
    const auto seen = [&] {
        std::lock_guard lock(mutex);
        return served.round_sizes.size();
    };
    std::atomic<int> arrived = 0;
    const auto serve = [&](const std::vector<const int*>& requests) {
        {
            std::lock_guard lock(mutex);
            served.round_sizes.push_back(requests.size());
        }
        if (*requests.front() <= 1) {
            while (arrived < waiting) std::this_thread::sleep_for(1ms);
            std::this_thread::sleep_for(100ms);
        }
        return doubled(requests);
    };
    std::vector<std::thread> callers;
    for (int i = 0; i < waiting + 2; ++i) {
        callers.emplace_back([&, i] {
            if (i >= 2) ++arrived;
            served.results[static_cast<size_t>(i)] = rounds.run(i, serve);
        });
        if (i < 2)
            while (seen() < static_cast<size_t>(i + 1)) std::this_thread::sleep_for(1ms);
    }
    for (auto& t : callers) t.join();
    return served;
}

}  // namespace

TEST_CASE("requests that arrive while two rounds are served are served together in the next round",
          "[unit][db]") {
    Rounds rounds(64);
    constexpr int kWaiting = 6;
    const auto served = behind_two_held_rounds(rounds, kWaiting);
    CHECK(served.round_sizes == std::vector<size_t>{1, 1, kWaiting});
    for (int i = 0; i < kWaiting + 2; ++i) CHECK(served.results[static_cast<size_t>(i)] == 2 * i);
}

TEST_CASE("a round takes at most its limit of requests and the rest wait for the next",
          "[unit][db]") {
    Rounds rounds(2);
    constexpr int kWaiting = 5;
    const auto served = behind_two_held_rounds(rounds, kWaiting);
    // Two rounds of two run at once, then the last caller's. Rounds are recorded as they start
    // serving, after they were formed: the round of one may start before a round of two whose
    // caller was slow to run.
    REQUIRE(served.round_sizes.size() == 5);
    CHECK(std::vector<size_t>(served.round_sizes.begin(), served.round_sizes.begin() + 2) ==
          std::vector<size_t>{1, 1});
    std::multiset<size_t> later(served.round_sizes.begin() + 2, served.round_sizes.end());
    CHECK(later == std::multiset<size_t>{1, 2, 2});
    for (int i = 0; i < kWaiting + 2; ++i) CHECK(served.results[static_cast<size_t>(i)] == 2 * i);
}

TEST_CASE("each request of a round gets its own exception, and a round that throws fails all of it",
          "[unit][db]") {
    Rounds rounds(8);
    const auto odd_refused = [](const std::vector<const int*>& requests) {
        std::vector<Rounds::Outcome> out;
        for (const auto* r : requests)
            if (*r % 2)
                out.push_back(
                    {std::nullopt, std::make_exception_ptr(std::invalid_argument("odd"))});
            else
                out.push_back({*r, nullptr});
        return out;
    };
    CHECK(rounds.run(4, odd_refused) == 4);
    CHECK_THROWS_AS(rounds.run(3, odd_refused), std::invalid_argument);

    const auto broken = [](const std::vector<const int*>&) -> std::vector<Rounds::Outcome> {
        throw std::runtime_error("the server went away");
    };
    CHECK_THROWS_WITH(rounds.run(1, broken), "the server went away");
    const auto short_of_one = [](const std::vector<const int*>&) {
        return std::vector<Rounds::Outcome>{};
    };
    CHECK_THROWS_AS(rounds.run(1, short_of_one), std::logic_error);
    // A failed round leaves the next one free to run.
    CHECK(rounds.run(5, doubled) == 10);
}

TEST_CASE("many callers at once each get their own result and none is left waiting", "[unit][db]") {
    // Each caller is woken on its own: a wake-up lost between rounds would leave a caller asleep
    // and this test hanging.
    Rounds rounds(8);
    constexpr int kCallers = 16;
    constexpr int kEach = 300;
    std::atomic<int> wrong = 0;
    std::atomic<size_t> largest = 0;
    const auto serve = [&](const std::vector<const int*>& requests) {
        size_t seen = largest;
        while (requests.size() > seen && !largest.compare_exchange_weak(seen, requests.size())) {
        }
        std::this_thread::sleep_for(100us);  // the server's round trips, while callers queue
        return doubled(requests);
    };
    std::vector<std::thread> callers;
    for (int c = 0; c < kCallers; ++c)
        callers.emplace_back([&, c] {
            for (int i = 0; i < kEach; ++i) {
                const int request = c * kEach + i;
                if (rounds.run(request, serve) != 2 * request) ++wrong;
            }
        });
    for (auto& t : callers) t.join();
    CHECK(wrong == 0);
    CHECK(largest > 1);
    CHECK(largest <= 8);
}
