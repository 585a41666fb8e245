// The chaos run: jobs submitted through the API while a worker is killed with SIGKILL every 2 s
// and restarted, Redis (append-only file on) is restarted once and MariaDB is restarted once.
// Every completed job raises job.completed to a webhook on the fake receiver, which refuses the
// first deliveries so retries meet the chaos too. Afterwards every accepted job has completed
// exactly once in effect, its event reached the receiver, no daemon but the killed worker was
// restarted by hand, and the report says how long each recovery took.
//
//   squawk_chaos [--jobs N] [--speech-every K] [--seconds S]
// `make chaos` runs 10,000 jobs; CTest runs a short form. Exit code 0 only when every check holds.
#include "tests/support/command_flags.hpp"
#include "tests/support/fake_receiver.hpp"
#include "tests/support/stack.hpp"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>
#include <thread>

using namespace squawk::testing;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    int jobs = 10000;
    int speech_every = 50;  // every K-th job renders speech: an effect with a file and a row
    int seconds = 40;       // how long the chaos lasts while submissions go on
};

Options parse(int argc, char** argv) {
    Options o;
    read_int_flags(
        argc, argv,
        {{"--jobs", &o.jobs}, {"--speech-every", &o.speech_every}, {"--seconds", &o.seconds}});
    if (o.jobs < 1 || o.speech_every < 1 || o.seconds < 6)
        throw std::invalid_argument("--jobs and --speech-every must be positive, --seconds >= 6");
    return o;
}

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// Submits jobs over 4 connections, retrying refused submissions until each is accepted once.
class Submitter {
  public:
    Submitter(Stack& stack, const Options& options, const std::string& key)
        : stack_(stack), options_(options), key_(key) {}

    void run(Clock::time_point chaos_end) {
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([this, t, chaos_end] { loop(t, chaos_end); });
        for (auto& t : threads) t.join();
    }

    const std::set<std::string>& accepted() const { return accepted_; }
    long long speech_jobs() const { return speech_; }
    long long refusals() const { return refusals_; }

  private:
    void loop(int thread, Clock::time_point chaos_end) {
        HttpClient http(stack_.base_url());
        const Headers headers = {{"Authorization", "Bearer " + key_},
                                 {"Content-Type", "application/json"}};
        const auto total_span = chaos_end - Clock::now();
        const auto started = Clock::now();
        for (int k = thread; k < options_.jobs; k += 4) {
            // Spread the submissions over the chaos window so every fault meets live traffic.
            std::this_thread::sleep_until(started + total_span * k / options_.jobs);
            const bool speech = k % options_.speech_every == 0;
            const std::string path = speech ? "/v1/audio/text-to-speech" : "/v1/jobs/ping";
            const std::string body =
                speech ? R"({"text":"Chaos run job number )" + std::to_string(k) + R"(."})"
                       : R"({"sleep_ms":)" + std::to_string(k % 40) + "}";
            for (int attempt = 0;; ++attempt) {
                try {
                    const auto r = http.send("POST", path, body, headers, 30s);
                    if (r.status == 202) {
                        std::lock_guard lock(mutex_);
                        accepted_.insert(r.json["data"].value("job_id", ""));
                        if (speech) ++speech_;
                        break;
                    }
                } catch (const std::exception&) {
                }
                ++refusals_;
                std::this_thread::sleep_for(
                    std::chrono::milliseconds(std::min(500, 20 << std::min(attempt, 5))));
            }
        }
    }

    Stack& stack_;
    const Options& options_;
    std::string key_;
    std::mutex mutex_;
    std::set<std::string> accepted_;
    std::atomic<long long> speech_{0};
    std::atomic<long long> refusals_{0};
};

long long completed(Stack& stack) {
    try {
        return stack.count("SELECT COUNT(*) FROM jobs WHERE status = 'completed'");
    } catch (const std::exception&) {
        return -1;  // MariaDB is down
    }
}

long long unfinished(Stack& stack) {
    try {
        return stack.count("SELECT COUNT(*) FROM jobs WHERE status <> 'completed'");
    } catch (const std::exception&) {
        return -1;
    }
}

// Seconds until the number of completed jobs grows past `before` (work flows again).
double until_progress(Stack& stack, long long before, std::chrono::seconds limit) {
    const auto t = Clock::now();
    Stack::wait_until([&] { return completed(stack) > before; }, limit, 20ms);
    return seconds_since(t);
}

double until_healthy(Stack& stack, std::chrono::seconds limit) {
    const auto t = Clock::now();
    Stack::wait_until(
        [&] {
            try {
                return stack.request("GET", "/v1/health").status == 200;
            } catch (const std::exception&) {
                return false;
            }
        },
        limit, 20ms);
    return seconds_since(t);
}

// Job rows whose submission got no 202: a write the client never heard of, with when it was made.
std::vector<std::string> unaccepted_rows(Stack& stack, const std::set<std::string>& accepted) {
    std::vector<std::string> lines;
    stack.db().run([&](squawk::db::Session& s) {
        for (const auto& r :
             s.query("SELECT public_id, type, status, created_at FROM jobs ORDER BY id", {}))
            if (!accepted.count(r.text(0)))
                lines.push_back(r.text(0) + " " + r.text(1) + " " + r.text(2) + " created " +
                                r.text(3));
    });
    return lines;
}

// The API's log lines of submissions that were refused or took over a second: where a client
// gave up on a request that went on to write.
std::vector<std::string> slow_or_refused_requests(const Stack& stack) {
    std::vector<std::string> lines;
    std::ifstream log(stack.dir() + "/api.log");
    for (std::string line; std::getline(log, line);) {
        const auto entry = nlohmann::json::parse(line, nullptr, false);
        if (!entry.is_object()) continue;
        const bool request = entry.value("msg", "") == "request";
        if (entry.value("level", "") != "info" ||
            (request &&
             (entry.value("status", 0) != 202 || entry.value("duration_ms", 0.0) > 1000.0)))
            lines.push_back(line);
    }
    return lines;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    try {
        options = parse(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "squawk_chaos: " << e.what() << "\n";
        return 2;
    }
    FakeReceiver receiver;
    StackOptions stack_options;
    stack_options.worker_arguments = {"--pools", "generate,webhooks", "--threads",
                                      "2",       "--fibers",          "32"};
    stack_options.extra_config = webhook_config();
    Stack stack(stack_options);
    const std::string key = stack.create_key(stack.tenant().workspace_id, "live", "all", 1000000);
    // Fewer refusals than the endpoint's failing threshold: retried, never held.
    receiver.program(
        "/chaos",
        nlohmann::json::array(
            {{{"status", 503}}, {{"status", 503}}, {{"status", 500}}, {{"status", 503}}}));
    const auto hook =
        stack.request("POST", "/v1/webhooks",
                      {{"url", receiver.url("/chaos")}, {"events", {"job.completed"}}}, key);
    if (hook.status != 201) {
        std::cerr << "squawk_chaos: cannot create the webhook: " << hook.body << "\n";
        return 1;
    }
    const pid_t api_pid = stack.pid(Process::api);
    const pid_t scheduler_pid = stack.pid(Process::scheduler);

    const auto chaos_start = Clock::now();
    const auto chaos_end = chaos_start + std::chrono::seconds(options.seconds);
    Submitter submitter(stack, options, key);
    std::thread submissions([&] { submitter.run(chaos_end); });

    std::vector<double> worker_recoveries;
    double redis_health = 0, redis_progress = 0, mysql_health = 0, mysql_progress = 0;
    bool redis_done = false, mysql_done = false;
    int kills = 0;
    while (Clock::now() < chaos_end) {
        std::this_thread::sleep_for(2s);
        stack.kill(Process::worker, SIGKILL);
        ++kills;
        const long long before = completed(stack);
        const long long waiting = unfinished(stack);
        stack.start(Process::worker);
        // With nothing left to do there is no progress to wait for (the last kills of a run).
        if (waiting > 0) worker_recoveries.push_back(until_progress(stack, before, 30s));
        const double elapsed = seconds_since(chaos_start);
        if (!redis_done && elapsed > options.seconds / 3.0) {
            redis_done = true;
            stack.stop_redis();
            std::this_thread::sleep_for(500ms);
            stack.start_redis();
            const long long at_restart = completed(stack);
            redis_health = until_healthy(stack, 60s);
            redis_progress = until_progress(stack, at_restart, 60s);
        } else if (!mysql_done && elapsed > options.seconds * 2.0 / 3.0) {
            mysql_done = true;
            stack.stop_mysql();
            std::this_thread::sleep_for(1s);
            stack.start_mysql();
            mysql_health = until_healthy(stack, 60s);
            const long long at_restart = completed(stack);
            mysql_progress = until_progress(stack, at_restart, 60s);
        }
    }
    submissions.join();

    const auto accepted = submitter.accepted();
    const long long total = static_cast<long long>(accepted.size());
    const auto drain_start = Clock::now();
    Stack::wait_until([&] { return completed(stack) >= total; }, 180s, 100ms);
    const double drain = seconds_since(drain_start);

    const auto undelivered = [&] {
        return stack.count("SELECT COUNT(*) FROM webhook_deliveries WHERE status <> 'delivered'");
    };
    const auto delivery_start = Clock::now();
    // Every completion's event fanned out to its delivery, and every delivery done.
    Stack::wait_until(
        [&] {
            return stack.count("SELECT COUNT(*) FROM webhook_deliveries") >= total &&
                   undelivered() == 0;
        },
        180s, 100ms);
    const double delivery_drain = seconds_since(delivery_start);
    std::set<std::string> events_received;
    long long deliveries_received = 0;
    const auto received = receiver.requests("/chaos");
    for (const auto& request : received) {
        if (request.value("status_sent", 0) != 200) continue;
        ++deliveries_received;
        events_received.insert(request["headers"].value("x-service-event-id", ""));
    }
    const long long deliveries = stack.count("SELECT COUNT(*) FROM webhook_deliveries");
    // Each delivery recorded as delivered whose event the receiver never accepted, with its
    // attempts: what a lost delivery looked like from our side.
    std::vector<std::string> unseen;
    stack.db().run([&](squawk::db::Session& s) {
        for (const auto& r :
             s.query("SELECT e.public_id, d.id, d.status, d.attempts FROM webhook_deliveries d"
                     " JOIN events e ON e.id = d.event_id",
                     {})) {
            if (events_received.count(r.text(0))) continue;
            std::string line = r.text(0) + " delivery " + std::to_string(r.integer(1)) + " " +
                               r.text(2) + " after " + std::to_string(r.integer(3)) + " attempts:";
            for (const auto& a :
                 s.query("SELECT attempt, status_code, error, started_at FROM webhook_attempts"
                         " WHERE delivery_id = ? ORDER BY id",
                         {r.integer(1)}))
                line += " [#" + std::to_string(a.integer(0)) + " " +
                        std::to_string(a.optional_integer(1).value_or(0)) + " " +
                        a.optional_text(2).value_or("") + " " + a.text(3) + "]";
            for (const auto& request : received)
                if (request["headers"].value("x-service-event-id", "") == r.text(0) ||
                    request.value("body", "").find(r.text(0)) != std::string::npos)
                    line += " receiver saw: " + request.dump();
            unseen.push_back(std::move(line));
        }
    });
    const long long events =
        stack.count("SELECT COUNT(*) FROM events WHERE name = 'job.completed'");

    const long long done = completed(stack);
    const long long rows = stack.count("SELECT COUNT(*) FROM jobs");
    const long long not_completed =
        stack.count("SELECT COUNT(*) FROM jobs WHERE status <> 'completed'");
    const long long media = stack.count("SELECT COUNT(*) FROM media");
    const long long media_jobs = stack.count("SELECT COUNT(DISTINCT source_job_id) FROM media");
    long long missing = 0;
    for (const auto& id : accepted)
        if (stack.count("SELECT COUNT(*) FROM jobs WHERE public_id = ? AND status = 'completed'",
                        {id}) != 1)
            ++missing;
    const bool api_survived = stack.running(Process::api) && stack.pid(Process::api) == api_pid;
    const bool scheduler_survived =
        stack.running(Process::scheduler) && stack.pid(Process::scheduler) == scheduler_pid;

    std::sort(worker_recoveries.begin(), worker_recoveries.end());
    const double worker_median =
        worker_recoveries.empty() ? 0 : worker_recoveries[worker_recoveries.size() / 2];
    const double worker_max = worker_recoveries.empty() ? 0 : worker_recoveries.back();
    std::cout << "chaos run: " << total << " jobs accepted (" << submitter.speech_jobs()
              << " speech), " << submitter.refusals() << " submissions refused and retried\n"
              << "  worker SIGKILLs: " << kills << "; work flowed again after a restart in "
              << worker_median << " s median, " << worker_max << " s max\n"
              << "  Redis restart: API healthy after " << redis_health
              << " s, jobs completing again after " << redis_progress << " s\n"
              << "  MariaDB restart: API healthy after " << mysql_health
              << " s, jobs completing again after " << mysql_progress << " s\n"
              << "  all accepted jobs finished " << drain << " s after the chaos ended\n"
              << "  completed " << done << " of " << rows << " job rows; " << not_completed
              << " not completed; " << missing << " accepted jobs missing\n"
              << "  speech effects: " << media << " media rows for " << media_jobs
              << " distinct jobs (expected " << submitter.speech_jobs() << ")\n"
              << "  webhooks: " << events << " job.completed events, " << deliveries
              << " deliveries, " << undelivered() << " not delivered " << delivery_drain
              << " s after the jobs finished; the receiver accepted " << deliveries_received
              << " requests carrying " << events_received.size() << " distinct events ("
              << deliveries_received - static_cast<long long>(events_received.size())
              << " at-least-once repeats)\n"
              << "  api recovered by itself: " << (api_survived ? "yes" : "NO")
              << "; scheduler recovered by itself: " << (scheduler_survived ? "yes" : "NO") << "\n";

    const bool ok = redis_done && mysql_done && missing == 0 && not_completed == 0 &&
                    rows == total && media == submitter.speech_jobs() &&
                    media_jobs == submitter.speech_jobs() && api_survived && scheduler_survived &&
                    events == total && deliveries == total && undelivered() == 0 &&
                    static_cast<long long>(events_received.size()) == total;
    for (const auto& line : unseen)
        std::cout << "  never accepted by the receiver: " << line << "\n";
    if (!ok) {
        for (const auto& line : unaccepted_rows(stack, accepted))
            std::cout << "  job row no submission was told about: " << line << "\n";
        for (const auto& line : slow_or_refused_requests(stack))
            std::cout << "  refused, slow or warned: " << line << "\n";
    }
    std::cout << (ok ? "chaos run: PASSED" : "chaos run: FAILED") << "\n";
    if (!ok) std::cout << stack.post_mortem();
    return ok ? 0 : 1;
}
