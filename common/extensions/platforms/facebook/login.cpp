#include "common/extensions/platforms/facebook/login.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/extensions/platforms/facebook/graph.hpp"

namespace squawk::social::facebook {
namespace {

using nlohmann::json;

// The token endpoint is on the Graph API's host unless the application configured another.
std::string token_endpoint(const OAuthClient& client, const http::FormFields& query) {
    const std::string base =
        client.token_url.empty() ? graph_path("oauth/access_token") : client.token_url;
    return base + (base.find('?') == std::string::npos ? "?" : "&") + http::form_encode(query);
}

// The permissions the user granted (status "granted"), space-separated as grants keep them.
std::optional<std::string> granted_scopes(PlatformApi& api, const std::string& user_token,
                                          std::optional<PlatformFailure>& failure) {
    auto answer =
        read_object(api.send("GET", graph_path("me/permissions"), meta_graph::bearer(user_token)));
    if (answer.failure) {
        failure = std::move(answer.failure);
        return std::nullopt;
    }
    std::string scope;
    for (const auto& entry : answer.body.value("data", json::array()))
        if (entry.is_object() && json_text(entry, "status") == "granted")
            scope += (scope.empty() ? "" : " ") + json_text(entry, "permission");
    return scope;
}

// The Page `page_id` among those the user token manages (the first when `page_id` is empty):
// {id, name, access_token}, or null with `failure` set.
json managed_page(PlatformApi& api, const std::string& user_token, const std::string& page_id,
                  std::optional<PlatformFailure>& failure) {
    auto answer = read_object(
        api.send("GET", graph_path("me/accounts?fields=id,name,access_token,tasks&limit=100"),
                 meta_graph::bearer(user_token)));
    if (answer.failure) {
        failure = std::move(answer.failure);
        return nullptr;
    }
    for (const auto& page : answer.body.value("data", json::array())) {
        if (!page.is_object() || graph_id(page, "id").empty() ||
            json_text(page, "access_token").empty())
            continue;
        if (page_id.empty() || graph_id(page, "id") == page_id) return page;
    }
    failure = refusal(
        page_id.empty()
            ? "the Facebook user granted access to no Page; connect again and "
              "choose a Page on Facebook's consent page"
            : "the Facebook user no longer manages Page " + page_id + "; connect the account again",
        200);
    failure->field = "access_token";
    return nullptr;
}

}  // namespace

TokenGrant page_grant(PlatformApi& api, const OAuthClient& client, const std::string& code) {
    const auto short_lived =
        read_token(api.send("GET",
                            token_endpoint(client, {{"client_id", client.client_id},
                                                    {"redirect_uri", client.redirect_uri},
                                                    {"client_secret", client.client_secret},
                                                    {"code", code}}),
                            {}));
    if (short_lived.failure) return {{}, short_lived.failure};
    // The short-lived user token lasts about two hours; the long-lived one about 60 days, and
    // Page tokens read with it do not expire.
    const auto long_lived = read_token(
        api.send("GET",
                 token_endpoint(
                     client, {{"grant_type", "fb_exchange_token"},
                              {"client_id", client.client_id},
                              {"client_secret", client.client_secret},
                              {"fb_exchange_token", json_text(short_lived.body, "access_token")}}),
                 {}));
    if (long_lived.failure) return {{}, long_lived.failure};
    const std::string user_token = json_text(long_lived.body, "access_token");
    TokenGrant grant;
    const auto scope = granted_scopes(api, user_token, grant.failure);
    if (!scope) return grant;
    const json page = managed_page(api, user_token, "", grant.failure);
    if (page.is_null()) return grant;
    grant.credentials = {{"access_token", json_text(page, "access_token")},
                         {"page_id", graph_id(page, "id")},
                         {"page_name", json_text(page, "name")},
                         {"user_access_token", user_token},
                         {"scope", *scope}};
    return grant;
}

TokenGrant renewed_page_grant(PlatformApi& api, const Credentials& current) {
    const auto user_token = current.find("user_access_token");
    const auto page_id = current.find("page_id");
    if (user_token == current.end() || user_token->second.empty() || page_id == current.end()) {
        auto failure = refusal(
            "the account has no Facebook user token to renew its Page token "
            "with; connect it again");
        failure.field = "access_token";
        return {{}, failure};
    }
    TokenGrant grant;
    const json page = managed_page(api, user_token->second, page_id->second, grant.failure);
    if (page.is_null()) return grant;
    grant.credentials["access_token"] = json_text(page, "access_token");
    return grant;
}

}  // namespace squawk::social::facebook
