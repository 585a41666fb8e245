// API keys of the session's workspace: listed by prefix, created (the key shown once, on the
// answer to the form) and revoked, through the same ApiKeyRepository and identity epoch as
// `squawkctl key`.
#include "api/dashboard/page.hpp"
#include "api/server/services.hpp"
#include "common/core/error/api_error.hpp"
#include "common/domain/auth/api_key.hpp"
#include "common/domain/auth/identity_epoch.hpp"

#include <charconv>

namespace squawk::api::dashboard {
namespace {

constexpr int kMaxRateLimit = 1'000'000;

std::string scope_list(const std::set<std::string>& scopes) {
    if (scopes.contains("*")) return "all";
    std::string out;
    for (const auto& s : scopes) out += (out.empty() ? "" : ", ") + s;
    return out;
}

std::string_view type_name(auth::KeyType type) {
    return type == auth::KeyType::live ? "live" : "test";
}

Reply list_page(Visit& visit, nlohmann::json errors, int status) {
    const auto keys = visit.services.mysql.run(
        [&](db::Session& s) { return auth::ApiKeyRepository::list(s, visit.workspace_id()); });
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& k : keys)
        rows.push_back({{"id", k.key.id},
                        {"prefix", k.key.prefix},
                        {"type", type_name(k.key.type)},
                        {"scopes", scope_list(k.key.scopes)},
                        {"rate_limit", k.key.rate_limit ? std::to_string(*k.key.rate_limit)
                                                        : std::string("workspace tier")},
                        {"created_at", time::format_iso8601(k.created_at).substr(0, 16)},
                        {"status", k.revoked_at ? "revoked" : "active"},
                        {"active", !k.revoked_at}});
    nlohmann::json scopes = nlohmann::json::array();
    for (const auto& s : auth::known_scopes()) scopes.push_back(s);
    return html_page(visit, "keys", "API keys",
                     {{"keys", rows},
                      {"has_keys", !rows.empty()},
                      {"scopes", scopes},
                      {"errors", std::move(errors)}},
                     status);
}

Reply show_keys(Visit& visit) {
    return list_page(visit, nlohmann::json::array(), 200);
}

Reply create_key(Visit& visit) {
    nlohmann::json errors = nlohmann::json::array();
    const std::string type = visit.field("type");
    if (type != "live" && type != "test") errors.push_back("Choose live or test.");
    std::set<std::string> scopes;
    for (const auto& [name, value] : visit.form)
        if (name == "scopes") scopes.insert(value);
    if (scopes.contains("*")) scopes = {"*"};
    if (scopes.empty()) errors.push_back("Choose at least one scope.");
    for (const auto& s : scopes)
        if (s != "*" && !auth::known_scopes().contains(s))
            errors.push_back("Unknown scope " + s + ".");
    std::optional<int> rate_limit;
    if (const std::string text = visit.field("rate_limit"); !text.empty()) {
        int value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size() || value < 1 ||
            value > kMaxRateLimit)
            errors.push_back("The rate limit is a number of requests per minute, from 1 to " +
                             std::to_string(kMaxRateLimit) + ".");
        else
            rate_limit = value;
    }
    if (!errors.empty()) return list_page(visit, std::move(errors), 422);
    const auto created = visit.services.mysql.transaction([&](db::Session& s) {
        return auth::ApiKeyRepository::create(
            s, visit.workspace_id(), type == "live" ? auth::KeyType::live : auth::KeyType::test,
            scopes, rate_limit);
    });
    return html_page(visit, "key_created", "Your new API key",
                     {{"secret", created.secret},
                      {"prefix", created.key.prefix},
                      {"type", type},
                      {"scopes", scope_list(created.key.scopes)}},
                     201);
}

Reply revoke_key(Visit& visit) {
    long long key_id = 0;
    const std::string text = visit.field("key_id");
    std::from_chars(text.data(), text.data() + text.size(), key_id);
    // Only the session's own workspace's keys are found: another's id is as unknown as no id.
    const bool revoked = visit.services.mysql.transaction([&](db::Session& s) {
        for (const auto& k : auth::ApiKeyRepository::list(s, visit.workspace_id()))
            if (k.key.id == key_id && !k.revoked_at)
                return auth::ApiKeyRepository::revoke(s, key_id);
        return false;
    });
    if (!revoked)
        throw ApiError(ErrorCode::NotFound, "This workspace has no active key with this id.");
    visit.services.redis.run([](redis::RedisClient& r) { auth::IdentityEpoch::announce(r); });
    return Reply::redirect("/dashboard/keys");
}

const Page kKeyPages[] = {
    {"GET", "/dashboard/keys", Gate::workspace_member, show_keys},
    {"POST", "/dashboard/keys", Gate::workspace_writer, create_key},
    {"POST", "/dashboard/keys/revoke", Gate::workspace_writer, revoke_key},
};

}  // namespace

std::span<const Page> key_pages() {
    return kKeyPages;
}

}  // namespace squawk::api::dashboard
