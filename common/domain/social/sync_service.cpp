#include "common/domain/social/sync_service.hpp"

#include "common/core/error/api_error.hpp"
#include "common/domain/jobs/job_types.hpp"
#include "common/domain/social/account_repository.hpp"

#include <algorithm>

namespace squawk::social {

jobs::Job SyncService::sync_external_posts(
    long long workspace_id, const std::optional<std::vector<std::string>>& account_ids,
    bool is_test) {
    nlohmann::json rows = nlohmann::json::array();
    if (account_ids) {
        const auto found = mysql_.run([&](db::Session& s) {
            return AccountRepository::resolve(s, workspace_id, account_view(is_test), *account_ids);
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
            throw validation_error(
                {{"account_ids", "not connected accounts of this workspace: " + unknown}});
    }
    return submitter_.submit(workspace_id, jobs::kSyncExternal, {{"account_ids", rows}}, is_test);
}

}  // namespace squawk::social
