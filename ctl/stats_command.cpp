#include "common/jobs/job_repository.hpp"
#include "common/queue/job_queue.hpp"
#include "ctl/commands.hpp"
#include "ctl/context.hpp"
#include "ctl/table.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace squawk::ctl {
namespace {

struct Stats {
    std::vector<std::pair<std::string, queue::PoolDepth>> queues;
    std::vector<std::pair<std::string, long long>> jobs_by_status;
    long long dead_letters = 0;
};

Stats collect(Context& context) {
    Stats stats;
    queue::JobQueue queue(context.redis());
    for (const char* pool : config::kPoolNames) stats.queues.emplace_back(pool, queue.depth(pool));
    context.mysql().run([&](db::Session& s) {
        stats.jobs_by_status = jobs::JobRepository::count_by_status(s);
        stats.dead_letters = jobs::JobRepository::count_dead_letters(s);
    });
    return stats;
}

nlohmann::json to_json(const Stats& stats) {
    nlohmann::json out = {{"queues", nlohmann::json::object()},
                          {"jobs", nlohmann::json::object()},
                          {"dead_letters", stats.dead_letters}};
    for (const auto& [pool, d] : stats.queues)
        out["queues"][pool] = {{"ready", d.ready},
                               {"pending", d.pending},
                               {"delayed", d.delayed},
                               {"oldest_ready_age_ms", d.oldest_ready_age_ms}};
    for (const auto& [status, count] : stats.jobs_by_status) out["jobs"][status] = count;
    return out;
}

void print_text(const Stats& stats) {
    Table queues({"pool", "ready", "in_flight", "delayed", "oldest_ready_age_ms"});
    for (const auto& [pool, d] : stats.queues)
        queues.add({pool, std::to_string(d.ready), std::to_string(d.pending),
                    std::to_string(d.delayed), std::to_string(d.oldest_ready_age_ms)});
    queues.print(std::cout);
    std::cout << '\n';
    Table jobs({"status", "jobs"});
    for (const auto& [status, count] : stats.jobs_by_status)
        jobs.add({status, std::to_string(count)});
    jobs.print(std::cout);
    std::cout << "\ndead letters: " << stats.dead_letters << '\n';
}

}  // namespace

void add_stats_command(CLI::App& app, Context& context) {
    auto* command = app.add_subcommand("stats", "Queue depths per pool and jobs by status");
    auto as_json = std::make_shared<bool>(false);
    command->add_flag("--json", *as_json, "Print one JSON object instead of tables");
    command->callback([&context, as_json] {
        const auto stats = collect(context);
        if (*as_json)
            std::cout << to_json(stats).dump(2) << '\n';
        else
            print_text(stats);
    });
}

}  // namespace squawk::ctl
