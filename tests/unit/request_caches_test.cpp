// The API process's caches of the request path: which jobs count as finished for good and the
// bytes a remembered job is answered with, the identity-epoch rule of cached records, how long a
// read epoch is trusted, and the workspace key that keeps tenants apart.
#include "api/server/envelope.hpp"
#include "api/server/epoch_cache.hpp"
#include "api/server/finished_job_cache.hpp"
#include "api/server/recent_epoch.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using squawk::api::EpochCache;
using squawk::api::FinishedJobCache;
using squawk::api::RecentEpoch;

namespace {

jobs::Job job(jobs::JobStatus status, bool dead_lettered = false) {
    jobs::Job j;
    j.public_id = "job_1";
    j.workspace_id = 7;
    j.status = status;
    j.dead_lettered = dead_lettered;
    return j;
}

}  // namespace

TEST_CASE("completed, cancelled and finally failed jobs are remembered, and others are not",
          "[unit][job_cache]") {
    const nlohmann::json rendered = {{"job_id", "job_1"}};
    for (const auto status : {jobs::JobStatus::completed, jobs::JobStatus::cancelled}) {
        FinishedJobCache cache;
        cache.remember(job(status), rendered);
        CHECK(cache.find(7, "job_1") == api::to_wire(rendered));
    }
    FinishedJobCache failed;
    failed.remember(job(jobs::JobStatus::failed), rendered);
    CHECK(failed.find(7, "job_1").has_value());
    for (const auto status :
         {jobs::JobStatus::queued, jobs::JobStatus::running, jobs::JobStatus::retrying}) {
        FinishedJobCache cache;
        cache.remember(job(status), rendered);
        CHECK_FALSE(cache.find(7, "job_1").has_value());
    }
}

TEST_CASE("a remembered job is answered with the bytes of the envelope built around it",
          "[unit][job_cache]") {
    const nlohmann::json rendered = {
        {"job_id", "job_1"},
        {"status", "completed"},
        {"result", {{"text", "caf\u00e9 \"quoted\"\n"}, {"sizes", {1, 2.5, nullptr}}}},
        {"error", nullptr}};
    FinishedJobCache cache;
    cache.remember(job(jobs::JobStatus::completed), rendered);
    const auto remembered = cache.find(7, "job_1");
    REQUIRE(remembered.has_value());
    const api::Meta meta{"req_\"odd\"\\id", "2026-11-29T00:10:00.127Z"};
    const auto sent = api::success_wire(*remembered, meta);
    CHECK(sent == api::to_wire(api::success_envelope(rendered, std::nullopt, meta)));
    CHECK(nlohmann::json::parse(sent)["data"] == rendered);
}

TEST_CASE("a dead-lettered job is not remembered, since an operator may requeue it",
          "[unit][job_cache]") {
    FinishedJobCache cache;
    cache.remember(job(jobs::JobStatus::failed, true), {{"job_id", "job_1"}});
    CHECK_FALSE(cache.find(7, "job_1").has_value());
}

TEST_CASE("a remembered job is found only by its own workspace", "[unit][job_cache]") {
    FinishedJobCache cache;
    cache.remember(job(jobs::JobStatus::completed), {{"job_id", "job_1"}});
    CHECK(cache.find(7, "job_1").has_value());
    CHECK_FALSE(cache.find(8, "job_1").has_value());
    CHECK_FALSE(cache.find(7, "job_2").has_value());
}

TEST_CASE("a cached record answers only under the identity epoch it was read under",
          "[unit][epoch_cache]") {
    EpochCache<std::string> cache(std::chrono::seconds(30));
    cache.put("1", "first name", 4);
    CHECK(cache.get("1", 4) == "first name");
    CHECK_FALSE(cache.get("1", 5).has_value());
    const auto peeked = cache.peek("1");
    REQUIRE(peeked.has_value());
    CHECK(peeked->epoch == 4);
    cache.put("1", "second name", 5);
    CHECK(cache.get("1", 5) == "second name");
    CHECK_FALSE(cache.get("2", 5).has_value());
}

TEST_CASE("an epoch cache with no lifetime keeps nothing", "[unit][epoch_cache]") {
    EpochCache<std::string> cache(std::chrono::seconds(0));
    cache.put("1", "name", 1);
    CHECK_FALSE(cache.peek("1").has_value());
    CHECK_FALSE(cache.get("1", 1).has_value());
}

TEST_CASE("a read identity epoch is trusted only for its freshness, counted from before the read",
          "[unit][recent_epoch]") {
    using namespace std::chrono_literals;
    RecentEpoch recent(100ms);
    const auto t0 = RecentEpoch::Clock::now();
    CHECK_FALSE(recent.get(t0).has_value());

    recent.saw(3, t0);
    CHECK(recent.get(t0 + 99ms) == 3);
    CHECK_FALSE(recent.get(t0 + 100ms).has_value());

    // A read that started earlier but finished later does not replace a newer one.
    recent.saw(4, t0 + 50ms);
    recent.saw(3, t0 + 10ms);
    CHECK(recent.get(t0 + 120ms) == 4);
    CHECK_FALSE(recent.get(t0 + 150ms).has_value());
}

TEST_CASE("a read identity epoch with no freshness is never trusted", "[unit][recent_epoch]") {
    RecentEpoch recent(std::chrono::milliseconds(0));
    const auto now = RecentEpoch::Clock::now();
    recent.saw(3, now);
    CHECK_FALSE(recent.get(now).has_value());
}
