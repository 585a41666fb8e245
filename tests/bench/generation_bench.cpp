// Generation through the API and one worker process (issue 21): articles against the OpenAI
// fake answering at once (the platform's own overhead per job: HTTP accept, creation and job rows,
// claim, provider call, recording), and quote cards rendered by the local Cairo renderer. Each is
// measured two ways: a backlog drained by one worker (jobs/s, run time p99), and a steady rate
// sent through HTTP (add-to-complete p99). No peer is named for these.
#include "tests/bench/support/bench.hpp"
#include "tests/support/fake_server.hpp"
#include "tests/support/http_client.hpp"
#include "tests/support/stack.hpp"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>

using namespace squawk;
using namespace squawk::testing;
using namespace std::chrono_literals;

namespace {

constexpr int kSenders = 4;

struct Kind {
    std::string name;  // as in the report
    std::string path;  // the generate route
    nlohmann::json body;
    int backlog = 0;  // jobs drained
    int rate = 0;     // jobs per second of the steady run
    int seconds = 0;  // length of the steady run
    std::string target;
};

// Sends `count` generate calls over kSenders connections, at `rate` per second when it is set
// (open loop: call k goes at start + k / rate), else as fast as answers come.
void submit(Stack& stack, const std::string& key, const Kind& kind, int count, int rate) {
    std::atomic<int> failures{0};
    const auto start = std::chrono::steady_clock::now() + 200ms;
    std::vector<std::thread> senders;
    for (int t = 0; t < kSenders; ++t) {
        senders.emplace_back([&, t] {
            HttpClient http(stack.base_url());
            const Headers headers = {{"Authorization", "Bearer " + key},
                                     {"Content-Type", "application/json"}};
            const std::string body = kind.body.dump();
            for (int k = t; k < count; k += kSenders) {
                if (rate > 0)
                    std::this_thread::sleep_until(
                        start + std::chrono::microseconds(1'000'000LL * k / rate));
                if (http.send("POST", kind.path, body, headers).status != 202) ++failures;
            }
        });
    }
    for (auto& s : senders) s.join();
    if (failures > 0)
        throw std::runtime_error(std::to_string(failures.load()) + " submissions failed");
}

void wait_all_completed(Stack& stack, int count) {
    if (!Stack::wait_until(
            [&] {
                return stack.count("SELECT COUNT(*) FROM jobs WHERE status = 'completed'") == count;
            },
            600s, 250ms))
        throw std::runtime_error("not every job completed\n" + stack.post_mortem());
}

// Microseconds between two time columns of every job.
std::vector<double> spans_ms(Stack& stack, const std::string& from, const std::string& to) {
    const auto rows = stack.db().run([&](db::Session& s) {
        return s.query("SELECT TIMESTAMPDIFF(MICROSECOND, " + from + ", " + to + ") FROM jobs");
    });
    std::vector<double> out;
    for (const auto& row : rows) out.push_back(static_cast<double>(row.integer(0)) / 1000.0);
    return out;
}

StackOptions worker_less(const std::string& extra_config) {
    StackOptions options;
    options.time_scale = 1.0;
    options.lease_seconds = 60;
    options.start_worker = false;
    options.start_scheduler = false;
    options.api_threads = 2;
    options.worker_arguments = {"--pools", "generate", "--threads", "2", "--fibers", "128"};
    options.extra_config = extra_config;
    return options;
}

struct Drained {
    double jobs_per_second = 0;
    double run_p99_ms = 0;
};

Drained drain(const Kind& kind, const std::string& config) {
    Stack stack(worker_less(config));
    const std::string key = bench::unlimited_test_key(stack);
    submit(stack, key, kind, kind.backlog, 0);
    bench::wait_for_quiet_database();
    stack.start(Process::worker);
    wait_all_completed(stack, kind.backlog);
    const auto row = stack.db().run([](db::Session& s) {
        return s.query_one(
            "SELECT TIMESTAMPDIFF(MICROSECOND, MIN(started_at), MAX(finished_at)) FROM jobs");
    });
    return {kind.backlog / (static_cast<double>(row->integer(0)) / 1e6),
            bench::percentile(spans_ms(stack, "started_at", "finished_at"), 99)};
}

double steady_add_to_complete_p99(const Kind& kind, const std::string& config) {
    Stack stack(worker_less(config));
    const std::string key = bench::unlimited_test_key(stack);
    stack.start(Process::worker);
    bench::wait_for_quiet_database();
    const int count = kind.rate * kind.seconds;
    submit(stack, key, kind, count, kind.rate);
    wait_all_completed(stack, count);
    return bench::percentile(spans_ms(stack, "created_at", "finished_at"), 99);
}

}  // namespace

int main() {
    try {
        bench::Report report;
        FakeServer openai("fake_openai", {"--api-key", "sk-bench"});
        const std::string article_config =
            "[generation]\ntext = \"openai\"\n\n[providers.openai]\nbase_url = \"" +
            openai.url("/v1") + "\"\napi_key = \"sk-bench\"\n";
        const std::vector<std::pair<Kind, std::string>> kinds = {
            {{"articles, OpenAI fake answering at once",
              "/v1/articles/generate",
              {{"topic", "Why durable queues matter"}, {"length", "short"}},
              3000,
              200,
              10,
              ">= 1,000 jobs/s on one worker"},
             article_config},
            {{"quote cards 1080x1080 PNG, local renderer",
              "/v1/images/generate",
              {{"template", "quote"}, {"text", "Ship it."}, {"author", "The team"}},
              400,
              10,
              10,
              "reported"},
             ""}};
        for (const auto& [kind, config] : kinds) {
            bench::Series rate{kind.name + ": backlog of " + std::to_string(kind.backlog) +
                                   " drained by one worker (2 threads x 128 fibers)",
                               "jobs/s",
                               true,
                               {},
                               "",
                               {},
                               kind.target};
            bench::Series run{kind.name + ": job run time p99 while draining",
                              "ms",
                              false,
                              {},
                              "",
                              {},
                              "reported"};
            bench::Series latency{kind.name + ": add-to-complete p99 at " +
                                      std::to_string(kind.rate) + " jobs/s through HTTP",
                                  "ms",
                                  false,
                                  {},
                                  "",
                                  {},
                                  "reported"};
            for (int round = 0; round < bench::repeats(); ++round) {
                const auto drained = drain(kind, config);
                rate.squawk.push_back(drained.jobs_per_second);
                run.squawk.push_back(drained.run_p99_ms);
                latency.squawk.push_back(steady_add_to_complete_p99(kind, config));
                std::cerr << kind.name << " round " << round + 1 << ": " << drained.jobs_per_second
                          << " jobs/s, run p99 " << drained.run_p99_ms
                          << " ms, add-to-complete p99 " << latency.squawk.back() << " ms\n";
            }
            report.add(rate);
            report.add(run);
            report.add(latency);
        }
        report.note("Articles exclude the text service's own time: the fake answers at once.");
        report.write();
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "generation bench: " << e.what() << "\n";
        return 1;
    }
}
