// The walk through queued jobs that rebuilds lost queues, against a real database: page by page
// it meets every queued job of every workspace once, and it reads the queued jobs alone, however
// many others the table holds.
#include "common/domain/jobs/job_repository.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace squawk;
using namespace squawk::jobs;

namespace {

Job job_in_status(db::Session& s, long long workspace_id, JobStatus status) {
    NewJob n;
    n.workspace_id = workspace_id;
    n.type = "noop";
    n.pool = "generate";
    n.payload = nlohmann::json::object();
    const auto job = JobRepository::insert(s, n);
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
