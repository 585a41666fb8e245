// Importing posts published natively on connected accounts (issue 4; scope social:write).
// POST /social/posts/sync-external: 202 with the job that lists and imports them.
#include "api/handlers/route_families.hpp"

#include "api/render/job_json.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/domain/social/sync_service.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

constexpr size_t kMaxAccounts = 100;

Reply sync_external_posts(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const auto account_ids = body.optional_string_array("account_ids", kMaxAccounts, kMaxIdChars);
    body.reject_unknown_fields();
    body.finish();
    const auto job = social::SyncService(services.mysql, services.submitter)
                         .sync_external_posts(ctx.workspace_id, account_ids, ctx.is_test);
    return Reply::ok(render::accepted_job_json(job), 202);
}

}  // namespace

template <>
std::span<const Route> routes<Family::social_sync>() {
    static constexpr std::array kRoutes{
        Route::post("/v1/social/posts/sync-external", Access::needs("social:write"),
                    sync_external_posts),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
