#include "common/domain/jobs/job.hpp"

#include <array>

namespace squawk::jobs {

namespace status {
bool is_known(std::string_view s) {
    static constexpr std::array all{scheduled, queued, running,  retrying,
                                    completed, failed, cancelled};
    for (const char* known : all)
        if (s == known) return true;
    return false;
}
bool is_terminal(std::string_view s) {
    return s == completed || s == failed || s == cancelled;
}
}  // namespace status

namespace {
nlohmann::json optional_time(const std::optional<time::TimePoint>& t) {
    return t ? nlohmann::json(time::format_iso8601(*t)) : nlohmann::json(nullptr);
}
}  // namespace

nlohmann::json to_api_json(const Job& job) {
    return {{"job_id", job.public_id},
            {"type", job.type},
            {"status", job.status},
            {"progress", job.progress},
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

nlohmann::json to_accepted_json(const Job& job) {
    return {{"job_id", job.public_id},
            {"status", job.status},
            {"type", job.type},
            {"created_at", time::format_iso8601(job.created_at)}};
}

}  // namespace squawk::jobs
