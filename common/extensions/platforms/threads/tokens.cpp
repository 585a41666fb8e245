#include "common/extensions/platforms/threads/tokens.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/meta_graph.hpp"

#include <algorithm>

namespace squawk::social::threads {
namespace {

using nlohmann::json;

constexpr AnswerShape kTokenAnswer = meta_graph::token_answer("Threads' token endpoint");

// The access token and its expiry from an answer of /access_token or /refresh_access_token:
// {access_token, token_type, expires_in}.
TokenGrant long_lived(const Answer& answer) {
    TokenGrant grant;
    if (answer.failure) {
        grant.failure = answer.failure;
        return grant;
    }
    grant.credentials["access_token"] = answer.body["access_token"].get<std::string>();
    if (answer.body.contains("expires_in") && answer.body["expires_in"].is_number_integer()) {
        const long long now = time::to_unix_ms(time::now()) / 1000;
        grant.credentials["expires_at"] =
            std::to_string(now + answer.body["expires_in"].get<long long>());
    }
    return grant;
}

}  // namespace

TokenGrant long_lived_grant(PlatformApi& api, const OAuthClient& client, const std::string& code) {
    const auto short_lived = meta_graph::read(
        api.send("POST", "/oauth/access_token", {}, "application/x-www-form-urlencoded",
                 http::form_encode({{"client_id", client.client_id},
                                    {"client_secret", client.client_secret},
                                    {"grant_type", "authorization_code"},
                                    {"redirect_uri", client.redirect_uri},
                                    {"code", code}})),
        kTokenAnswer);
    if (short_lived.failure) return {{}, short_lived.failure};
    const json& body = short_lived.body;
    const auto user_id = meta_graph::graph_id(body, "user_id");
    if (user_id.empty()) return {{}, refusal("Threads granted a token naming no user", 200)};
    // The short-lived token lasts an hour and cannot be refreshed: only the long-lived one is kept.
    auto grant = long_lived(meta_graph::read(
        api.send("GET",
                 "/access_token?" +
                     http::form_encode({{"grant_type", "th_exchange_token"},
                                        {"client_secret", client.client_secret},
                                        {"access_token", json_text(body, "access_token")}}),
                 {}),
        kTokenAnswer));
    if (grant.failure) return grant;
    grant.credentials["user_id"] = user_id;
    // Threads names no scopes in its answer as a rule; when it does (comma-separated, Meta's
    // form), they are kept space-separated as every grant keeps them.
    if (auto scope = json_text(body, "scope"); !scope.empty()) {
        std::replace(scope.begin(), scope.end(), ',', ' ');
        grant.credentials["scope"] = scope;
    }
    return grant;
}

TokenGrant refreshed_grant(PlatformApi& api, const Credentials& current) {
    const auto token = current.find("access_token");
    if (token == current.end() || token->second.empty())
        return {{},
                refusal("the account has no Threads token to refresh; reconnect it", 0,
                        "access_token")};
    return long_lived(meta_graph::read(
        api.send("GET",
                 "/refresh_access_token?" + http::form_encode({{"grant_type", "th_refresh_token"},
                                                               {"access_token", token->second}}),
                 {}),
        kTokenAnswer));
}

}  // namespace squawk::social::threads
