// Redis through Sentinel: the client asks the Sentinels for the primary, writes there, and after
// the primary dies or is demoted finds the promoted replica by itself; what the old primary had
// replicated is still there.
#include "common/core/redis/redis_client.hpp"
#include "tests/support/redis_sentinel_group.hpp"
#include "tests/support/wait.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::testing;

namespace {

config::RedisSettings through(const RedisSentinelGroup& group) {
    config::RedisSettings settings;
    settings.port = 1;  // never used: the Sentinels say where the primary is
    settings.sentinels = group.sentinels();
    settings.sentinel_master = RedisSentinelGroup::kMaster;
    settings.timeout_ms = 1000;
    return settings;
}

config::RedisSettings direct(int port) {
    config::RedisSettings settings;
    settings.port = port;
    settings.timeout_ms = 1000;
    return settings;
}

// Empty while the server cannot answer: Sentinel drops its clients' connections as it changes
// the server's role, which a caller waiting for that role sees as a reset.
std::string role_of(int port) {
    try {
        redis::RedisClient client(direct(port));
        return client.command({"ROLE"}).elements.at(0).text;
    } catch (const redis::RedisUnavailable&) {
        return "";
    }
}

// Retries `SET key value` the way a daemon does (every failure is RedisUnavailable) until it
// succeeds; false when it never does within a minute.
bool set_until_accepted(redis::RedisClient& client, const std::string& key,
                        const std::string& value) {
    return wait_until(
        [&] {
            try {
                return client.command({"SET", key, value}).text == "OK";
            } catch (const redis::RedisUnavailable&) {
                return false;
            }
        },
        std::chrono::seconds(60), std::chrono::milliseconds(100));
}

}  // namespace

TEST_CASE("a client configured with Sentinels writes to the primary they name",
          "[integration][redis][sentinel]") {
    RedisSentinelGroup group;
    redis::RedisClient client(through(group));
    REQUIRE(client.command({"SET", "greeting", "hello"}).text == "OK");
    CHECK(redis::RedisClient(direct(group.primary_port())).command({"GET", "greeting"}).text ==
          "hello");
}

// [alone]: a Sentinel starved of CPU by a neighbour can enter its TILT mode and sit out the
// failover (a full run once failed so, at 93 s).
TEST_CASE("when the primary is killed the client follows the failover to the promoted replica",
          "[integration][redis][sentinel][alone]") {
    RedisSentinelGroup group;
    redis::RedisClient client(through(group));
    REQUIRE(client.command({"SET", "before", "kept"}).text == "OK");
    // Acknowledged by the replica, so the failover cannot lose it.
    REQUIRE(client.command({"WAIT", "1", "5000"}).integer == 1);

    group.kill_primary();
    REQUIRE(set_until_accepted(client, "after", "written"));

    CHECK(role_of(group.replica_port()) == "master");
    redis::RedisClient promoted(direct(group.replica_port()));
    CHECK(promoted.command({"GET", "before"}).text == "kept");
    CHECK(promoted.command({"GET", "after"}).text == "written");
}

TEST_CASE("a client of a primary demoted by a failover leaves it for the new primary",
          "[integration][redis][sentinel]") {
    RedisSentinelGroup group;
    redis::RedisClient client(through(group));
    REQUIRE(client.command({"SET", "first", "1"}).text == "OK");

    redis::RedisClient sentinel(direct(group.sentinels().front().port));
    REQUIRE(sentinel.command({"SENTINEL", "FAILOVER", RedisSentinelGroup::kMaster}).text == "OK");
    REQUIRE(wait_until([&] { return role_of(group.replica_port()) == "master"; },
                       std::chrono::seconds(30)));
    REQUIRE(wait_until([&] { return role_of(group.primary_port()) == "slave"; },
                       std::chrono::seconds(30)));

    REQUIRE(set_until_accepted(client, "second", "2"));
    redis::RedisClient promoted(direct(group.replica_port()));
    CHECK(promoted.command({"GET", "second"}).text == "2");
    CHECK(promoted.command({"GET", "first"}).text == "1");
}

TEST_CASE("without a Sentinel that knows the primary the client reports Redis unavailable",
          "[integration][redis][sentinel]") {
    RedisSentinelGroup group;
    auto settings = through(group);
    settings.sentinel_master = "unknown";
    redis::RedisClient client(settings);
    CHECK_THROWS_AS(client.command({"PING"}), redis::RedisUnavailable);
}
