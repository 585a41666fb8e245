// The walks that rebuild lost queues, against a real database: page by page they meet every
// queued job of every workspace, and every waiting (scheduled or retrying) job with its due time,
// once each, and they read those jobs alone, however many others the table holds.
#include "common/domain/jobs/job_repository.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

using namespace squawk;
using namespace squawk::jobs;

namespace {

Job noop_job(db::Session& s, long long workspace_id,
             std::optional<time::TimePoint> run_after = std::nullopt) {
    NewJob n;
    n.workspace_id = workspace_id;
    n.type = "noop";
    n.pool = "generate";
    n.payload = nlohmann::json::object();
    n.run_after = run_after;
    return JobRepository::insert(s, n);
}

Job job_in_status(db::Session& s, long long workspace_id, JobStatus status) {
    const auto job = noop_job(s, workspace_id);
    s.execute("UPDATE jobs SET status = ? WHERE id = ?", {std::string(name_of(status)), job.id});
    return job;
}

}  // namespace

TEST_CASE("the walk through queued jobs meets each queued job of every workspace once",
          "[integration][jobs]") {
    squawk::testing::TestDatabase db;
    db.pool().run([&](db::Session& s) {
        const auto first = testing::insert_workspace(s);
        const auto second = testing::insert_workspace(s);
        std::vector<long long> queued;
        // Interleaved, so that id order and the walk's order (workspace, then id) differ.
        for (int i = 0; i < 7; ++i) {
            queued.push_back(job_in_status(s, second, JobStatus::queued).id);
            queued.push_back(job_in_status(s, first, JobStatus::queued).id);
            job_in_status(s, first, JobStatus::running);
            job_in_status(s, second, JobStatus::completed);
            job_in_status(s, first, JobStatus::scheduled);
        }

        std::vector<long long> met;
        int pages = 0;
        for (QueuedCursor after;; ++pages) {
            const auto page = JobRepository::queued_after(s, after, 3);
            for (const auto& ref : page.jobs) {
                met.push_back(ref.id);
                CHECK(ref.pool == "generate");
            }
            if (page.jobs.size() < 3) break;
            after = page.last;
        }
        CHECK(pages == 4);
        std::sort(met.begin(), met.end());
        std::sort(queued.begin(), queued.end());
        CHECK(met == queued);
    });
}

TEST_CASE("a page of the walk through queued jobs reads the queued jobs alone",
          "[integration][jobs]") {
    squawk::testing::TestDatabase db;
    db.pool().run([&](db::Session& s) {
        const auto workspace = testing::insert_workspace(s);
        for (int i = 0; i < 300; ++i) job_in_status(s, workspace, JobStatus::completed);
        for (int i = 0; i < 5; ++i) job_in_status(s, workspace, JobStatus::queued);

        QueuedPage page;
        const auto read =
            testing::rows_read_by(s, [&] { page = JobRepository::queued_after(s, {}, 1000); });
        CHECK(page.jobs.size() == 5);
        CHECK(read > 0);
        CHECK(read < 20);
    });
}

TEST_CASE("the walk through waiting jobs meets each scheduled or retrying job once with its time",
          "[integration][jobs]") {
    squawk::testing::TestDatabase db;
    db.pool().run([&](db::Session& s) {
        const auto workspace = testing::insert_workspace(s);
        // Whole seconds, so that several jobs share a due time and the walk's ties go by id.
        const auto base =
            std::chrono::floor<std::chrono::seconds>(time::now()) + std::chrono::hours(1);
        std::map<long long, time::TimePoint> waiting;
        for (int i = 0; i < 8; ++i) {
            const auto due = base + std::chrono::seconds(i % 3);
            const auto job = noop_job(s, workspace, due);
            if (i % 2 == 1) s.execute("UPDATE jobs SET status = 'retrying' WHERE id = ?", {job.id});
            waiting[job.id] = due;
            job_in_status(s, workspace, JobStatus::queued);
            job_in_status(s, workspace, JobStatus::completed);
        }

        std::map<long long, time::TimePoint> met;
        int pages = 0;
        for (WaitingCursor after;; ++pages) {
            const auto page = JobRepository::retrying_after(s, after, 3);
            for (const auto& [ref, due] : page) {
                CHECK(met.emplace(ref.id, due).second);
                CHECK(ref.pool == "generate");
            }
            if (page.size() < 3) break;
            after = {page.back().second, page.back().first.id};
        }
        CHECK(pages == 2);
        CHECK(met == waiting);
    });
}

TEST_CASE("a page of the walk through waiting jobs reads the waiting jobs alone",
          "[integration][jobs]") {
    squawk::testing::TestDatabase db;
    db.pool().run([&](db::Session& s) {
        const auto workspace = testing::insert_workspace(s);
        for (int i = 0; i < 300; ++i) job_in_status(s, workspace, JobStatus::completed);
        for (int i = 0; i < 5; ++i)
            noop_job(s, workspace, time::now() + std::chrono::minutes(10 + i));

        std::vector<std::pair<QueueRef, time::TimePoint>> page;
        const auto read =
            testing::rows_read_by(s, [&] { page = JobRepository::retrying_after(s, {}, 1000); });
        CHECK(page.size() == 5);
        CHECK(read > 0);
        CHECK(read < 20);
    });
}
