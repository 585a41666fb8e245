// A pool's depth against the real Redis: besides what waits now, it counts every entry ever added
// to the pool's stream and every one acknowledged, the figures rates in and out are drawn from.
#include "common/core/queue/job_queue.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

using namespace squawk;

namespace {

std::vector<std::string> entry_ids(const std::vector<queue::Entry>& entries) {
    std::vector<std::string> out;
    for (const auto& e : entries) out.push_back(e.entry_id);
    return out;
}

}  // namespace

TEST_CASE("a pool's depth counts the entries ever added and those acknowledged") {
    auto redis = testing::isolated_redis("jq");
    queue::JobQueue queue(redis);
    queue.ensure_group("generate");
    queue.enqueue("generate", {1, 2, 3, 4, 5});
    const auto delivered = queue.read("generate", "w1", 3, 1);
    REQUIRE(delivered.size() == 3);
    queue.ack("generate", entry_ids(delivered));

    const auto depth = queue.depth("generate");
    CHECK(depth.added == 5);
    CHECK(depth.finished == 3);
    CHECK(depth.ready == 2);
    CHECK(depth.pending == 0);
}

TEST_CASE("a delivered entry not yet acknowledged is not counted as finished") {
    auto redis = testing::isolated_redis("jq");
    queue::JobQueue queue(redis);
    queue.ensure_group("generate");
    queue.enqueue("generate", {1, 2});
    REQUIRE(queue.read("generate", "w1", 2, 1).size() == 2);

    const auto depth = queue.depth("generate");
    CHECK(depth.added == 2);
    CHECK(depth.finished == 0);
    CHECK(depth.pending == 2);
}

TEST_CASE("a pool whose stream was never created counts nothing added or finished") {
    auto redis = testing::isolated_redis("jq");
    const auto depth = queue::JobQueue(redis).depth("publish");
    CHECK(depth.added == 0);
    CHECK(depth.finished == 0);
}
