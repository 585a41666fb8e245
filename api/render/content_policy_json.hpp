// The API's JSON for a workspace's content policy (GET/PUT /content-policy): its own lists, and
// whether the deployment's global lists apply too (their contents are the operator's).
#pragma once

#include "common/domain/generation/content_policy.hpp"

#include <nlohmann/json.hpp>

namespace squawk::api::render {

nlohmann::json content_policy_json(const generation::ContentPolicyLists& lists,
                                   bool global_policy_active);

}  // namespace squawk::api::render
