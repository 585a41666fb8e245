#include "common/extensions/platforms/instagram/facebook_login.hpp"

#include "common/domain/social/oauth_grant.hpp"
#include "common/extensions/platforms/instagram/graph.hpp"

namespace squawk::social::instagram {
namespace {

using nlohmann::json;

// Facebook's token endpoint answers {access_token, token_type, expires_in} and refuses in the
// Graph error shape.
constexpr AnswerShape kTokenAnswer{
    .speaker = "Facebook's token endpoint",
    .accepted = meta_graph::is_token,
    .reason = meta_graph::reason,
};

// The application's id and secret go among the form fields.
constexpr TokenEndpoint kTokenEndpoint{kTokenPath, ClientAuthentication::body, &kTokenAnswer};

constexpr std::string_view kPagesScope[] = {"pages_show_list"};

TokenGrant exchanged(PlatformApi& api, const OAuthClient& client, const std::string& token) {
    return request_tokens(api, kTokenEndpoint, client,
                          {{"grant_type", "fb_exchange_token"}, {"fb_exchange_token", token}});
}

// The permissions the user granted, space-separated as every grant keeps them: Facebook's token
// answers name none, and the user may have unticked some on the consent page.
Answer granted_scope(PlatformApi& api, const std::string& token) {
    auto answer = read_list(
        api.send("GET", graph_path("me/permissions"), meta_graph::bearer(token)), "public_profile");
    if (answer.failure) return answer;
    std::string scope;
    for (const auto& entry : answer.body["data"])
        if (json_text(entry, "status") == "granted")
            scope += (scope.empty() ? "" : " ") + json_text(entry, "permission");
    return {scope, std::nullopt};
}

}  // namespace

TokenGrant long_lived_grant(PlatformApi& api, const OAuthClient& client, const std::string& code,
                            const std::string& code_verifier) {
    // The short-lived token lasts an hour or two: only the long-lived one is kept.
    const auto short_lived =
        exchange_authorization_code(api, kTokenEndpoint, client, code, code_verifier);
    if (short_lived.failure) return short_lived;
    auto grant = exchanged(api, client, short_lived.credentials.at("access_token"));
    if (grant.failure) return grant;
    const std::string token = grant.credentials.at("access_token");
    const auto scope = granted_scope(api, token);
    if (scope.failure) return {{}, scope.failure};
    grant.credentials["scope"] = scope.body.get<std::string>();
    if (!missing_scopes(grant.credentials, kPagesScope).empty()) return grant;
    const auto pages = read_list(
        api.send("GET",
                 graph_path("me/accounts?fields=id,name,instagram_business_account&limit=100"),
                 meta_graph::bearer(token)),
        "pages_show_list");
    if (pages.failure) return {{}, pages.failure};
    for (const auto& page : pages.body["data"]) {
        const auto account =
            meta_graph::graph_id(page.value("instagram_business_account", json::object()), "id");
        if (account.empty()) continue;
        grant.credentials["user_id"] = account;
        grant.credentials["page_id"] = meta_graph::graph_id(page, "id");
        return grant;
    }
    return {{},
            refusal("none of the Facebook Pages this user manages is linked to an Instagram "
                    "professional account (link one in the Page's settings, then connect again)",
                    200)};
}

TokenGrant refreshed_grant(PlatformApi& api, const OAuthClient& client,
                           const Credentials& current) {
    const auto token = current.find("access_token");
    if (token == current.end() || token->second.empty())
        return {{},
                refusal("the account has no Instagram token to refresh; reconnect it", 0,
                        "access_token")};
    auto grant = exchanged(api, client, token->second);
    // Facebook refuses to exchange a token it no longer takes: only consenting again helps.
    if (grant.failure && grant.failure->kind == FailureKind::refused)
        grant.failure->field = "access_token";
    return grant;
}

}  // namespace squawk::social::instagram
