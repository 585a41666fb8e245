// Webhook deliveries: 20,000 signed POSTs to a local receiver at concurrency 100 with every attempt
// recorded in MySQL, beside a Node sender (undici, 100 connections) doing the same POST + HMAC;
// then a receiver that answers after 1 s against one worker with 1,000 fibers on few threads.
#include "common/core/db/sql_text.hpp"
#include "common/domain/events/event_outbox.hpp"
#include "tests/bench/support/bench.hpp"
#include "tests/support/fake_receiver.hpp"
#include "tests/support/stack.hpp"

#include <signal.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <thread>

using namespace squawk;
using namespace squawk::testing;
using namespace std::chrono_literals;

namespace {

constexpr int kThroughputDeliveries = 20000;
constexpr int kConcurrency = 100;
// One fiber thread per core of this machine, each with its own curl loop; 100 fibers in all.
constexpr int kThroughputThreads = 2;
constexpr int kSlowDeliveries = 15000;
constexpr int kSlowFibers = 1000;
constexpr int kEmitBatch = 1000;

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void emit_events(Stack& stack, int count) {
    for (int done = 0; done < count; done += kEmitBatch) {
        std::vector<events::NewEvent> batch;
        for (int i = done; i < std::min(count, done + kEmitBatch); ++i)
            batch.push_back({stack.tenant().workspace_id, "post.published", {{"post_id", i}}});
        stack.db().transaction([&](db::Session& s) { events::emit_many(s, batch); });
    }
}

// The tables hold one round at a time, so plain counts (index ranges) are enough.
long long delivered(Stack& stack) {
    return stack.count("SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'delivered'");
}

// Polled while the worker runs: the first waiting or in-flight delivery in the due index.
bool any_unfinished(Stack& stack) {
    return bench::finds_a_row(stack,
                              "SELECT 1 FROM webhook_deliveries WHERE status IN"
                              " ('pending', 'retrying', 'delivering')");
}

double first_attempt_unix_seconds(Stack& stack) {
    return stack.db().run([](db::Session& s) {
        return static_cast<double>(time::to_unix_ms(db::time_column(
                   *s.query_one("SELECT MIN(started_at) FROM webhook_attempts"), 0))) /
               1000.0;
    });
}

// When the `n`th delivery (1-based, in the order they were recorded) was recorded delivered.
double nth_delivered_unix_seconds(Stack& stack, long long n) {
    return stack.db().run([&](db::Session& s) {
        return static_cast<double>(time::to_unix_ms(db::time_column(
                   *s.query_one("SELECT updated_at FROM webhook_deliveries"
                                " WHERE status = 'delivered' ORDER BY updated_at LIMIT 1"
                                " OFFSET ?",
                                {n - 1}),
                   0))) /
               1000.0;
    });
}

int thread_count(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("Threads:", 0) == 0) return std::atoi(line.c_str() + 8);
    return 0;
}

// CPU time per delivery of each process on the delivery path, in microseconds.
struct CpuShare {
    double worker = 0;
    double database = 0;
    double receiver = 0;
};

struct Run {
    double rate = 0;       // deliveries per second, first attempt to last delivery recorded
    double sustained = 0;  // between the 10% and the 90% mark of the deliveries
    int max_threads = 0;
    CpuShare cpu;
};

// Emits `count` events to a fresh endpoint at `path` and waits until all are delivered.
Run deliver(Stack& stack, FakeReceiver& receiver, const std::string& path, int count) {
    const auto created = stack.request(
        "POST", "/v1/webhooks", {{"url", receiver.url(path)}, {"events", {"post.published"}}},
        stack.tenant().test_key);
    if (created.status != 201)
        throw std::runtime_error("cannot create the webhook: " + created.body);
    const auto& hook = created.json["data"];
    const std::string id = hook["id"];
    Run run;
    // The worker waits while the events are emitted and fanned out, so what is timed is
    // delivery alone; the scheduler's fan-out is not part of the peer's work either.
    stack.kill(Process::worker, SIGTERM);
    stack.wait_exit(Process::worker, 30s);
    emit_events(stack, count);
    while (stack.count("SELECT COUNT(*) FROM webhook_deliveries") < count)
        std::this_thread::sleep_for(50ms);
    bench::wait_for_quiet_database();
    stack.start(Process::worker);
    const pid_t worker = stack.pid(Process::worker);
    const pid_t database = bench::database_pid();
    const double worker_cpu = bench::process_cpu_seconds(worker);
    const double database_cpu = bench::process_cpu_seconds(database);
    const double receiver_cpu = bench::process_cpu_seconds(receiver.pid());
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        run.max_threads = std::max(run.max_threads, thread_count(worker));
        if (!any_unfinished(stack)) break;
        if (seconds_since(start) > 600)
            throw std::runtime_error("deliveries did not finish: " + stack.post_mortem());
        std::this_thread::sleep_for(50ms);
    }
    const auto per_delivery = [&](double before, pid_t pid) {
        return (bench::process_cpu_seconds(pid) - before) * 1e6 / count;
    };
    run.cpu = {per_delivery(worker_cpu, worker), per_delivery(database_cpu, database),
               per_delivery(receiver_cpu, receiver.pid())};
    if (delivered(stack) < count)
        throw std::runtime_error("deliveries ended undelivered: " + stack.post_mortem());
    // Timed by the rows, not by this loop: from the first POST sent to the last delivery
    // recorded in MySQL, as the peer is timed from its first request to its last answer.
    run.rate =
        count / (nth_delivered_unix_seconds(stack, count) - first_attempt_unix_seconds(stack));
    run.sustained = (count * 0.8) / (nth_delivered_unix_seconds(stack, count * 9 / 10) -
                                     nth_delivered_unix_seconds(stack, count / 10));
    const long long attempts = stack.count(
        "SELECT COUNT(*) FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id"
        " JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE w.public_id = ?",
        {id});
    if (attempts < count) throw std::runtime_error("attempts were not all recorded");
    // The next round starts from an empty table, as this one did.
    stack.request("DELETE", "/v1/webhooks/" + id, nullptr, stack.tenant().test_key);
    stack.db().run([&](db::Session& s) {
        s.execute("DELETE FROM webhook_attempts");
        s.execute("DELETE FROM webhook_deliveries");
        s.execute("DELETE FROM events");
    });
    return run;
}

StackOptions options(int threads, int fibers) {
    StackOptions o;
    o.time_scale = 1.0;
    o.lease_seconds = 60;
    o.worker_arguments = {"--pools",   "webhooks",
                          "--threads", std::to_string(threads),
                          "--fibers",  std::to_string(fibers)};
    o.extra_config = webhook_config(120.0, 10, 60);
    return o;
}

}  // namespace

int main() {
    bench::Report report;
    const int repeats = bench::repeats();
    bench::npm_install({"undici"});

    {
        FakeReceiver receiver(false);
        Stack stack(options(kThroughputThreads, kConcurrency / kThroughputThreads));
        bench::Series series;
        std::vector<double> worker_cpu, database_cpu, receiver_cpu;
        series.name = "webhook deliveries, 20k at concurrency 100";
        series.unit = "deliveries/s";
        series.peer_name = "node undici 100 connections";
        series.target = "ratio >= 1.0";
        for (int round = 0; round < repeats; ++round) {
            const auto ours =
                deliver(stack, receiver, "/fast" + std::to_string(round), kThroughputDeliveries);
            series.squawk.push_back(ours.rate);
            worker_cpu.push_back(ours.cpu.worker);
            database_cpu.push_back(ours.cpu.database);
            receiver_cpu.push_back(ours.cpu.receiver);
            bench::wait_for_quiet_database();
            const auto theirs = bench::run_node_peer(
                "webhook_sender.cjs", {receiver.url("/peer"), std::to_string(kThroughputDeliveries),
                                       std::to_string(kConcurrency)});
            series.peer.push_back(theirs["deliveries_per_second"].get<double>());
            std::cerr << "round " << round << ": squawk " << ours.rate << "/s, node "
                      << series.peer.back() << "/s; CPU us per delivery: worker " << ours.cpu.worker
                      << ", database " << ours.cpu.database << ", receiver " << ours.cpu.receiver
                      << "\n";
        }
        report.add(series);
        report.note(
            "throughput: 20,000 events emitted through the outbox and fanned out by the "
            "scheduler while the worker is stopped; then each delivery is claimed, signed and "
            "POSTed once by one worker (2 fiber threads x 50 fibers), its attempt and new state "
            "written to MySQL in batches; timed from the first attempt started to the last "
            "delivery recorded, as the peer is timed from its first request");
        const auto us = [](const std::vector<double>& v) {
            return std::to_string(static_cast<int>(std::lround(bench::median(v))));
        };
        report.note(
            "throughput: CPU time per delivery (median of the rounds, from the worker's "
            "start to the last delivery recorded): worker " +
            us(worker_cpu) + " us, MariaDB " + us(database_cpu) + " us, receiver " +
            us(receiver_cpu) + " us");
    }

    {
        // Fewer OS threads: one fiber thread (which runs the curl loop), one blocking thread for
        // DNS, fetch, result writer, heartbeat and main.
        setenv("SQUAWK_WORKERS_BLOCKING_THREADS", "1", 1);
        FakeReceiver receiver(false);
        Stack stack(options(1, kSlowFibers));
        bench::Series series;
        series.name = "webhook deliveries to a receiver answering after 1 s, 1,000 fibers";
        series.unit = "deliveries/s";
        series.target = ">= 900";
        int threads = 0;
        for (int round = 0; round < repeats; ++round) {
            receiver.program("/slow" + std::to_string(round), nlohmann::json::array(),
                             {{"status", 200}, {"delay_ms", 1000}});
            const auto run =
                deliver(stack, receiver, "/slow" + std::to_string(round), kSlowDeliveries);
            series.squawk.push_back(run.sustained);
            threads = std::max(threads, run.max_threads);
            std::cerr << "slow round " << round << ": sustained " << run.sustained << "/s, overall "
                      << run.rate << "/s\n";
        }
        report.add(series);
        report.note(
            "slow receiver: sustained rate between 10% and 90% of 15,000 deliveries; "
            "worker peak RSS " +
            std::to_string(static_cast<int>(bench::peak_rss_mib(stack.pid(Process::worker)))) +
            " MiB, at most " + std::to_string(threads) + " OS threads");
    }
    report.write();
    return 0;
}
