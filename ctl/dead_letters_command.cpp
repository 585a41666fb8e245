#include "common/domain/jobs/job_admin.hpp"
#include "ctl/commands.hpp"
#include "ctl/context.hpp"
#include "ctl/job_listing.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace squawk::ctl {

void add_dead_letter_commands(CLI::App& app, Context& context) {
    auto* group = app.add_subcommand("dead-letters", "Jobs that failed on their last attempt");
    group->require_subcommand(1);
    auto* list = group->add_subcommand(
        "list", "List dead-lettered jobs, newest first (requeue one with `jobs retry`)");
    auto filter = std::make_shared<jobs::JobFilter>();
    filter->status = jobs::JobStatus::failed;
    filter->dead_lettered_only = true;
    add_filter_options(*list, *filter);
    list->callback([&context, filter] {
        const auto found =
            context.mysql().run([&](db::Session& s) { return jobs::JobAdmin::list(s, *filter); });
        print_jobs(std::cout, found);
    });
}

}  // namespace squawk::ctl
