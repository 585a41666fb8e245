// The dashboard's list pages on a big workspace: 100,000 jobs and 1,000,000 request-log rows,
// a signed-in session, 64 connections with wrk on GET /dashboard/jobs, /dashboard/logs and (when
// the build has it) /dashboard/webhooks/deliveries. Each page's p99 against the target 50 ms.
// BENCH_DASHBOARD_JOBS and BENCH_DASHBOARD_LOGS seed less for a quick check of the bench itself.
#include "common/domain/jobs/job_repository.hpp"
#include "common/domain/request_log/request_log_repository.hpp"
#include "tests/bench/support/bench.hpp"
#include "tests/e2e/dashboard_browsing.hpp"

#include <cstdlib>
#include <iostream>

using namespace squawk;
using namespace squawk::testing;

namespace {

constexpr int kConnections = 64;
constexpr int kSeconds = 10;
// Rows written one statement at a time before the tables double themselves by INSERT ... SELECT.
constexpr int kFirstRows = 1000;
constexpr const char* kPassword = "correct horse battery";

long long setting(const char* name, long long fallback) {
    const char* value = std::getenv(name);
    return value ? std::atoll(value) : fallback;
}

// Copies the workspace's rows onto themselves until it holds `total`: each copy is one statement,
// so a million rows take about ten. Copies get public ids of their round and spread statuses and
// creation times.
void seed_jobs(Stack& stack, long long workspace_id, long long total) {
    std::vector<jobs::NewJob> first(static_cast<size_t>(std::min<long long>(kFirstRows, total)));
    for (auto& job : first) {
        job.workspace_id = workspace_id;
        job.type = "noop";
        job.pool = "generate";
        job.payload = {{"sleep_ms", 0}};
        job.is_test = true;
    }
    stack.db().transaction(
        [&](db::Session& s) { return jobs::JobRepository::insert_many(s, first); });
    long long copy = 0;
    for (long long have = static_cast<long long>(first.size()); have < total;) {
        ++copy;
        have += static_cast<long long>(stack.db().run([&](db::Session& s) {
            return s.execute(
                "INSERT INTO jobs (public_id, workspace_id, type, pool, status, progress, payload,"
                " result, attempts, max_attempts, is_test, enqueued_at, created_at, started_at,"
                " finished_at, updated_at)"
                " SELECT CONCAT('job_bench', ?, '_', id), workspace_id, type, pool,"
                " ELT(1 + (id + ?) MOD 6, 'queued', 'running', 'retrying', 'completed', 'failed',"
                " 'cancelled'), 100, payload, '{}', 1, max_attempts, is_test, enqueued_at,"
                " created_at - INTERVAL ((id * ?) MOD 86400) SECOND, created_at, created_at,"
                " updated_at FROM jobs WHERE workspace_id = ? ORDER BY id LIMIT ?",
                {copy, copy, copy, workspace_id, total - have});
        }));
    }
}

void seed_request_log(Stack& stack, long long workspace_id, const std::string& key_prefix,
                      long long total) {
    constexpr const char* kRoutes[] = {"/v1/me", "/v1/jobs", "/v1/jobs/{job_id}", "/v1/logs"};
    std::vector<request_log::Entry> first(
        static_cast<size_t>(std::min<long long>(kFirstRows, total)));
    const auto now = time::now();
    for (size_t i = 0; i < first.size(); ++i) {
        auto& e = first[i];
        e.workspace_id = workspace_id;
        e.key_prefix = key_prefix;
        e.request_id = "req_bench_" + std::to_string(i);
        e.method = i % 5 == 0 ? "POST" : "GET";
        e.route = kRoutes[i % 4];
        e.status = i % 10 == 0 ? 404 : 200;
        e.duration_us = static_cast<long long>(200 + i % 3000);
        e.created_at = now - std::chrono::seconds(i);
    }
    stack.db().run(
        [&](db::Session& s) { request_log::RequestLogRepository::insert_many(s, first); });
    for (long long have = static_cast<long long>(first.size()); have < total;) {
        have += static_cast<long long>(stack.db().run([&](db::Session& s) {
            return s.execute(
                "INSERT INTO request_log (workspace_id, profile_id, key_prefix, request_id, method,"
                " route, status, duration_us, created_at)"
                " SELECT workspace_id, profile_id, key_prefix, CONCAT('req_bench_', id + ?),"
                " method, route, status, duration_us, created_at - INTERVAL 1 DAY"
                " FROM request_log WHERE workspace_id = ? ORDER BY id LIMIT ?",
                {have, workspace_id, total - have});
        }));
    }
}

}  // namespace

int main() {
    try {
        StackOptions options;
        options.start_worker = false;
        options.start_scheduler = false;
        bench::use_api_threads(options);
        Stack stack(options);
        const auto& tenant = stack.tenant();
        const long long job_rows = setting("BENCH_DASHBOARD_JOBS", 100000);
        const long long log_rows = setting("BENCH_DASHBOARD_LOGS", 1000000);
        const auto seeding = std::chrono::steady_clock::now();
        seed_jobs(stack, tenant.workspace_id, job_rows);
        seed_request_log(stack, tenant.workspace_id, tenant.live_key.substr(0, 13), log_rows);
        const auto seeded_in = std::chrono::duration_cast<std::chrono::seconds>(
            std::chrono::steady_clock::now() - seeding);
        // Fresh index statistics, as a table that grew over months would have.
        stack.db().run([](db::Session& s) { return s.query("ANALYZE TABLE jobs, request_log"); });

        create_dashboard_user(stack,
                              {"--workspace", std::to_string(tenant.workspace_id), "--email",
                               "bench@example.com", "--role", "viewer"},
                              kPassword);
        Browser browser(stack.base_url());
        if (browser.sign_in("bench@example.com", kPassword).status != 302)
            throw std::runtime_error("the bench user could not sign in");
        const std::map<std::string, std::string> cookie = {
            {"Cookie", "squawk_session=" + browser.cookie("squawk_session")}};

        std::vector<std::string> pages = {"/dashboard/jobs", "/dashboard/logs"};
        std::vector<std::string> absent;
        if (browser.get("/dashboard/webhooks/deliveries").status == 200)
            pages.push_back("/dashboard/webhooks/deliveries");
        else
            absent.push_back("/dashboard/webhooks/deliveries");
        for (const auto& path : pages)
            if (const auto page = browser.get(path); page.status != 200)
                throw std::runtime_error("GET " + path + " answered " +
                                         std::to_string(page.status) + ":\n" + page.body);

        const std::string load = std::to_string(kConnections) + " connections";
        bench::Report report;
        long long errors = 0;
        for (const auto& path : pages) {
            const std::string url = stack.base_url() + path;
            bench::Series rps{
                "GET " + path + ", signed in, " + load, "requests/s", true, {}, {}, {}, ""};
            bench::Series p99{"GET " + path + " p99, " + load, "ms", false, {}, {}, {}, "<= 50 ms"};
            bench::run_wrk(url, kConnections, 2, cookie);  // warm-up: connections, statements
            for (int round = 0; round < bench::repeats(); ++round) {
                const auto ours = bench::run_wrk(url, kConnections, kSeconds, cookie);
                rps.squawk.push_back(ours.requests_per_second);
                p99.squawk.push_back(ours.p99_ms);
                errors += ours.errors;
                std::cerr << "dashboard " << path << " round " << round + 1 << ": "
                          << ours.requests_per_second << " req/s, p99 " << ours.p99_ms << " ms\n";
            }
            report.add(rps);
            report.add(p99);
        }
        // wrk counts a redirect as a success: the session must still be good after the load, or
        // the figures were those of the sign-in redirect.
        for (const auto& path : pages)
            if (browser.get(path).status != 200)
                throw std::runtime_error("the session ended during the load on " + path);

        report.note("seeded " + std::to_string(job_rows) + " jobs and " + std::to_string(log_rows) +
                    " request_log rows in one workspace in " + std::to_string(seeded_in.count()) +
                    " s");
        report.note("errors and non-2xx answers across all runs: " + std::to_string(errors));
        for (const auto& path : absent) report.note(path + " is not in this build; not measured");
        report.note("squawk-api with " + std::to_string(options.api_threads) +
                    " reactor threads (BENCH_API_THREADS) on the same 2 cores as wrk, MariaDB "
                    "and Redis");
        report.write();
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "dashboard bench failed: " << e.what() << '\n';
        return 1;
    }
}
