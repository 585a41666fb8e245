#include "api/handlers/job_handlers.hpp"

#include "api/server/pagination.hpp"
#include "api/server/validation.hpp"
#include "common/core/error/api_error.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "common/domain/jobs/job_types.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

constexpr std::array<std::string_view, 6> kStatuses{
    jobs::status::queued,    jobs::status::running, jobs::status::retrying,
    jobs::status::completed, jobs::status::failed,  jobs::status::cancelled};

// A ping job parks one fiber at most this long.
constexpr long long kMaxPingSleepMs = 60000;

ApiError job_not_found() {
    return ApiError(ErrorCode::NotFound, "No job with this id.");
}

}  // namespace

Reply get_job(const RequestContext& ctx, Services& services) {
    const std::string& id = ctx.param("job_id");
    if (auto finished = services.finished_jobs.find(ctx.workspace_id, id))
        return Reply::ok(std::move(*finished));
    const auto job = services.mysql.run(
        [&](db::Session& s) { return jobs::JobRepository::find(s, ctx.workspace_id, id); });
    if (!job) throw job_not_found();
    auto rendered = jobs::to_api_json(*job);
    services.finished_jobs.remember(*job, rendered);
    return Reply::ok(std::move(rendered));
}

Reply list_jobs(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    const PageRequest page = read_page(query);
    const auto status = query.optional_enum("status", kStatuses);
    query.finish();
    const auto found = services.mysql.run([&](db::Session& s) {
        return jobs::JobRepository::list(s, ctx.workspace_id, status.value_or(""), page.offset(),
                                         page.per_page);
    });
    nlohmann::json items = nlohmann::json::array();
    for (const auto& job : found.items) items.push_back(jobs::to_api_json(job));
    return Reply::page(std::move(items), pagination_json(page, found.total));
}

Reply cancel_job(const RequestContext& ctx, Services& services) {
    const std::string& id = ctx.param("job_id");
    auto [result, job] = services.mysql.transaction([&](db::Session& s) {
        const auto r = jobs::JobRepository::cancel(s, ctx.workspace_id, id);
        return std::make_pair(r, jobs::JobRepository::find(s, ctx.workspace_id, id));
    });
    switch (result) {
        case jobs::CancelResult::not_found:
            throw job_not_found();
        case jobs::CancelResult::already_terminal:
            throw ApiError(ErrorCode::Conflict, "The job has already finished.",
                           {{"status", job ? job->status : std::string()}});
        case jobs::CancelResult::cancelled:
            break;
    }
    return Reply::ok(jobs::to_api_json(job.value()));
}

Reply submit_ping(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const auto sleep_ms = body.optional_integer("sleep_ms", 0, kMaxPingSleepMs);
    body.reject_unknown_fields();
    body.finish();
    const auto job = services.submitter.submit(ctx.workspace_id, jobs::kNoop,
                                               {{"sleep_ms", sleep_ms.value_or(0)}}, ctx.is_test);
    return Reply::ok(jobs::to_accepted_json(job), 202);
}

}  // namespace squawk::api::handlers
