#include "api/render/me_json.hpp"

#include "api/render/optional_json.hpp"

namespace squawk::api::render {

nlohmann::json me_json(const workspace::Workspace& ws, const auth::ApiKey& key) {
    return {
        {"workspace",
         {{"id", ws.id}, {"name", ws.name}, {"created_at", time::format_iso8601(ws.created_at)}}},
        {"key",
         {{"prefix", key.prefix},
          {"type", key.type == auth::KeyType::test ? "test" : "live"},
          {"scopes", key.scopes},
          {"rate_limit", or_null(key.rate_limit)}}}};
}

}  // namespace squawk::api::render
