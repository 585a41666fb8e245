#include "ctl/job_listing.hpp"

#include "ctl/table.hpp"

#include <CLI/CLI.hpp>

namespace squawk::ctl {

void add_filter_options(CLI::App& command, jobs::JobFilter& filter) {
    command.add_option("--workspace", filter.workspace_id, "Only this workspace's jobs")
        ->check(CLI::PositiveNumber);
    command.add_option("--limit", filter.limit, "At most this many jobs, newest first")
        ->check(CLI::Range(1, 10000))
        ->capture_default_str();
}

void print_jobs(std::ostream& out, const std::vector<jobs::JobSummary>& jobs) {
    Table table({"job_id", "workspace", "type", "status", "attempts", "created", "error"});
    for (const auto& j : jobs)
        table.add({j.public_id, std::to_string(j.workspace_id), j.type,
                   j.dead_lettered ? name_of(j.status) + std::string(" (dead letter)")
                                   : name_of(j.status),
                   std::to_string(j.attempts) + "/" + std::to_string(j.max_attempts),
                   time::format_iso8601(j.created_at), j.error_code.empty() ? "-" : j.error_code});
    table.print(out);
}

}  // namespace squawk::ctl
