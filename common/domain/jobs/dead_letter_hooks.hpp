// What a job type does when the reclaimer dead-letters one of its jobs (the worker stopped on
// every attempt, so no handler ever recorded an outcome): settle the resource the job served.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/jobs/job.hpp"

#include <string_view>

namespace squawk::jobs {

// Runs in the reclaimer's transaction, after the job row turned failed.
using DeadLetterHook = void (*)(db::Session& s, const Job& job);

// Registers the hook of a job type; call at process start, before the reclaimer runs.
void on_dead_letter(std::string_view type, DeadLetterHook hook);
void run_dead_letter_hook(db::Session& s, const Job& job);

}  // namespace squawk::jobs
