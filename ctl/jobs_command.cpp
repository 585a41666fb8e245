#include "common/core/queue/job_queue.hpp"
#include "common/domain/jobs/job.hpp"
#include "common/domain/jobs/job_admin.hpp"
#include "ctl/commands.hpp"
#include "ctl/context.hpp"
#include "ctl/job_listing.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace squawk::ctl {
namespace {

void add_jobs_list(CLI::App& group, Context& context) {
    auto* list = group.add_subcommand("list", "List jobs of every workspace, newest first");
    auto filter = std::make_shared<jobs::JobFilter>();
    list->add_option_function<std::string>(
            "--status",
            [filter](const std::string& value) {
                filter->status = parse_name<jobs::JobStatus>(value);
            },
            "queued, running, retrying, completed, failed or cancelled")
        ->check(CLI::Validator(
            [](std::string& value) {
                return parse_name<jobs::JobStatus>(value) ? std::string()
                                                          : "unknown job status '" + value + "'";
            },
            "STATUS"));
    add_filter_options(*list, *filter);
    list->callback([&context, filter] {
        const auto found =
            context.mysql().run([&](db::Session& s) { return jobs::JobAdmin::list(s, *filter); });
        print_jobs(std::cout, found);
    });
}

void add_jobs_retry(CLI::App& group, Context& context) {
    auto* retry =
        group.add_subcommand("retry", "Queue a dead-lettered job again, with its attempts reset");
    auto public_id = std::make_shared<std::string>();
    retry->add_option("JOB_ID", *public_id, "The job's public id (job_...)")->required();
    retry->callback([&context, public_id] {
        const auto ref = context.mysql().transaction(
            [&](db::Session& s) { return jobs::JobAdmin::requeue_dead_letter(s, *public_id); });
        if (!ref) throw std::runtime_error("no dead-lettered job with id " + *public_id);
        try {
            queue::JobQueue(context.redis()).enqueue(ref->pool, {ref->id});
            std::cout << "queued " << *public_id << " on pool " << ref->pool << '\n';
        } catch (const redis::RedisUnavailable& e) {
            // The row is queued in MySQL, which is the truth; the reconciler enqueues it.
            std::cerr << "squawkctl: " << *public_id << " is queued but Redis refused it ("
                      << e.what() << "); the scheduler will enqueue it\n";
        }
    });
}

}  // namespace

void add_jobs_commands(CLI::App& app, Context& context) {
    auto* group = app.add_subcommand("jobs", "Inspect and repair jobs");
    group->require_subcommand(1);
    add_jobs_list(*group, context);
    add_jobs_retry(*group, context);
}

}  // namespace squawk::ctl
