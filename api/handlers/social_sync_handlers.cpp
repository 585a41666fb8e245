#include "api/handlers/social_sync_handlers.hpp"

#include "api/render/job_json.hpp"
#include "api/server/validation.hpp"
#include "common/domain/jobs/job_types.hpp"
#include "common/domain/social/account_repository.hpp"

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

    nlohmann::json rows = nlohmann::json::array();
    if (account_ids) {
        const auto found = services.mysql.run([&](db::Session& s) {
            return social::AccountRepository::resolve(s, ctx.workspace_id, *account_ids);
        });
        std::string unknown;
        for (const auto& id : *account_ids) {
            const auto hit = std::find_if(found.begin(), found.end(),
                                          [&](const auto& f) { return f.first == id; });
            if (hit == found.end())
                unknown.append(unknown.empty() ? "" : ", ").append(id);
            else
                rows.push_back(hit->second);
        }
        if (!unknown.empty())
            body.reject("account_ids", "not connected accounts of this workspace: " + unknown);
        body.finish();
    }
    const auto job = services.submitter.submit(ctx.workspace_id, jobs::kSyncExternal,
                                               {{"account_ids", rows}}, ctx.is_test);
    return Reply::ok(render::accepted_job_json(job), 202);
}

}  // namespace squawk::api::handlers
