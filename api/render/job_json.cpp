#include "api/render/job_json.hpp"

#include "api/render/optional_json.hpp"

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
            {"run_after", optional_time(job.run_after)},
            {"created_at", time::format_iso8601(job.created_at)},
            {"started_at", optional_time(job.started_at)},
            {"finished_at", optional_time(job.finished_at)},
            {"updated_at", time::format_iso8601(job.updated_at)}};
}

nlohmann::json accepted_job_json(const jobs::Job& job) {
    return {{"job_id", job.public_id},
            {"status", job.status},
            {"type", job.type},
            {"created_at", time::format_iso8601(job.created_at)}};
}

}  // namespace squawk::api::render
