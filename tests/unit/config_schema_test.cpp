// How config::parse treats what an operator writes: unknown keys and bad values stop the process
// with a message naming the culprit; SQUAWK_* environment variables override the file.
#include "common/core/config/config.hpp"
#include "common/core/config/section_schema.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>

using namespace squawk;
using Catch::Matchers::Contains;

namespace {
const std::map<std::string, std::string> kNoEnvironment;
}

TEST_CASE("an unknown key is refused by its full name") {
    CHECK_THROWS_WITH(config::parse("[mysql]\nprot = 3306\n", kNoEnvironment),
                      Contains("mysql.prot"));
    CHECK_THROWS_AS(config::parse("[workers.generate]\nfibres = 8\n", kNoEnvironment),
                    config::ConfigError);
}

TEST_CASE("a value of the wrong type or out of range is refused") {
    CHECK_THROWS_AS(config::parse("[mysql]\nport = \"3306\"\n", kNoEnvironment),
                    config::ConfigError);
    CHECK_THROWS_WITH(config::parse("[redis]\nport = 70000\n", kNoEnvironment),
                      Contains("redis.port"));
    CHECK_THROWS_WITH(config::parse("[api]\nlisten = \"localhost\"\n", kNoEnvironment),
                      Contains("api.listen"));
    CHECK_THROWS_AS(config::parse("[log]\nlevel = \"loud\"\n", kNoEnvironment),
                    config::ConfigError);
}

TEST_CASE("text that is not TOML is refused") {
    CHECK_THROWS_AS(config::parse("[mysql\nport = 1\n", kNoEnvironment), config::ConfigError);
}

TEST_CASE("environment variables override the file") {
    const auto c = config::parse("[mysql]\nport = 3306\npassword = \"\"\n",
                                 {{"SQUAWK_MYSQL_PORT", "13306"},
                                  {"SQUAWK_MYSQL_PASSWORD", "s3cret"},
                                  {"SQUAWK_TIME_SCALE", "0.01"},
                                  {"SQUAWK_SECURITY_ALLOW_PRIVATE_TARGETS", "true"}});
    CHECK(c.mysql.port == 13306);
    CHECK(c.mysql.password == "s3cret");
    CHECK(c.time_scale == Approx(0.01));
    CHECK(c.security.allow_private_targets);
}

TEST_CASE("a systemd drop-in's pool concurrency variables reach that pool only") {
    const auto c = config::parse(
        "[workers.generate]\nthreads = 1\nfibers = 16\n",
        {{"SQUAWK_WORKERS_GENERATE_THREADS", "2"}, {"SQUAWK_WORKERS_GENERATE_FIBERS", "64"}});
    CHECK(c.workers.pools.at("generate").threads == 2);
    CHECK(c.workers.pools.at("generate").fibers == 64);
    CHECK(c.workers.pools.at("publish").fibers == config::PoolSettings{}.fibers);
}

TEST_CASE("a pool's share of HTTP connections is one per fiber unless set, and never more") {
    const auto c = config::parse(
        "[workers.webhooks]\nthreads = 2\nfibers = 100\n"
        "[workers.publish]\nthreads = 2\nfibers = 3072\n"
        "[workers.sync]\nthreads = 1\nfibers = 8\nhttp_connections = 64\n",
        kNoEnvironment);
    CHECK(config::http_connections_of(c.workers.pools.at("webhooks")) == 200);
    // Publish fibers mostly wait for their posts' time: 512 by default.
    CHECK(config::http_connections_of(c.workers.pools.at("publish")) == 512);
    CHECK(config::http_connections_of(c.workers.pools.at("sync")) == 8);
}

TEST_CASE("a bad environment value is refused naming the variable") {
    CHECK_THROWS_WITH(config::parse("", {{"SQUAWK_MYSQL_PORT", "many"}}),
                      Contains("SQUAWK_MYSQL_PORT"));
}

TEST_CASE("environment variables outside the schema are ignored") {
    CHECK_NOTHROW(config::parse("", {{"SQUAWK_TEST_MYSQL_PORT", "1"}, {"SQUAWK_CONFIG", "x"}}));
}

TEST_CASE("checks across a section's keys see the environment's values") {
    const std::string file = "[jobs]\nbackoff_base_seconds = 10.0\nbackoff_max_seconds = 5.0\n";
    CHECK_THROWS_WITH(config::parse(file, kNoEnvironment), Contains("jobs.backoff_max_seconds"));
    const auto c = config::parse(file, {{"SQUAWK_JOBS_BACKOFF_MAX_SECONDS", "60"}});
    CHECK(c.jobs.backoff_max_seconds == Approx(60.0));
}

TEST_CASE("a module's section is read through its own rows, relative to the section") {
    struct Example {
        int count = 1;
        std::string name;
    };
    config::SectionSchema<Example> schema{
        {config::integer("count", &Example::count, 1, 10), config::text("name", &Example::name)},
        {}};
    Example example;
    schema.rows[0].assign(example, config::Scalar{7LL}, "example.count");
    schema.rows[1].assign(example, config::Scalar{std::string("seven")}, "example.name");
    CHECK(example.count == 7);
    CHECK(example.name == "seven");
    CHECK_THROWS_WITH(schema.rows[0].assign(example, config::Scalar{11LL}, "example.count"),
                      Contains("example.count"));
}

TEST_CASE(
    "redis.sentinels takes host:port addresses separated by commas, from file or environment") {
    const auto c =
        config::parse("[redis]\nsentinels = \"10.0.0.1:26379, 10.0.0.2:26379,sentinel-3:26380\"\n",
                      kNoEnvironment);
    REQUIRE(c.redis.sentinels.size() == 3);
    CHECK(c.redis.sentinels[0] == config::HostPort{"10.0.0.1", 26379});
    CHECK(c.redis.sentinels[2] == config::HostPort{"sentinel-3", 26380});
    CHECK(c.redis.sentinel_master == "squawk");
    CHECK(config::parse("", {{"SQUAWK_REDIS_SENTINELS", "127.0.0.1:1"}}).redis.sentinels.size() ==
          1);
    CHECK(config::parse("", kNoEnvironment).redis.sentinels.empty());
    for (const char* bad : {"10.0.0.1", "10.0.0.1:26379,", ":26379", "a:0", "a:65536", "a:1x"})
        CHECK_THROWS_WITH(
            config::parse(std::string("[redis]\nsentinels = \"") + bad + "\"\n", kNoEnvironment),
            Contains("redis.sentinels"));
}

TEST_CASE("api.listen splits host and port at the last colon and allows port 0") {
    const auto c = config::parse("[api]\nlisten = \"[::1]:0\"\n", kNoEnvironment);
    CHECK(c.api.listen_host == "[::1]");
    CHECK(c.api.listen_port == 0);
}
