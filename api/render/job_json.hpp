// The API's JSON for jobs (spec 2.12): the job as polled and listed, and the 202 answer to a
// submission. Rendered straight from the domain struct.
#pragma once

#include "common/domain/jobs/job.hpp"

#include <nlohmann/json.hpp>

namespace squawk::api::render {

// job_id, type, status, progress, attempts, result/error, cost, timestamps.
nlohmann::json job_json(const jobs::Job& job);
// What a paid job cost (issue #21): `reserved` when it was accepted, `charged` once it completed
// (null before), and whether a failure or cancel refunded it; null for a job nothing paid for.
nlohmann::json cost_json(const std::optional<long long>& reserved_units,
                         const std::optional<long long>& charged_units, bool refunded);
// The 202 answer to a submission: job_id, status, type, created_at.
nlohmann::json accepted_job_json(const jobs::Job& job);

}  // namespace squawk::api::render
