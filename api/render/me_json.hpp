// The API's JSON for GET /me: the key's workspace and the key itself, rendered
// straight from the cached workspace and the authenticated key (a hot path).
#pragma once

#include "common/domain/auth/api_key.hpp"
#include "common/domain/workspace/workspace_repository.hpp"

#include <nlohmann/json.hpp>

namespace squawk::api::render {

// Scopes are listed as stored: "*" stays "*" (every scope, including ones added later).
nlohmann::json me_json(const workspace::Workspace& ws, const auth::ApiKey& key);

}  // namespace squawk::api::render
