// One run per key among concurrent callers, whether they are fibers of a worker's pool or plain
// threads of the API.
#include "common/core/runtime/single_flight.hpp"

#include <boost/fiber/fiber.hpp>
#include <boost/fiber/operations.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

using squawk::runtime::SingleFlight;
using namespace std::chrono_literals;

TEST_CASE("concurrent fibers of one key share a single run and its result", "[unit][runtime]") {
    SingleFlight<int> flights;
    int runs = 0;
    std::vector<int> got(8, 0);
    std::vector<boost::fibers::fiber> fibers;
    for (size_t i = 0; i < got.size(); ++i)
        fibers.emplace_back([&, i] {
            got[i] = flights.run("https://media.example/clip.mp4", [&] {
                ++runs;
                // The others arrive while this one is still running.
                boost::this_fiber::sleep_for(20ms);
                return 42;
            });
        });
    for (auto& f : fibers) f.join();
    CHECK(runs == 1);
    CHECK(got == std::vector<int>(8, 42));
    CHECK(flights.run("https://media.example/clip.mp4", [&] { return ++runs; }) == 2);
}

TEST_CASE("concurrent threads of one key share a single run, and other keys run apart",
          "[unit][runtime]") {
    SingleFlight<std::string> flights;
    std::atomic<int> runs = 0;
    std::atomic<bool> release = false;
    std::vector<std::string> got(6);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < got.size(); ++i)
        threads.emplace_back([&, i] {
            const std::string key = i % 2 ? "bob" : "alice";
            got[i] = flights.run(key, [&] {
                ++runs;
                while (!release) std::this_thread::sleep_for(1ms);
                return key + " signed in";
            });
        });
    // Every thread has either started the run of its key or waits for it.
    std::this_thread::sleep_for(100ms);
    release = true;
    for (auto& t : threads) t.join();
    CHECK(runs == 2);
    for (size_t i = 0; i < got.size(); ++i)
        CHECK(got[i] == (i % 2 ? "bob signed in" : "alice signed in"));
}

TEST_CASE("the callers waiting for a run that throws get its exception, later callers run again",
          "[unit][runtime]") {
    SingleFlight<int> flights;
    int runs = 0;
    std::vector<std::string> errors;
    std::vector<boost::fibers::fiber> fibers;
    for (int i = 0; i < 3; ++i)
        fibers.emplace_back([&] {
            try {
                flights.run("k", [&]() -> int {
                    ++runs;
                    boost::this_fiber::sleep_for(20ms);
                    throw std::runtime_error("refused");
                });
            } catch (const std::runtime_error& e) {
                errors.emplace_back(e.what());
            }
        });
    for (auto& f : fibers) f.join();
    CHECK(runs == 1);
    CHECK(errors == std::vector<std::string>(3, "refused"));
    CHECK(flights.run("k", [&] { return ++runs; }) == 2);
}
