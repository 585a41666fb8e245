#include "api/render/me_json.hpp"

#include "api/render/optional_json.hpp"

namespace squawk::api::render {

// Member by member rather than from nested initializer lists, which build each pair as a
// two-element array first: this runs on every GET /me.
nlohmann::json me_json(const workspace::Workspace& ws, const auth::ApiKey& key) {
    nlohmann::json workspace = nlohmann::json::object();
    workspace["id"] = ws.id;
    workspace["name"] = ws.name;
    workspace["created_at"] = time::format_iso8601(ws.created_at);
    nlohmann::json key_json = nlohmann::json::object();
    key_json["prefix"] = key.prefix;
    key_json["type"] = key.type == auth::KeyType::test ? "test" : "live";
    key_json["scopes"] = key.scopes;
    key_json["rate_limit"] = or_null(key.rate_limit);
    nlohmann::json me = nlohmann::json::object();
    me["workspace"] = std::move(workspace);
    me["key"] = std::move(key_json);
    return me;
}

}  // namespace squawk::api::render
