// The worker registry against the real Redis: a worker announced is listed with what it said, a
// refresh replaces its entry and keeps it alive, one that stops refreshing expires and leaves the
// index, and one withdrawn on a clean shutdown is gone at once.
#include "common/core/queue/worker_registry.hpp"
#include "tests/support/test_database.hpp"
#include "tests/support/wait.hpp"

#include <catch2/catch.hpp>

#include <thread>

using namespace squawk;
using namespace std::chrono_literals;

namespace {

queue::WorkerInfo worker(const std::string& id, long long generating) {
    return {id,
            "host-a",
            4242,
            {{"generate", 2, 16, generating}, {"webhooks", 1, 8, 1}},
            *time::parse_iso8601("2026-11-26T10:00:00Z")};
}

std::vector<std::string> ids(const std::vector<queue::WorkerInfo>& workers) {
    std::vector<std::string> out;
    for (const auto& w : workers) out.push_back(w.id);
    return out;
}

long long index_size(redis::RedisClient& redis, queue::WorkerRegistry& registry) {
    return redis.command({"SCARD", registry.index_key()}).integer;
}

}  // namespace

TEST_CASE("an announced worker is listed with its host, pools and tasks in flight") {
    auto redis = testing::isolated_redis("wr");
    queue::WorkerRegistry registry(redis);
    CHECK(registry.alive().empty());

    registry.announce(worker("w-2", 0), 10s);
    registry.announce(worker("w-1", 3), 10s);
    const auto alive = registry.alive();
    REQUIRE(ids(alive) == std::vector<std::string>{"w-1", "w-2"});
    const auto& w = alive[0];
    CHECK(w.host == "host-a");
    CHECK(w.pid == 4242);
    REQUIRE(w.pools.size() == 2);
    CHECK(w.pools[0].name == "generate");
    CHECK(w.pools[0].threads == 2);
    CHECK(w.pools[0].fibers == 16);
    CHECK(w.pools[0].in_flight == 3);
    CHECK(w.pools[1].name == "webhooks");
    CHECK(w.in_flight() == 4);
    CHECK(time::format_iso8601(w.started_at) == "2026-11-26T10:00:00.000000Z");
    CHECK(queue::to_json(w)["in_flight"] == 4);
    CHECK(alive[1].in_flight() == 1);
    for (const char* id : {"w-1", "w-2"}) registry.withdraw(id);
}

TEST_CASE("a refresh replaces the entry and keeps it alive past its first time to live") {
    auto redis = testing::isolated_redis("wr");
    queue::WorkerRegistry registry(redis);
    registry.announce(worker("w-1", 5), 600ms);
    for (int i = 0; i < 4; ++i) {
        std::this_thread::sleep_for(300ms);
        registry.announce(worker("w-1", i), 600ms);
    }
    const auto alive = registry.alive();
    REQUIRE(alive.size() == 1);
    CHECK(alive[0].pools[0].in_flight == 3);
    CHECK(index_size(redis, registry) == 1);
    registry.withdraw("w-1");
}

TEST_CASE("a worker that stops refreshing expires and its id leaves the index when read") {
    auto redis = testing::isolated_redis("wr");
    queue::WorkerRegistry registry(redis);
    registry.announce(worker("killed", 2), 300ms);
    registry.announce(worker("alive", 0), 20s);
    REQUIRE(registry.alive().size() == 2);

    REQUIRE(testing::wait_until([&] { return registry.alive().size() == 1; }, 5s));
    CHECK(ids(registry.alive()) == std::vector<std::string>{"alive"});
    CHECK(index_size(redis, registry) == 1);
    CHECK(redis.command({"SISMEMBER", registry.index_key(), "killed"}).integer == 0);
    registry.withdraw("alive");
}

TEST_CASE("a worker withdrawn on a clean shutdown is gone at once, entry and index") {
    auto redis = testing::isolated_redis("wr");
    queue::WorkerRegistry registry(redis);
    registry.announce(worker("leaving", 0), 20s);
    registry.announce(worker("staying", 0), 20s);

    registry.withdraw("leaving");
    CHECK(ids(registry.alive()) == std::vector<std::string>{"staying"});
    CHECK(redis.command({"EXISTS", registry.entry_key("leaving")}).integer == 0);
    CHECK(redis.command({"SISMEMBER", registry.index_key(), "leaving"}).integer == 0);
    registry.withdraw("staying");
    CHECK(registry.alive().empty());
    CHECK(index_size(redis, registry) == 0);
}
