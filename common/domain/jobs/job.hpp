// An asynchronous job as stored in MySQL (spec 2.12): its states, the row, and what a worker
// holds while it runs one.
#pragma once

#include "common/core/time/clock.hpp"
#include "common/domain/jobs/job_status.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace squawk::jobs {

struct Job {
    long long id = 0;
    std::string public_id;
    long long workspace_id = 0;
    std::string type;
    std::string pool;
    JobStatus status = JobStatus::queued;
    int progress = 0;
    std::optional<std::string> stage;  // what a long job is doing now; null once it completed
    nlohmann::json payload;
    nlohmann::json result;  // null unless completed
    nlohmann::json error;   // null unless failed or retrying
    int attempts = 0;
    int max_attempts = 0;
    bool is_test = false;
    bool dead_lettered = false;
    // What it was paid with, in 1/10,000 credit: reserved when accepted (nothing for unpaid
    // jobs), charged when it completed; a refunded job cost nothing.
    std::optional<long long> reserved_units;
    std::optional<long long> charged_units;
    bool refunded = false;
    std::optional<time::TimePoint> run_after;
    time::TimePoint created_at;
    std::optional<time::TimePoint> started_at;
    std::optional<time::TimePoint> finished_at;
    time::TimePoint updated_at;
};

// What a worker needs to run a claimed job.
struct ClaimedJob {
    long long id = 0;
    std::string public_id;
    long long workspace_id = 0;
    std::string type;
    std::string pool;
    nlohmann::json payload;
    int attempts = 0;  // including this run
    int max_attempts = 0;
    bool is_test = false;
    // The wallet reservation that pays for it, settled when it completes; nothing when unpaid.
    std::optional<long long> charge_ledger_id;
    std::string claim_token;
    // When the job may act; a pool with a lead claims it up to that much earlier.
    std::optional<time::TimePoint> run_after;
};

}  // namespace squawk::jobs
