#include "api/handlers/social_sync_handlers.hpp"

#include "api/render/job_json.hpp"
#include "api/server/validation.hpp"
#include "common/domain/social/sync_service.hpp"

namespace squawk::api::handlers {
namespace {

constexpr size_t kMaxAccounts = 100;
constexpr size_t kMaxIdChars = 64;

}  // namespace

Reply sync_external_posts(const RequestContext& ctx, Services& services) {
    Validator body(ctx.body);
    const auto account_ids = body.optional_string_array("account_ids", kMaxAccounts, kMaxIdChars);
    body.reject_unknown_fields();
    body.finish();
    const auto job = social::SyncService(services.mysql, services.submitter)
                         .sync_external_posts(ctx.workspace_id, account_ids, ctx.is_test);
    return Reply::ok(render::accepted_job_json(job), 202);
}

}  // namespace squawk::api::handlers
