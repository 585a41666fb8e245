// The scheduler's sweep for lost work against a real database: a queued job nobody took up for
// long, and a scheduled or retrying one long past its time (its delayed entry lost), are queued
// again; every other job is left alone, and only the jobs taken are read, however many wait for a
// later time.
#include "common/core/db/sql_text.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace squawk;
using namespace squawk::jobs;
using namespace std::chrono_literals;

namespace {

constexpr auto kStaleAfter = 30s;

Job job_due(db::Session& s, long long workspace_id, std::optional<time::TimePoint> run_after) {
    NewJob n;
    n.workspace_id = workspace_id;
    n.type = "social.publish";
    n.pool = "publish";
    n.payload = nlohmann::json::object();
    n.run_after = run_after;
    return JobRepository::insert(s, n);
}

void set_state(db::Session& s, const Job& job, JobStatus status, time::TimePoint at) {
    s.execute("UPDATE jobs SET status = ?, enqueued_at = ?, run_after = ? WHERE id = ?",
              {std::string(name_of(status)), db::time_param(at), db::time_param(at), job.id});
}

std::string status_of(db::Session& s, const Job& job) {
    return s.query_one("SELECT status FROM jobs WHERE id = ?", {job.id})->text(0);
}

std::vector<long long> ids_of(const std::vector<QueueRef>& refs) {
    std::vector<long long> ids;
    for (const auto& r : refs) ids.push_back(r.id);
    std::sort(ids.begin(), ids.end());
    return ids;
}

}  // namespace

TEST_CASE("the stale sweep queues again the jobs long unclaimed or long overdue and no others",
          "[integration][jobs]") {
    squawk::testing::TestDatabase db;
    db.pool().run([&](db::Session& s) {
        const auto workspace = testing::insert_workspace(s);
        const auto long_ago = time::now() - 2min;
        const auto unclaimed = job_due(s, workspace, std::nullopt);
        set_state(s, unclaimed, JobStatus::queued, long_ago);
        const auto just_queued = job_due(s, workspace, std::nullopt);
        const auto overdue = job_due(s, workspace, long_ago);
        const auto retrying = job_due(s, workspace, std::nullopt);
        set_state(s, retrying, JobStatus::retrying, long_ago);
        const auto just_due = job_due(s, workspace, time::now() - 1s);
        const auto later = job_due(s, workspace, time::now() + 1h);
        const auto running = job_due(s, workspace, std::nullopt);
        set_state(s, running, JobStatus::running, long_ago);
        const auto done = job_due(s, workspace, long_ago);
        set_state(s, done, JobStatus::completed, long_ago);

        const auto taken = JobRepository::take_stale_queued(s, time::now() - kStaleAfter, 100);
        CHECK(ids_of(taken) == std::vector<long long>{unclaimed.id, overdue.id, retrying.id});
        for (const auto& ref : taken) CHECK(ref.pool == "publish");
        for (const auto& job : {unclaimed, overdue, retrying}) CHECK(status_of(s, job) == "queued");
        CHECK(status_of(s, just_due) == "scheduled");
        CHECK(status_of(s, later) == "scheduled");
        CHECK(status_of(s, running) == "running");
        CHECK(status_of(s, done) == "completed");
        // Queued afresh, none of them is stale at the next sweep.
        CHECK(JobRepository::take_stale_queued(s, time::now() - kStaleAfter, 100).empty());
    });
}

TEST_CASE("the stale sweep reads only the jobs it takes, however many wait for a later time",
          "[integration][jobs]") {
    squawk::testing::TestDatabase db;
    db.pool().run([&](db::Session& s) {
        const auto workspace = testing::insert_workspace(s);
        for (int i = 0; i < 300; ++i) job_due(s, workspace, time::now() + 1h + i * 1s);
        const auto overdue = job_due(s, workspace, time::now() - 2min);

        std::vector<QueueRef> taken;
        const auto read = testing::rows_read_by(s, [&] {
            taken = JobRepository::take_stale_queued(s, time::now() - kStaleAfter, 1000);
        });
        CHECK(ids_of(taken) == std::vector<long long>{overdue.id});
        // The overdue job through the index and by its key, not the 300 that wait.
        CHECK(read > 0);
        CHECK(read < 20);
    });
}
