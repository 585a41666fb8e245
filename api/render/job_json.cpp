#include "api/render/job_json.hpp"

#include "api/render/optional_json.hpp"
#include "common/domain/workspace/workspace_repository.hpp"

namespace squawk::api::render {

nlohmann::json job_json(const jobs::Job& job) {
    return {{"job_id", job.public_id},
            {"type", job.type},
            {"status", job.status},
            {"progress", job.progress},
            {"stage", or_null(job.stage)},
            {"attempts", job.attempts},
            {"max_attempts", job.max_attempts},
            {"result", job.result},
            {"error", job.error},
            {"cost", cost_json(job.reserved_units, job.charged_units, job.refunded)},
            {"run_after", optional_time(job.run_after)},
            {"created_at", time::format_iso8601(job.created_at)},
            {"started_at", optional_time(job.started_at)},
            {"finished_at", optional_time(job.finished_at)},
            {"updated_at", time::format_iso8601(job.updated_at)}};
}

nlohmann::json cost_json(const std::optional<long long>& reserved_units,
                         const std::optional<long long>& charged_units, bool refunded) {
    if (!reserved_units) return nullptr;
    return {{"reserved", workspace::format_credits(*reserved_units)},
            {"charged", charged_units ? nlohmann::json(workspace::format_credits(*charged_units))
                                      : nlohmann::json(nullptr)},
            {"refunded", refunded}};
}

nlohmann::json accepted_job_json(const jobs::Job& job) {
    return {{"job_id", job.public_id},
            {"status", job.status},
            {"type", job.type},
            {"created_at", time::format_iso8601(job.created_at)}};
}

}  // namespace squawk::api::render
