// The job table both `jobs list` and `dead-letters list` print, and their shared filter options.
#pragma once

#include "common/domain/jobs/job_admin.hpp"

#include <ostream>
#include <vector>

namespace CLI {
class App;
}

namespace squawk::ctl {

// Adds --workspace and --limit to `command`, writing into `filter`.
void add_filter_options(CLI::App& command, jobs::JobFilter& filter);
void print_jobs(std::ostream& out, const std::vector<jobs::JobSummary>& jobs);

}  // namespace squawk::ctl
