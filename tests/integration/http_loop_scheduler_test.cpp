// A fiber thread that runs its own HTTP loop while its fibers wait: many fibers hold requests in
// flight at once from one thread, every answer resumes its fiber on that thread, and a fiber
// woken from another thread runs even while the loop waits for sockets.
#include "workers/runtime/http_loop_scheduler.hpp"
#include "tests/support/fake_receiver.hpp"
#include "workers/runtime/fiber_http.hpp"

#include <boost/fiber/all.hpp>
#include <catch2/catch.hpp>

#include <set>
#include <thread>

using namespace squawk;
using namespace squawk::testing;

TEST_CASE("fibers on a thread with its own HTTP loop all get their answers on that thread",
          "[integration][http]") {
    FakeReceiver receiver;
    receiver.program("/slow", nlohmann::json::array(), {{"status", 202}, {"delay_ms", 300}});
    http::Client client(64, http::Client::Loop::owner_thread);
    constexpr int kFibers = 40;
    std::vector<long> statuses;
    std::set<std::thread::id> resumed_on;
    std::thread runner([&] {
        boost::fibers::use_scheduling_algorithm<workers::HttpLoopScheduler>(client);
        std::vector<boost::fibers::fiber> fibers;
        for (int i = 0; i < kFibers; ++i)
            fibers.emplace_back([&] {
                http::Request r;
                r.method = "POST";
                r.url = receiver.url("/slow");
                r.body = "{}";
                statuses.push_back(workers::fiber_send(client, r).status);
                resumed_on.insert(std::this_thread::get_id());
            });
        for (auto& f : fibers) f.join();
    });
    runner.join();

    CHECK(statuses == std::vector<long>(kFibers, 202));
    CHECK(resumed_on.size() == 1);
    // All were in flight together: each waited 300 ms at the receiver, and the last arrived
    // before the first was answered.
    std::vector<long long> arrivals;
    for (const auto& r : receiver.requests("/slow"))
        arrivals.push_back(r["received_at_ms"].get<long long>());
    REQUIRE(arrivals.size() == kFibers);
    CHECK(*std::max_element(arrivals.begin(), arrivals.end()) -
              *std::min_element(arrivals.begin(), arrivals.end()) <
          300);
}

TEST_CASE("a fiber woken from another thread runs while its thread's HTTP loop waits",
          "[integration][http]") {
    http::Client client(1, http::Client::Loop::owner_thread);
    boost::fibers::promise<int> promise;
    int got = 0;
    std::chrono::steady_clock::time_point resumed;
    std::thread runner([&] {
        boost::fibers::use_scheduling_algorithm<workers::HttpLoopScheduler>(client);
        boost::fibers::fiber waiter([&] {
            got = promise.get_future().get();
            resumed = std::chrono::steady_clock::now();
        });
        waiter.join();
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const auto fulfilled = std::chrono::steady_clock::now();
    promise.set_value(7);
    runner.join();
    CHECK(got == 7);
    // Woken, not found by the loop's own once-a-second look around.
    CHECK(resumed - fulfilled < std::chrono::milliseconds(900));
}
