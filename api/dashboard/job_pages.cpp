// The workspace's asynchronous jobs: listed newest first by status, one job's progress, result or
// error, and cancelling one, through the same JobService, validation and pagination as /v1/jobs.
#include "api/dashboard/keyset_paging.hpp"
#include "api/dashboard/page.hpp"
#include "api/dashboard/shown.hpp"
#include "api/server/pagination.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/domain/jobs/job_service.hpp"

#include <array>

namespace squawk::api::dashboard {
namespace {

// The statuses /v1/jobs filters by: `scheduled` is only the internal wait of a scheduled post.
constexpr std::array kStatuses{jobs::JobStatus::queued,   jobs::JobStatus::running,
                               jobs::JobStatus::retrying, jobs::JobStatus::completed,
                               jobs::JobStatus::failed,   jobs::JobStatus::cancelled};
// As long as the jobs table's type column.
constexpr size_t kMaxTypeChars = 64;

nlohmann::json status_choices(const std::string& chosen) {
    nlohmann::json choices = nlohmann::json::array();
    for (const auto status : kStatuses) {
        const std::string name(name_of(status));
        choices.push_back({{"value", name}, {"selected", name == chosen}});
    }
    return choices;
}

Reply list_jobs(Visit& visit) {
    const QueryParams given = given_filters(visit.query);
    Validator query(given);
    const auto keyset = read_keyset(query);
    jobs::JobListFilter filter{visit.workspace_id(), std::nullopt, std::nullopt};
    filter.status = query.optional_enum<jobs::JobStatus>("status", kStatuses);
    filter.type = query.optional_string("type", kMaxTypeChars);
    const std::string chosen = filter.status ? std::string(name_of(*filter.status)) : std::string();
    nlohmann::json data = {{"statuses", status_choices(chosen)}};
    const auto given_type = given.find("type");
    data["type"] = given_type == given.end() ? std::string() : given_type->second;
    if (!query.problems().empty()) {
        nlohmann::json errors = nlohmann::json::array();
        for (const auto& [field, reason] : query.problems()) errors.push_back(field + " " + reason);
        data["errors"] = std::move(errors);
        return html_page(visit, "jobs", "Jobs", std::move(data), 422);
    }
    const auto found = jobs::JobService(visit.services.mysql).list_keyset(filter, keyset);
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& job : found.items)
        rows.push_back({{"id", job.public_id},
                        {"type", job.type},
                        {"status", job.status},
                        {"progress", job.progress},
                        {"attempts", job.attempts},
                        {"created_at", shown_time(job.created_at)}});
    http::FormFields filters;
    if (filter.status) filters.emplace_back("status", chosen);
    if (filter.type) filters.emplace_back("type", *filter.type);
    data["jobs"] = std::move(rows);
    data["has_jobs"] = !found.items.empty();
    data["pager"] = pager("/dashboard/jobs", keyset, found, std::move(filters));
    return html_page(visit, "jobs", "Jobs", std::move(data));
}

Reply show_job(Visit& visit) {
    const auto job =
        jobs::JobService(visit.services.mysql).get(visit.workspace_id(), visit.param("job_id"));
    nlohmann::json data = {{"id", job.public_id},
                           {"type", job.type},
                           {"status", job.status},
                           {"progress", job.progress},
                           {"stage", job.stage.value_or("—")},
                           {"attempts", job.attempts},
                           {"max_attempts", job.max_attempts},
                           {"mode", job.is_test ? "test" : "live"},
                           {"run_after", shown_time(job.run_after)},
                           {"created_at", shown_time(job.created_at)},
                           {"started_at", shown_time(job.started_at)},
                           {"finished_at", shown_time(job.finished_at)},
                           {"updated_at", shown_time(job.updated_at)},
                           {"cancellable", !jobs::is_terminal(job.status)}};
    if (!job.result.is_null()) data["result"] = job.result.dump(2);
    if (!job.error.is_null()) data["error"] = job.error.dump(2);
    return html_page(visit, "job", "Job " + job.public_id, std::move(data));
}

// What POST /v1/jobs/{job_id}/cancel does: a finished job answers 409, another workspace's 404.
Reply cancel_job(Visit& visit) {
    const auto job =
        jobs::JobService(visit.services.mysql).cancel(visit.workspace_id(), visit.param("job_id"));
    return Reply::redirect("/dashboard/jobs/" + job.public_id);
}

const Page kJobPages[] = {
    {"GET", "/dashboard/jobs", Gate::workspace_member, list_jobs},
    {"GET", "/dashboard/jobs/{job_id}", Gate::workspace_member, show_job},
    {"POST", "/dashboard/jobs/{job_id}/cancel", Gate::workspace_writer, cancel_job},
};

}  // namespace

std::span<const Page> job_pages() {
    return kJobPages;
}

}  // namespace squawk::api::dashboard
