// Polling, listing and cancelling asynchronous jobs, and the ping job that checks the job path
// end to end (scope jobs:read).
#include "api/handlers/route_families.hpp"

#include "api/render/job_json.hpp"
#include "api/server/pagination.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/domain/jobs/job_service.hpp"
#include "common/domain/jobs/job_types.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

// What clients may filter by: `scheduled` is only the internal wait of a scheduled post's publish.
constexpr std::array kStatuses{jobs::JobStatus::queued,   jobs::JobStatus::running,
                               jobs::JobStatus::retrying, jobs::JobStatus::completed,
                               jobs::JobStatus::failed,   jobs::JobStatus::cancelled};

// A ping job parks one fiber at most this long.
constexpr long long kMaxPingSleepMs = 60000;

Reply get_job(const RequestContext& ctx, Services& services) {
    const std::string& id = ctx.param("job_id");
    if (auto finished = services.finished_jobs.find(ctx.workspace_id, id))
        return Reply::ok_serialized(std::move(*finished));
    const auto job = jobs::JobService(services.mysql).get(ctx.workspace_id, id);
    auto rendered = render::job_json(job);
    services.finished_jobs.remember(job, rendered);
    return Reply::ok(std::move(rendered));
}

Reply list_jobs(const RequestContext& ctx, Services& services) {
    Validator query(ctx.query);
    const PageRequest page = read_page(query);
    const auto status = query.optional_enum<jobs::JobStatus>("status", kStatuses);
    query.finish();
    const auto found = jobs::JobService(services.mysql)
                           .list(ctx.workspace_id, status, page.offset(), page.per_page);
    return page_reply(page, found, render::job_json);
}

Reply cancel_job(const RequestContext& ctx, Services& services) {
    return Reply::ok(render::job_json(
        jobs::JobService(services.mysql).cancel(ctx.workspace_id, ctx.param("job_id"))));
}

Reply submit_ping(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const auto sleep_ms = body.optional_integer("sleep_ms", 0, kMaxPingSleepMs);
    body.reject_unknown_fields();
    body.finish();
    const auto job = services.submitter.submit(ctx.workspace_id, jobs::kNoop,
                                               {{"sleep_ms", sleep_ms.value_or(0)}}, ctx.is_test);
    return Reply::ok(render::accepted_job_json(job), 202);
}

}  // namespace

template <>
std::span<const Route> routes<Family::jobs>() {
    constexpr Access kRead = Access::needs("jobs:read");
    static constexpr std::array kRoutes{
        Route::get("/v1/jobs", kRead, list_jobs),
        // Polling a job is never limited (spec 1, 8.1).
        Route::get("/v1/jobs/{job_id}", kRead, get_job).unlimited(),
        Route::post("/v1/jobs/{job_id}/cancel", kRead, cancel_job),
        Route::post("/v1/jobs/ping", kRead, submit_ping),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
