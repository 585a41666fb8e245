#include "common/domain/social/oauth_grant.hpp"

#include "common/core/crypto/crypto.hpp"

#include <algorithm>
#include <charconv>
#include <set>
#include <sstream>

namespace squawk::social {
namespace {

std::string standard_reason(const nlohmann::json& body) {
    const auto description = json_text(body, "error_description");
    return description.empty() ? json_text(body, "error") : description;
}

constexpr AnswerShape kStandardAnswer{
    .speaker = "The platform's token endpoint",
    .accepted =
        [](long status, const nlohmann::json& body) {
            return status == 200 && body.is_object() && body.contains("access_token") &&
                   body["access_token"].is_string();
        },
    .reason = standard_reason,
};

std::string now_plus(long long seconds) {
    const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    return std::to_string(now + seconds);
}

}  // namespace

std::string consent_url(const OAuthClient& client, std::span<const std::string_view> scopes,
                        std::string_view scope_separator, const std::string& state,
                        const std::string& code_challenge) {
    std::string scope;
    for (const auto& s : scopes) {
        if (!scope.empty()) scope += scope_separator;
        scope += s;
    }
    const char joiner = client.authorize_url.find('?') == std::string::npos ? '?' : '&';
    return client.authorize_url + joiner +
           http::form_encode({{"response_type", "code"},
                              {"client_id", client.client_id},
                              {"redirect_uri", client.redirect_uri},
                              {"scope", scope},
                              {"state", state},
                              {"code_challenge", code_challenge},
                              {"code_challenge_method", "S256"}});
}

std::string code_challenge_of(const std::string& verifier) {
    return crypto::base64url(crypto::from_hex(crypto::sha256_hex(verifier)));
}

TokenGrant exchange_authorization_code(PlatformApi& api, const TokenEndpoint& endpoint,
                                       const OAuthClient& client, const std::string& code,
                                       const std::string& code_verifier) {
    return request_tokens(api, endpoint, client,
                          {{"grant_type", "authorization_code"},
                           {"code", code},
                           {"redirect_uri", client.redirect_uri},
                           {"code_verifier", code_verifier}});
}

TokenGrant refresh_access_token(PlatformApi& api, const TokenEndpoint& endpoint,
                                const OAuthClient& client, const Credentials& current) {
    const auto refresh = current.find("refresh_token");
    if (refresh == current.end() || refresh->second.empty())
        return {{},
                PlatformFailure{FailureKind::refused,
                                "the platform gave no refresh token; reconnect the account",
                                std::nullopt, 0, ""}};
    return request_tokens(api, endpoint, client,
                          {{"grant_type", "refresh_token"}, {"refresh_token", refresh->second}});
}

TokenGrant request_tokens(PlatformApi& api, const TokenEndpoint& endpoint,
                          const OAuthClient& client, http::FormFields grant) {
    http::HeaderList headers = {{"Accept", "application/json"}};
    if (endpoint.authentication == ClientAuthentication::basic) {
        headers.emplace_back(
            "Authorization",
            "Basic " + crypto::base64(http::percent_encode(client.client_id) + ":" +
                                      http::percent_encode(client.client_secret)));
    } else {
        grant.emplace_back("client_id", client.client_id);
        grant.emplace_back("client_secret", client.client_secret);
    }
    // PKCE public clients (no secret) send client_id in the body whatever the authentication.
    if (client.client_secret.empty() && endpoint.authentication == ClientAuthentication::basic)
        grant.emplace_back("client_id", client.client_id);
    const auto response =
        api.send("POST", client.token_url.empty() ? std::string(endpoint.path) : client.token_url,
                 std::move(headers), "application/x-www-form-urlencoded", http::form_encode(grant));
    const auto answer = read_answer(response, endpoint.errors ? *endpoint.errors : kStandardAnswer);
    TokenGrant out;
    if (answer.failure) {
        out.failure = answer.failure;
        return out;
    }
    const auto& body = answer.body;
    out.credentials["access_token"] = body["access_token"].get<std::string>();
    if (const auto refresh = json_text(body, "refresh_token"); !refresh.empty())
        out.credentials["refresh_token"] = refresh;
    if (body.contains("expires_in") && body["expires_in"].is_number_integer())
        out.credentials["expires_at"] = now_plus(body["expires_in"].get<long long>());
    if (const auto scope = json_text(body, "scope"); !scope.empty())
        out.credentials["scope"] = scope;
    return out;
}

std::optional<time::TimePoint> token_expiry(const Credentials& credentials) {
    const auto at = credentials.find("expires_at");
    if (at == credentials.end()) return std::nullopt;
    long long seconds = 0;
    const char* end = at->second.data() + at->second.size();
    if (std::from_chars(at->second.data(), end, seconds).ptr != end) return std::nullopt;
    return time::TimePoint(std::chrono::seconds(seconds));
}

std::vector<std::string> missing_scopes(const Credentials& credentials,
                                        std::span<const std::string_view> wanted) {
    const auto scope = credentials.find("scope");
    if (scope == credentials.end()) return {};
    // Most platforms separate granted scopes with spaces, some (Graph API, TikTok) with commas.
    std::string text = scope->second;
    std::replace(text.begin(), text.end(), ',', ' ');
    std::set<std::string> granted;
    std::istringstream words(text);
    for (std::string word; words >> word;) granted.insert(word);
    std::vector<std::string> missing;
    for (const auto& w : wanted)
        if (!granted.count(std::string(w))) missing.emplace_back(w);
    return missing;
}

}  // namespace squawk::social
