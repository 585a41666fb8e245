#include "common/domain/auth/api_key.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/db/sql_text.hpp"

#include <sstream>

namespace squawk::auth {

bool ApiKey::has_scope(std::string_view scope) const {
    return scopes.count("*") > 0 || scopes.count(std::string(scope)) > 0;
}

const std::set<std::string>& known_scopes() {
    static const std::set<std::string> scopes = {
        "articles:read",   "articles:write",     "images:read",         "images:write",
        "videos:read",     "videos:write",       "presentations:read",  "presentations:write",
        "social:read",     "social:write",       "audio:read",          "audio:write",
        "urls:read",       "urls:write",         "captain:use",         "chatbot:use",
        "media:read",      "media:write",        "analytics:read",      "jobs:read",
        "seo:read",        "contacts:read",      "contacts:write",      "companies:read",
        "companies:write", "tasks:read",         "tasks:write",         "calendar:read",
        "calendar:write",  "opportunities:read", "opportunities:write", "webhooks:read",
        "webhooks:write",  "logs:read",          "workspaces:read",     "workspaces:write",
        "workspaces:bulk", "profiles:read",      "profiles:manage",     "ads:read",
        "ads:write"};
    return scopes;
}

bool looks_like_key(std::string_view text) {
    std::string_view rest;
    if (text.starts_with("sqk_live_"))
        rest = text.substr(9);
    else if (text.starts_with("sqk_test_"))
        rest = text.substr(9);
    else
        return false;
    if (rest.size() < 43 || rest.size() > 128) return false;
    for (char c : rest)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) return false;
    return true;
}

std::string key_prefix(std::string_view key) {
    return std::string(key.substr(0, 13));
}

namespace {

std::string join(const std::set<std::string>& scopes) {
    std::string out;
    for (const auto& s : scopes) out += (out.empty() ? "" : ",") + s;
    return out;
}

std::set<std::string> split(const std::string& text) {
    std::set<std::string> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
        if (!item.empty()) out.insert(item);
    return out;
}

}  // namespace

CreatedKey ApiKeyRepository::create(db::Session& s, long long workspace_id, KeyType type,
                                    const std::set<std::string>& scopes,
                                    std::optional<int> rate_limit) {
    CreatedKey created;
    created.secret =
        std::string(type == KeyType::live ? "sqk_live_" : "sqk_test_") + crypto::random_token(32);
    created.key.workspace_id = workspace_id;
    created.key.type = type;
    created.key.scopes = scopes;
    created.key.rate_limit = rate_limit;
    created.key.prefix = key_prefix(created.secret);
    created.key.id = s.insert(
        "INSERT INTO api_keys (workspace_id, key_hash, key_prefix, key_type, scopes,"
        " rate_limit, created_at) VALUES (?,?,?,?,?,?,?)",
        {workspace_id, crypto::sha256_hex(created.secret), created.key.prefix,
         std::string(type == KeyType::live ? "live" : "test"), join(scopes),
         rate_limit ? db::Param(static_cast<long long>(*rate_limit)) : db::Param(nullptr),
         db::time_param(time::now())});
    return created;
}

std::optional<ApiKey> ApiKeyRepository::find_by_secret(db::Session& s, std::string_view secret) {
    const std::string hash = crypto::sha256_hex(secret);
    auto row = s.query_one(
        "SELECT id, workspace_id, key_type, scopes, rate_limit, key_prefix,"
        " revoked_at IS NOT NULL, key_hash FROM api_keys WHERE key_hash = ?",
        {hash});
    // The index lookup already matched; the constant-time compare keeps timing uniform anyway.
    if (!row || !crypto::constant_time_equal(row->text(7), hash)) return std::nullopt;
    ApiKey key;
    key.id = row->integer(0);
    key.workspace_id = row->integer(1);
    key.type = row->text(2) == "test" ? KeyType::test : KeyType::live;
    key.scopes = split(row->text(3));
    if (auto limit = row->optional_integer(4)) key.rate_limit = static_cast<int>(*limit);
    key.prefix = row->text(5);
    key.revoked = row->integer(6) != 0;
    return key;
}

bool ApiKeyRepository::revoke(db::Session& s, long long key_id) {
    return s.execute("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                     {db::time_param(time::now()), key_id}) > 0;
}

std::vector<KeyRecord> ApiKeyRepository::list(db::Session& s, long long workspace_id) {
    std::vector<KeyRecord> keys;
    for (const auto& row : s.query("SELECT id, workspace_id, key_type, scopes, rate_limit,"
                                   " key_prefix, created_at, revoked_at FROM api_keys"
                                   " WHERE workspace_id = ? ORDER BY id",
                                   {workspace_id})) {
        KeyRecord record;
        record.key.id = row.integer(0);
        record.key.workspace_id = row.integer(1);
        record.key.type = row.text(2) == "test" ? KeyType::test : KeyType::live;
        record.key.scopes = split(row.text(3));
        if (auto limit = row.optional_integer(4)) record.key.rate_limit = static_cast<int>(*limit);
        record.key.prefix = row.text(5);
        record.created_at = db::time_column(row, 6);
        record.revoked_at = db::optional_time_column(row, 7);
        record.key.revoked = record.revoked_at.has_value();
        keys.push_back(std::move(record));
    }
    return keys;
}

}  // namespace squawk::auth
