#include "common/extensions/platforms/tiktok/tokens.hpp"

#include "common/domain/social/oauth_grant.hpp"
#include "common/extensions/platforms/tiktok/answers.hpp"
#include "common/extensions/platforms/tiktok/factory.hpp"

#include <algorithm>

namespace squawk::social::tiktok {
namespace {

using nlohmann::json;

std::string token_reason(const json& body) {
    const auto description = json_text(body, "error_description");
    return description.empty() ? json_text(body, "error") : description;
}

// TikTok words refusals as RFC 6749 does ({error, error_description, log_id}). An answer without
// a token granted nothing, whatever its status, so it is a refusal rather than an unknown outcome.
constexpr AnswerShape kTokenAnswer{
    .speaker = "TikTok's token endpoint",
    .accepted =
        [](long status, const json& body) {
            return status == 200 && body.is_object() && body.contains("access_token") &&
                   body["access_token"].is_string();
        },
    .reason = token_reason,
    .kind =
        [](long status) {
            return status / 100 == 2 ? FailureKind::refused : failure_kind_for_status(status);
        },
};

// The shared request sends the application as client_id and client_secret (client_secret_post);
// TikTok reads client_key, which goes along with the grant.
constexpr TokenEndpoint kTokenEndpoint{"/v2/oauth/token/", ClientAuthentication::body,
                                       &kTokenAnswer};

TokenGrant request(PlatformApi& api, const OAuthClient& client, http::FormFields grant) {
    grant.emplace_back("client_key", client.client_id);
    auto out = request_tokens(api, kTokenEndpoint, client, std::move(grant));
    // Every grant keeps its scopes space-separated.
    if (const auto scope = out.credentials.find("scope"); scope != out.credentials.end())
        std::replace(scope->second.begin(), scope->second.end(), ',', ' ');
    return out;
}

}  // namespace

std::string consent_address(const OAuthClient& client, const std::string& state,
                            const std::string& code_challenge) {
    auto url = consent_url(client, kFactory.oauth_scopes, ",", state, code_challenge);
    // The standard address with its client_id parameter named as TikTok names it; response_type
    // comes first, and every value is percent-encoded, so the name is found exactly once.
    constexpr std::string_view kStandard = "&client_id=";
    const auto at = url.find(kStandard);
    if (at != std::string::npos) url.replace(at, kStandard.size(), "&client_key=");
    return url;
}

TokenGrant exchange(PlatformApi& api, const OAuthClient& client, const std::string& code,
                    const std::string& code_verifier) {
    return request(api, client,
                   {{"grant_type", "authorization_code"},
                    {"code", code},
                    {"redirect_uri", client.redirect_uri},
                    {"code_verifier", code_verifier}});
}

TokenGrant refreshed(PlatformApi& api, const OAuthClient& client, const Credentials& current) {
    const auto refresh = current.find("refresh_token");
    if (refresh == current.end() || refresh->second.empty())
        return {{}, refusal("TikTok gave no refresh token; reconnect the account")};
    return request(api, client,
                   {{"grant_type", "refresh_token"}, {"refresh_token", refresh->second}});
}

}  // namespace squawk::social::tiktok
