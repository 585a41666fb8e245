// Claiming jobs against a real database: a job waiting for its run_after is claimable only within
// the claiming pool's lead, the claim carries the time so the task can wait for it, and a retried
// claim finds what its token already holds; a worker's beat extends the leases of its running jobs
// that are running short.
#include "common/core/db/sql_text.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::jobs;
using namespace std::chrono_literals;

namespace {

Job scheduled_in(db::Session& s, std::chrono::milliseconds from_now) {
    NewJob n;
    n.workspace_id = testing::insert_workspace(s);
    n.type = "social.publish";
    n.pool = "publish";
    n.payload = nlohmann::json::object();
    n.run_after = time::now() + from_now;
    return JobRepository::insert(s, n);
}

std::vector<ClaimedJob> claim(db::Session& s, const Job& job, std::chrono::milliseconds lead) {
    return JobRepository::claim(s, {job.id}, "token-" + std::to_string(lead.count()), "w1",
                                time::now() + 1min, lead);
}

}  // namespace

TEST_CASE("a job is claimed before its run_after only within the pool's lead, carrying its time",
          "[integration][jobs]") {
    squawk::testing::TestDatabase db;
    db.pool().run([&](db::Session& s) {
        const auto job = scheduled_in(s, 2s);
        CHECK(claim(s, job, 0ms).empty());
        CHECK(claim(s, job, 500ms).empty());

        const auto claimed = claim(s, job, 5000ms);
        REQUIRE(claimed.size() == 1);
        REQUIRE(claimed[0].run_after);
        CHECK(time::to_unix_ms(*claimed[0].run_after) == time::to_unix_ms(*job.run_after));
        CHECK(claimed[0].attempts == 1);
    });
}

TEST_CASE("a job without run_after is claimed at once and carries no time", "[integration][jobs]") {
    squawk::testing::TestDatabase db;
    db.pool().run([&](db::Session& s) {
        NewJob n;
        n.workspace_id = testing::insert_workspace(s);
        n.type = "noop";
        n.pool = "generate";
        n.payload = nlohmann::json::object();
        const auto job = JobRepository::insert(s, n);
        const auto claimed = claim(s, job, 0ms);
        REQUIRE(claimed.size() == 1);
        CHECK_FALSE(claimed[0].run_after);
    });
}

TEST_CASE("a claim retried with its token finds the jobs the first attempt claimed, once",
          "[integration][jobs]") {
    squawk::testing::TestDatabase db;
    db.pool().run([&](db::Session& s) {
        const auto job = scheduled_in(s, 0ms);
        const auto first =
            JobRepository::claim(s, {job.id}, "lost-answer", "w1", time::now() + 1min, 0ms);
        REQUIRE(first.size() == 1);
        // The worker never heard the answer and claims again with the same token.
        const auto again =
            JobRepository::claim(s, {job.id}, "lost-answer", "w1", time::now() + 1min, 0ms);
        REQUIRE(again.size() == 1);
        CHECK(again[0].id == job.id);
        CHECK(again[0].attempts == 1);
        CHECK(JobRepository::claim(s, {job.id}, "someone-else", "w2", time::now() + 1min, 0ms)
                  .empty());
    });
}

TEST_CASE(
    "a beat extends the leases of its worker's running jobs that end before the renewal "
    "time and leaves the others",
    "[integration][jobs]") {
    squawk::testing::TestDatabase db;
    db.pool().run([&](db::Session& s) {
        const auto lease_of = [&](const Job& job) {
            return s
                .query_one(
                    "SELECT CAST(UNIX_TIMESTAMP(lease_until) AS SIGNED) FROM jobs"
                    " WHERE id = ?",
                    {job.id})
                ->integer(0);
        };
        const auto mine = scheduled_in(s, 0ms);
        const auto theirs = scheduled_in(s, 0ms);
        const auto taken_at = time::now();
        REQUIRE(JobRepository::claim(s, {mine.id}, "mine", "w1", taken_at + 1min).size() == 1);
        REQUIRE(JobRepository::claim(s, {theirs.id}, "theirs", "w2", taken_at + 1min).size() == 1);
        const auto claimed_until = lease_of(mine);

        // A lease ending after the renewal time has enough ahead of it.
        JobRepository::extend_leases(s, "w1", taken_at + 5min, taken_at + 30s);
        CHECK(lease_of(mine) == claimed_until);

        JobRepository::extend_leases(s, "w1", taken_at + 5min, taken_at + 2min);
        CHECK(lease_of(mine) == claimed_until + 240);
        CHECK(lease_of(theirs) == claimed_until);
    });
}
