// The job path against BullMQ on the same Redis: throughput of 50,000 no-op jobs through one
// worker process with every state change in MySQL, add-to-start latency at a steady 500 jobs/s
// through the HTTP API, GET /jobs/{job_id} against nginx serving static JSON, and the worker's
// peak RSS with 1,000 tasks in flight.
#include "common/core/queue/job_queue.hpp"
#include "common/core/redis/redis_client.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "common/domain/jobs/job_types.hpp"
#include "tests/bench/support/bench.hpp"
#include "tests/support/stack.hpp"
#include "tests/support/test_database.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

using namespace squawk;
using namespace squawk::testing;
using namespace std::chrono_literals;

namespace {

constexpr int kThroughputJobs = 50000;
constexpr int kInsertBatch = 1000;
constexpr int kLatencyRate = 500;
constexpr int kLatencySeconds = 10;
constexpr int kInFlightTasks = 1000;
constexpr int kHttpSeconds = 10;

double unix_us_now() {
    return static_cast<double>(std::chrono::duration_cast<std::chrono::microseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
}

// Inserts `count` noop jobs and puts them on the generate stream, both in batches.
void enqueue_noops(Stack& stack, long long workspace_id, int count, long long sleep_ms) {
    redis::RedisClient redis(stack.redis_settings());
    queue::JobQueue queue(redis);
    for (int done = 0; done < count; done += kInsertBatch) {
        std::vector<jobs::NewJob> batch;
        for (int i = done; i < std::min(count, done + kInsertBatch); ++i) {
            jobs::NewJob job;
            job.workspace_id = workspace_id;
            job.type = std::string(jobs::kNoop.name);
            job.pool = std::string(jobs::kNoop.pool);
            job.payload = {{"sleep_ms", sleep_ms}};
            job.is_test = true;
            batch.push_back(std::move(job));
        }
        const auto inserted = stack.db().transaction(
            [&](db::Session& s) { return jobs::JobRepository::insert_many(s, batch); });
        std::vector<long long> ids;
        for (const auto& job : inserted) ids.push_back(job.id);
        queue.enqueue(std::string(jobs::kNoop.pool), ids);
    }
}

// Seconds from the first claim to the last recorded completion.
double processing_seconds(Stack& stack) {
    const auto row = stack.db().run([](db::Session& s) {
        return s.query_one(
            "SELECT TIMESTAMPDIFF(MICROSECOND, MIN(started_at), MAX(finished_at)) FROM jobs");
    });
    return static_cast<double>(row->integer(0)) / 1e6;
}

StackOptions worker_less(std::vector<std::string> worker_arguments) {
    StackOptions options;
    options.time_scale = 1.0;
    options.lease_seconds = 60;
    options.start_worker = false;
    options.start_scheduler = false;
    options.worker_arguments = std::move(worker_arguments);
    return options;
}

// Redis's own CPU seconds so far (INFO cpu), for the side of a comparison that has no pid for it.
double redis_cpu_seconds(const config::RedisSettings& settings) {
    redis::RedisClient redis(settings);
    const auto info = redis.command({"INFO", "cpu"}).text;
    double seconds = 0;
    for (const char* field : {"used_cpu_sys:", "used_cpu_user:"}) {
        const auto at = info.find(field);
        if (at != std::string::npos) seconds += std::stod(info.substr(at + std::strlen(field)));
    }
    return seconds;
}

// A throughput run's rate and the CPU each process spent per job over it, in µs.
struct Throughput {
    double jobs_per_second = 0;
    std::map<std::string, double> cpu_us_per_job;

    double cpu_us_total() const {
        double total = 0;
        for (const auto& [process, us] : cpu_us_per_job) total += us;
        return total;
    }
};

Throughput squawk_throughput() {
    // Claims and completions are written 100 at a time (the largest batch the config allows).
    setenv("SQUAWK_WORKERS_GENERATE_BATCH", "100", 1);
    Stack stack(worker_less({"--pools", "generate", "--threads", "2", "--fibers", "256"}));
    enqueue_noops(stack, stack.tenant().workspace_id, kThroughputJobs, 0);
    bench::wait_for_quiet_database();
    const pid_t database = bench::database_pid();
    const double database_before = bench::process_cpu_seconds(database);
    const double redis_before = redis_cpu_seconds(stack.redis_settings());
    stack.start(Process::worker);
    // Timed from the rows, not by this wait, which polls the status index for the first job
    // not yet finished.
    if (!Stack::wait_until(
            [&] {
                return !bench::finds_a_row(stack,
                                           "SELECT 1 FROM jobs WHERE status IN"
                                           " ('queued', 'running', 'retrying', 'scheduled')");
            },
            300s, 250ms) ||
        stack.count("SELECT COUNT(*) FROM jobs WHERE status = 'completed'") != kThroughputJobs)
        throw std::runtime_error("squawk did not finish the throughput run\n" +
                                 stack.post_mortem());
    const double per_job = 1e6 / kThroughputJobs;
    Throughput result;
    result.cpu_us_per_job["squawk-worker"] =
        bench::process_cpu_seconds(stack.pid(Process::worker)) * per_job;
    result.cpu_us_per_job["MariaDB"] =
        (bench::process_cpu_seconds(database) - database_before) * per_job;
    result.cpu_us_per_job["Redis"] =
        (redis_cpu_seconds(stack.redis_settings()) - redis_before) * per_job;
    unsetenv("SQUAWK_WORKERS_GENERATE_BATCH");
    result.jobs_per_second = kThroughputJobs / processing_seconds(stack);
    return result;
}

Throughput bullmq_throughput(int concurrency) {
    const auto& redis = ServerEnv::get().redis;
    bench::wait_for_quiet_database();
    const auto out = bench::run_node_peer(
        "bullmq_throughput.cjs",
        {redis.host, std::to_string(redis.port), std::to_string(kThroughputJobs),
         std::to_string(concurrency), unique_name("bullbench")});
    Throughput result;
    result.jobs_per_second = out.at("jobs_per_second").get<double>();
    result.cpu_us_per_job["node"] = out.at("node_cpu_us_per_job").get<double>();
    result.cpu_us_per_job["Redis"] = out.at("redis_cpu_us_per_job").get<double>();
    return result;
}

std::string cpu_breakdown(const Throughput& run) {
    std::string text;
    for (const auto& [process, us] : run.cpu_us_per_job)
        text += (text.empty() ? "" : ", ") + process + " " + std::to_string(std::lround(us));
    return text;
}

struct Latency {
    double p50_ms = 0;
    double p99_ms = 0;
    // Squawk's latency in three parts, split where the API stamps the job's row (`created_at`) and
    // where the worker stamps its claim (`started_at`): the request up to its insert; the insert's
    // commit and the queue; the claim up to the handler running (the ping's `ran_at`).
    std::string parts;
};

std::string p50_p99(const std::vector<double>& ms) {
    const auto fixed = [](double v) {
        std::ostringstream out;
        out << std::fixed << std::setprecision(2) << v;
        return out.str();
    };
    return fixed(bench::percentile(ms, 50)) + "/" + fixed(bench::percentile(ms, 99));
}

// Open loop: job k is sent at start + k / rate whatever earlier requests took, over 4 connections.
Latency squawk_add_to_start() {
    Stack stack(worker_less({"--pools", "generate", "--threads", "1", "--fibers", "32"}));
    bench::wait_for_quiet_database();
    stack.start(Process::worker);
    stack.start(Process::scheduler);
    const std::string key = bench::unlimited_test_key(stack);

    constexpr int kSenders = 4;
    const int total = kLatencyRate * kLatencySeconds;
    std::mutex sent_mutex;
    std::map<std::string, double> sent_at_us;
    std::atomic<int> failures{0};
    const auto start = std::chrono::steady_clock::now() + 200ms;
    std::vector<std::thread> senders;
    for (int t = 0; t < kSenders; ++t) {
        senders.emplace_back([&, t] {
            HttpClient http(stack.base_url());
            const std::string body = "{}";
            const Headers headers = {{"Authorization", "Bearer " + key},
                                     {"Content-Type", "application/json"}};
            for (int k = t; k < total; k += kSenders) {
                std::this_thread::sleep_until(
                    start + std::chrono::microseconds(1'000'000LL * k / kLatencyRate));
                const double sent = unix_us_now();
                const auto r = http.send("POST", "/v1/jobs/ping", body, headers);
                if (r.status != 202) {
                    ++failures;
                    continue;
                }
                std::lock_guard lock(sent_mutex);
                sent_at_us[r.json["data"].value("job_id", "")] = sent;
            }
        });
    }
    for (auto& s : senders) s.join();
    if (failures > 0)
        throw std::runtime_error(std::to_string(failures.load()) + " ping submissions failed");
    if (!Stack::wait_until(
            [&] {
                return stack.count("SELECT COUNT(*) FROM jobs WHERE status = 'completed'") == total;
            },
            60s, 50ms))
        throw std::runtime_error("not every ping job completed\n" + stack.post_mortem());
    const auto rows = stack.db().run([](db::Session& s) {
        return s.query(
            "SELECT public_id, TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', created_at), "
            "TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', started_at), "
            "JSON_VALUE(result, '$.ran_at') FROM jobs");
    });
    std::vector<double> latencies, to_row, row_to_claim, claim_to_run;
    for (const auto& row : rows) {
        const auto it = sent_at_us.find(row.text(0));
        if (it == sent_at_us.end()) continue;
        const auto stamped_us = static_cast<double>(row.integer(1));
        const auto claimed_us = static_cast<double>(row.integer(2));
        const auto ran_at = time::parse_iso8601(row.text(3));
        if (!ran_at) throw std::runtime_error("a ping job's result has no ran_at");
        const auto ran_us = static_cast<double>(ran_at->time_since_epoch().count());
        latencies.push_back((ran_us - it->second) / 1000.0);
        to_row.push_back((stamped_us - it->second) / 1000.0);
        row_to_claim.push_back((claimed_us - stamped_us) / 1000.0);
        claim_to_run.push_back((ran_us - claimed_us) / 1000.0);
    }
    return {bench::percentile(latencies, 50), bench::percentile(latencies, 99),
            "request to its row stamped " + p50_p99(to_row) +
                ", row stamped to its claim (commit, queue) " + p50_p99(row_to_claim) +
                ", claim to its handler running (claim's update and read, a fiber) " +
                p50_p99(claim_to_run)};
}

Latency bullmq_add_to_start() {
    const auto& redis = ServerEnv::get().redis;
    bench::wait_for_quiet_database();
    const auto out = bench::run_node_peer(
        "bullmq_latency.cjs", {redis.host, std::to_string(redis.port), std::to_string(kLatencyRate),
                               std::to_string(kLatencySeconds), "10", unique_name("bulllat")});
    return {out.at("p50_ms").get<double>(), out.at("p99_ms").get<double>(), {}};
}

struct HttpFigures {
    bench::ServedLoad squawk;
    bench::WrkResult nginx;
};

HttpFigures job_polling(int round) {
    StackOptions options;
    options.start_scheduler = false;
    bench::use_api_threads(options);
    Stack stack(options);
    const auto& key = stack.tenant().test_key;
    const auto accepted = stack.request("POST", "/v1/jobs/ping", nlohmann::json::object(), key);
    const std::string job_id = accepted.json["data"].value("job_id", "");
    Stack::wait_until(
        [&] { return stack.count("SELECT COUNT(*) FROM jobs WHERE status = 'completed'") == 1; },
        10s);
    const auto polled = stack.request("GET", "/v1/jobs/" + job_id, nullptr, key);
    bench::StaticJsonServer nginx(polled.body);
    // The runs before leave MariaDB purging the undo of some 55,000 jobs, and both sides share
    // the cores with it: whichever went first would pay for it.
    bench::wait_for_quiet_database();
    HttpFigures figures;
    const auto run_squawk = [&] {
        figures.squawk =
            bench::run_wrk_on_stack(stack, stack.base_url() + "/v1/jobs/" + job_id, 64,
                                    kHttpSeconds, {{"Authorization", "Bearer " + key}});
    };
    const auto run_nginx = [&] { figures.nginx = bench::run_wrk(nginx.url(), 64, kHttpSeconds); };
    bench::in_turn(round, run_squawk, run_nginx);
    return figures;
}

// 1,000 jobs that each hold their fiber for 3 s, on one worker with 2 threads x 500 fibers.
std::pair<double, long long> worker_memory() {
    Stack stack(worker_less({"--pools", "generate", "--threads", "2", "--fibers", "500"}));
    enqueue_noops(stack, stack.tenant().workspace_id, kInFlightTasks, 3000);
    stack.start(Process::worker);
    long long most_running = 0;
    Stack::wait_until(
        [&] {
            most_running = std::max(
                most_running, stack.count("SELECT COUNT(*) FROM jobs WHERE status = 'running'"));
            return stack.count("SELECT COUNT(*) FROM jobs WHERE status = 'completed'") ==
                   kInFlightTasks;
        },
        60s, 100ms);
    return {bench::peak_rss_mib(stack.pid(Process::worker)), most_running};
}

}  // namespace

int main() {
    try {
        bench::npm_install({"bullmq", "ioredis"});
        bench::Report report;
        bench::Series throughput10{"50,000 no-op jobs, one worker process vs BullMQ concurrency 10",
                                   "jobs/s",
                                   true,
                                   {},
                                   "BullMQ concurrency 10",
                                   {},
                                   "ratio >= 1.0"};
        bench::Series throughput100{
            "50,000 no-op jobs, one worker process vs BullMQ concurrency 100",
            "jobs/s",
            true,
            {},
            "BullMQ concurrency 100",
            {},
            "ratio >= 1.0"};
        bench::Series cpu{"50,000 no-op jobs: CPU per job of every process on the job path",
                          "µs",
                          false,
                          {},
                          "BullMQ concurrency 100 (node and Redis)",
                          {},
                          "-"};
        std::vector<std::string> breakdowns;
        std::vector<std::string> latency_parts;
        bench::Series p50{"add-to-start latency p50 at 500 jobs/s (Squawk through HTTP + MySQL)",
                          "ms",
                          false,
                          {},
                          "BullMQ add to worker start",
                          {},
                          "-"};
        bench::Series p99{"add-to-start latency p99 at 500 jobs/s (Squawk through HTTP + MySQL)",
                          "ms",
                          false,
                          {},
                          "BullMQ add to worker start",
                          {},
                          "no worse than BullMQ"};
        bench::Series rps{"GET /jobs/{job_id}, wrk 64 connections",
                          "requests/s",
                          true,
                          {},
                          "nginx static JSON",
                          {},
                          "ratio >= 0.5"};
        bench::Series http_p99{"GET /jobs/{job_id} p99, wrk 64 connections",
                               "ms",
                               false,
                               {},
                               "nginx static JSON",
                               {},
                               "-"};
        bench::Series http_cpu{
            "GET /jobs/{job_id}: CPU per request of squawk-api and MariaDB, wrk 64 connections",
            "µs",
            false,
            {},
            "",
            {},
            "-"};
        for (int round = 0; round < bench::repeats(); ++round) {
            std::cerr << "jobs bench: round " << round + 1 << "\n";
            const auto ours = squawk_throughput();
            const auto theirs10 = bullmq_throughput(10);
            const auto theirs100 = bullmq_throughput(100);
            throughput10.squawk.push_back(ours.jobs_per_second);
            throughput10.peer.push_back(theirs10.jobs_per_second);
            throughput100.peer.push_back(theirs100.jobs_per_second);
            cpu.squawk.push_back(ours.cpu_us_total());
            cpu.peer.push_back(theirs100.cpu_us_total());
            breakdowns.push_back("round " + std::to_string(round + 1) + ": Squawk " +
                                 cpu_breakdown(ours) + "; BullMQ c100 " + cpu_breakdown(theirs100) +
                                 "; BullMQ c10 " + cpu_breakdown(theirs10));
            std::cerr << "jobs bench: CPU per job (µs), " << breakdowns.back() << "\n";
            const auto our_latency = squawk_add_to_start();
            const auto their_latency = bullmq_add_to_start();
            p50.squawk.push_back(our_latency.p50_ms);
            p99.squawk.push_back(our_latency.p99_ms);
            p50.peer.push_back(their_latency.p50_ms);
            p99.peer.push_back(their_latency.p99_ms);
            latency_parts.push_back("round " + std::to_string(round + 1) + ": " +
                                    our_latency.parts);
            const auto http = job_polling(round);
            rps.squawk.push_back(http.squawk.wrk.requests_per_second);
            rps.peer.push_back(http.nginx.requests_per_second);
            http_p99.squawk.push_back(http.squawk.wrk.p99_ms);
            http_p99.peer.push_back(http.nginx.p99_ms);
            http_cpu.squawk.push_back(http.squawk.api_us_per_request +
                                      http.squawk.database_us_per_request);
        }
        throughput100.squawk = throughput10.squawk;
        const auto [rss, running] = worker_memory();
        report.add(throughput10);
        report.add(throughput100);
        report.add(cpu);
        report.add(p50);
        report.add(p99);
        report.add(rps);
        report.add(http_p99);
        report.add(http_cpu);
        report.add({"worker peak RSS with 1,000 tasks in flight (2 threads x 500 fibers)",
                    "MiB",
                    false,
                    {rss},
                    "",
                    {},
                    "<= 64 MiB"});
        report.note("worker memory run: at most " + std::to_string(running) +
                    " of 1,000 sleeping tasks were seen running at once");
        StackOptions polled;
        bench::use_api_threads(polled);
        report.note("GET /jobs/{job_id}: squawk-api with " + std::to_string(polled.api_threads) +
                    " reactor threads (BENCH_API_THREADS)");
        report.note(
            "Squawk throughput: one squawk-worker with 2 threads x 256 fibers, batch 100, "
            "timed from the first claim to the last completion recorded in MySQL");
        for (const auto& line : breakdowns) report.note("CPU per job (µs), " + line);
        for (const auto& line : latency_parts)
            report.note("Squawk's add-to-start p50/p99 (ms) in parts, " + line);
        report.write();
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "jobs bench failed: " << e.what() << "\n";
        return 1;
    }
}
