// JobAdmin (squawkctl's jobs list, dead-letters list and jobs retry) against a real database.
#include "common/core/crypto/crypto.hpp"
#include "common/domain/jobs/job_admin.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::jobs;

namespace {

Job insert(db::Session& s, long long workspace_id) {
    NewJob n;
    n.workspace_id = workspace_id;
    n.type = "noop";
    n.pool = "generate";
    n.payload = nlohmann::json::object();
    n.max_attempts = 3;
    return JobRepository::insert(s, n);
}

// Claims the job and records a final failure, as a worker does on its last attempt.
void fail(db::Session& s, const Job& job, bool dead_lettered) {
    const std::string token = crypto::hex(crypto::random_bytes(16));
    const auto claimed =
        JobRepository::claim(s, {job.id}, token, "w1", time::now() + std::chrono::minutes(1));
    REQUIRE(claimed.size() == 1);
    auto o = outcome_of(claimed.front(), Outcome::Kind::failed);
    o.dead_lettered = dead_lettered;
    o.error = {
        {"code", "JOB_FAILED"}, {"message", "no luck"}, {"details", nlohmann::json::object()}};
    JobRepository::record_outcomes(s, {o});
}

std::vector<std::string> ids(const std::vector<JobSummary>& jobs) {
    std::vector<std::string> out;
    for (const auto& j : jobs) out.push_back(j.public_id);
    return out;
}

}  // namespace

TEST_CASE("the operator job list filters by status, workspace and dead letters, newest first") {
    testing::TestDatabase database;
    database.pool().run([](db::Session& s) {
        const Job a1 = insert(s, 1);
        const Job a2 = insert(s, 1);
        const Job b1 = insert(s, 2);
        const Job b2 = insert(s, 2);
        fail(s, a2, true);
        fail(s, b2, false);

        CHECK(ids(JobAdmin::list(s, {})) ==
              std::vector<std::string>{b2.public_id, b1.public_id, a2.public_id, a1.public_id});
        JobFilter queued;
        queued.status = JobStatus::queued;
        CHECK(ids(JobAdmin::list(s, queued)) ==
              std::vector<std::string>{b1.public_id, a1.public_id});
        JobFilter workspace_two;
        workspace_two.workspace_id = 2;
        workspace_two.limit = 1;
        CHECK(ids(JobAdmin::list(s, workspace_two)) == std::vector<std::string>{b2.public_id});
        JobFilter letters;
        letters.dead_lettered_only = true;
        const auto dead = JobAdmin::list(s, letters);
        REQUIRE(dead.size() == 1);
        CHECK(dead[0].public_id == a2.public_id);
        CHECK(dead[0].status == JobStatus::failed);
        CHECK(dead[0].dead_lettered);
        CHECK(dead[0].attempts == 1);
        CHECK(dead[0].error_code == "JOB_FAILED");
        CHECK(dead[0].error_message == "no luck");
    });
}

TEST_CASE("a dead-lettered job is requeued with its attempts and error reset") {
    testing::TestDatabase database;
    database.pool().run([](db::Session& s) {
        const Job job = insert(s, 1);
        fail(s, job, true);

        const auto ref = JobAdmin::requeue_dead_letter(s, job.public_id);
        REQUIRE(ref);
        CHECK(ref->id == job.id);
        CHECK(ref->pool == "generate");
        const auto after = JobRepository::find_by_id(s, job.id);
        REQUIRE(after);
        CHECK(after->status == JobStatus::queued);
        CHECK(after->attempts == 0);
        CHECK_FALSE(after->dead_lettered);
        CHECK(after->error.is_null());
        CHECK_FALSE(after->finished_at);
        CHECK(JobRepository::count_dead_letters(s) == 0);
        // Requeued once; a second retry finds no dead letter.
        CHECK_FALSE(JobAdmin::requeue_dead_letter(s, job.public_id));
        // It can be claimed again like any queued job.
        CHECK(JobRepository::claim(s, {job.id}, crypto::hex(crypto::random_bytes(16)), "w2",
                                   time::now() + std::chrono::minutes(1))
                  .size() == 1);
    });
}

TEST_CASE("only dead letters can be requeued: queued, completed and plainly failed jobs cannot") {
    testing::TestDatabase database;
    database.pool().run([](db::Session& s) {
        const Job queued = insert(s, 1);
        const Job failed = insert(s, 1);
        fail(s, failed, false);
        CHECK_FALSE(JobAdmin::requeue_dead_letter(s, queued.public_id));
        CHECK_FALSE(JobAdmin::requeue_dead_letter(s, failed.public_id));
        CHECK_FALSE(JobAdmin::requeue_dead_letter(s, "job_missing"));
        CHECK(JobRepository::find_by_id(s, failed.id)->status == JobStatus::failed);
    });
}
