// Rounds of requests: callers that arrive while two rounds are served are served together in the
// next one, each gets its own result or exception, and a lone caller is served at once on its
// thread.
#include "common/core/db/group_commit.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <latch>
#include <mutex>
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

TEST_CASE("requests that arrive while two rounds are served are served together in the next round",
          "[unit][db]") {
    Rounds rounds(64);
    constexpr int kCallers = 6;
    std::mutex mutex;
    std::vector<size_t> round_sizes;
    const auto seen = [&] {
        std::lock_guard lock(mutex);
        return round_sizes.size();
    };
    std::atomic<int> arrived = 0;
    const auto serve = [&](const std::vector<const int*>& requests) {
        {
            std::lock_guard lock(mutex);
            round_sizes.push_back(requests.size());
        }
        // The first two rounds last until every other caller has come and queued behind them.
        if (*requests.front() <= 1) {
            while (arrived < kCallers) std::this_thread::sleep_for(1ms);
            std::this_thread::sleep_for(100ms);
        }
        return doubled(requests);
    };
    std::vector<int> got(kCallers + 2, 0);
    std::vector<std::thread> callers;
    for (int i = 0; i < 2; ++i) {
        callers.emplace_back([&, i] { got[static_cast<size_t>(i)] = rounds.run(i, serve); });
        while (seen() < static_cast<size_t>(i + 1)) std::this_thread::sleep_for(1ms);
    }
    for (int i = 2; i < kCallers + 2; ++i)
        callers.emplace_back([&, i] {
            ++arrived;
            got[static_cast<size_t>(i)] = rounds.run(i, serve);
        });
    for (auto& t : callers) t.join();
    CHECK(round_sizes == std::vector<size_t>{1, 1, kCallers});
    for (int i = 0; i < kCallers + 2; ++i) CHECK(got[static_cast<size_t>(i)] == 2 * i);
}

TEST_CASE("a round takes at most its limit of requests and the rest wait for the next",
          "[unit][db]") {
    Rounds rounds(2);
    std::mutex mutex;
    std::vector<size_t> round_sizes;
    const auto seen = [&] {
        std::lock_guard lock(mutex);
        return round_sizes.size();
    };
    std::atomic<int> arrived = 0;
    constexpr int kCallers = 5;
    const auto serve = [&](const std::vector<const int*>& requests) {
        {
            std::lock_guard lock(mutex);
            round_sizes.push_back(requests.size());
        }
        if (*requests.front() <= 1) {
            while (arrived < kCallers) std::this_thread::sleep_for(1ms);
            std::this_thread::sleep_for(100ms);
        }
        return doubled(requests);
    };
    std::vector<std::thread> callers;
    for (int i = 0; i < 2; ++i) {
        callers.emplace_back([&, i] { rounds.run(i, serve); });
        while (seen() < static_cast<size_t>(i + 1)) std::this_thread::sleep_for(1ms);
    }
    for (int i = 2; i < kCallers + 2; ++i)
        callers.emplace_back([&, i] {
            ++arrived;
            CHECK(rounds.run(i, serve) == 2 * i);
        });
    for (auto& t : callers) t.join();
    // Two rounds of two run at once, then the last caller's.
    CHECK(round_sizes == std::vector<size_t>{1, 1, 2, 2, 1});
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
