#include "common/core/daemon/worker_settings.hpp"
#include "common/core/queue/job_queue.hpp"
#include "common/core/queue/worker_registry.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "ctl/commands.hpp"
#include "ctl/context.hpp"
#include "ctl/table.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

namespace squawk::ctl {
namespace {

struct Stats {
    std::vector<std::pair<std::string, queue::PoolDepth>> queues;
    std::vector<queue::WorkerInfo> workers;
    std::vector<std::pair<jobs::JobStatus, long long>> jobs_by_status;
    long long dead_letters = 0;
};

Stats collect(Context& context) {
    Stats stats;
    queue::JobQueue queue(context.redis());
    for (const char* pool : config::kPoolNames) stats.queues.emplace_back(pool, queue.depth(pool));
    stats.workers = queue::WorkerRegistry(context.redis()).alive();
    context.mysql().run([&](db::Session& s) {
        stats.jobs_by_status = jobs::JobRepository::count_by_status(s);
        stats.dead_letters = jobs::JobRepository::count_dead_letters(s);
    });
    return stats;
}

nlohmann::json to_json(const Stats& stats) {
    nlohmann::json out = {{"queues", nlohmann::json::object()},
                          {"jobs", nlohmann::json::object()},
                          {"dead_letters", stats.dead_letters},
                          {"workers", queue::to_json(stats.workers)}};
    for (const auto& [pool, d] : stats.queues) {
        out["queues"][pool] = {{"ready", d.ready},
                               {"pending", d.pending},
                               {"delayed", d.delayed},
                               {"oldest_ready_age_ms", d.oldest_ready_age_ms}};
        if (!config::queued_in_redis(pool)) continue;
        out["queues"][pool]["added"] = d.added;
        out["queues"][pool]["finished"] = d.finished;
    }
    for (const auto& [status, count] : stats.jobs_by_status) out["jobs"][name_of(status)] = count;
    return out;
}

void print_text(const Stats& stats) {
    Table queues(
        {"pool", "ready", "in_flight", "delayed", "oldest_ready_age_ms", "added", "finished"});
    for (const auto& [pool, d] : stats.queues) {
        const bool counted = config::queued_in_redis(pool);
        queues.add({pool, std::to_string(d.ready), std::to_string(d.pending),
                    std::to_string(d.delayed), std::to_string(d.oldest_ready_age_ms),
                    counted ? std::to_string(d.added) : "-",
                    counted ? std::to_string(d.finished) : "-"});
    }
    queues.print(std::cout);
    std::cout << '\n';
    Table jobs({"status", "jobs"});
    for (const auto& [status, count] : stats.jobs_by_status)
        jobs.add({name_of(status), std::to_string(count)});
    jobs.print(std::cout);
    std::cout << "\ndead letters: " << stats.dead_letters << "\n\n";
    Table workers({"worker", "host", "pid", "pools (threads x fibers)", "in_flight", "started_at"});
    for (const auto& w : stats.workers) {
        std::string pools;
        for (const auto& p : w.pools)
            pools += (pools.empty() ? "" : ", ") + p.name + " " + std::to_string(p.threads) + "x" +
                     std::to_string(p.fibers);
        workers.add({w.id, w.host, std::to_string(w.pid), pools, std::to_string(w.in_flight()),
                     time::format_iso8601(w.started_at)});
    }
    workers.print(std::cout);
}

long long finished_jobs(const Stats& stats) {
    long long n = 0;
    for (const auto& [status, count] : stats.jobs_by_status)
        if (status == jobs::JobStatus::completed || status == jobs::JobStatus::failed) n += count;
    return n;
}

// Entries added to and finished from each pool's stream per second between two readings.
void print_rates(const Stats& now, const Stats& before, double seconds) {
    const auto per_second = [seconds](long long delta) {
        std::ostringstream out;
        out << std::fixed << std::setprecision(1) << static_cast<double>(delta) / seconds;
        return out.str();
    };
    Table rates({"pool", "in/s", "out/s"});
    for (size_t i = 0; i < now.queues.size(); ++i) {
        const auto& [pool, d] = now.queues[i];
        if (!config::queued_in_redis(pool)) continue;
        const auto& b = before.queues[i].second;
        rates.add({pool, per_second(d.added - b.added), per_second(d.finished - b.finished)});
    }
    rates.print(std::cout);
}

// Redraws the screen every `interval` with the figures of print_text, the jobs finished per
// second and each pool's entries in and out per second since the previous frame; `frames` 0 runs
// until interrupted.
void watch(Context& context, double interval, int frames) {
    std::optional<Stats> previous;
    for (int frame = 0; frames == 0 || frame < frames; ++frame) {
        const auto started = std::chrono::steady_clock::now();
        const auto stats = collect(context);
        std::cout << "\x1b[H\x1b[2J"
                  << "squawk stats, every " << interval << " s (Ctrl-C stops)\n\n";
        print_text(stats);
        std::cout << "\nthroughput: ";
        if (previous) {
            std::cout << static_cast<double>(finished_jobs(stats) - finished_jobs(*previous)) /
                             interval
                      << " jobs finished/s\n\n";
            print_rates(stats, *previous, interval);
        } else {
            std::cout << "measuring...\n";
        }
        std::cout.flush();
        previous = stats;
        if (frames != 0 && frame + 1 == frames) break;
        std::this_thread::sleep_until(started + std::chrono::duration<double>(interval));
    }
}

}  // namespace

void add_stats_command(CLI::App& app, Context& context) {
    auto* command = app.add_subcommand(
        "stats",
        "Queue depths per pool with the entries ever added and finished (cumulative, reset by a "
        "Redis data loss), jobs by status and the workers alive; --watch for a live view with "
        "each pool's entries in and out per second between frames");
    auto as_json = std::make_shared<bool>(false);
    auto interval = std::make_shared<double>(0);
    auto frames = std::make_shared<int>(0);
    command->add_flag("--json", *as_json, "Print one JSON object instead of tables");
    command
        ->add_option("--watch", *interval,
                     "Redraw every SECONDS with throughput and rates per pool until Ctrl-C")
        ->check(CLI::Range(0.1, 3600.0));
    command->add_option("--frames", *frames, "With --watch: stop after this many frames")
        ->check(CLI::NonNegativeNumber);
    command->callback([&context, as_json, interval, frames] {
        if (*interval > 0) {
            watch(context, *interval, *frames);
            return;
        }
        const auto stats = collect(context);
        if (*as_json)
            std::cout << to_json(stats).dump(2) << '\n';
        else
            print_text(stats);
    });
}

}  // namespace squawk::ctl
