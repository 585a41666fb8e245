// Google's OAuth 2.0 for web server applications on the fake: the consent page
// (/o/oauth2/v2/auth) and the token endpoint (/token, on its own host at Google). A refresh token
// comes only with access_type=offline, and after the first such consent only again with
// prompt=consent; refresh tokens do not rotate and a refresh answers none. The client proves
// itself with client_id and client_secret in the form (or HTTP Basic); codes work once, for ten
// minutes, with their PKCE S256 verifier when the consent had a challenge.
#include "tests/fakes/platforms/oauth_checks.hpp"
#include "tests/fakes/platforms/youtube/youtube_fake.hpp"

#include <algorithm>
#include <utility>

namespace squawk::fakes::platforms::youtube {
namespace {

using nlohmann::json;

constexpr auto kCodeLifetime = std::chrono::minutes(10);
constexpr long long kAccessSeconds = 3599;

std::string field(const std::map<std::string, std::string>& fields, const std::string& name) {
    const auto found = fields.find(name);
    return found == fields.end() ? "" : found->second;
}

std::vector<std::string> scopes_of(std::string_view text) {
    std::vector<std::string> out;
    size_t at = 0;
    while (at < text.size()) {
        const auto end = std::min(text.find(' ', at), text.size());
        if (end > at) out.emplace_back(text.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

std::string joined(const std::vector<std::string>& scopes) {
    std::string out;
    for (const auto& scope : scopes) out += (out.empty() ? "" : " ") + scope;
    return out;
}

HttpAnswer oauth_error(int status, const std::string& error, const std::string& description) {
    return json_answer(status, {{"error", error}, {"error_description", description}});
}

HttpAnswer page(int status, const std::string& text) {
    HttpAnswer answer;
    answer.status = status;
    answer.content_type = "text/html";
    answer.body = "<html><body><p>" + text + "</p></body></html>";
    return answer;
}

HttpAnswer issue_tokens(const Grant& grant, bool with_refresh) {
    auto& s = state();
    const std::string access = "ya29." + random_text(60);
    s.access_tokens[access] = grant;
    json out = {{"access_token", access},
                {"expires_in", kAccessSeconds},
                {"scope", joined(grant.scopes)},
                {"token_type", "Bearer"}};
    if (with_refresh) {
        const std::string refresh = "1//" + random_text(60);
        s.refresh_tokens[refresh] = grant;
        out["refresh_token"] = refresh;
    }
    return json_answer(200, out);
}

// client_secret_post, or client_secret_basic (Google takes both). Nothing when it matches.
std::optional<HttpAnswer> unauthenticated_client(const HttpRequest& request,
                                                 const std::map<std::string, std::string>& form) {
    const auto& s = state();
    std::string id = field(form, "client_id");
    std::string secret = field(form, "client_secret");
    if (const auto auth = request.headers.find("authorization"); auth != request.headers.end())
        if (const auto basic = basic_credentials(auth->second)) {
            id = url_decode(basic->first);
            secret = url_decode(basic->second);
        }
    if (s.client_id.empty() || id != s.client_id || secret != s.client_secret)
        return oauth_error(401, "invalid_client", "Unauthorized");
    return std::nullopt;
}

HttpAnswer trade_code(const std::map<std::string, std::string>& form) {
    auto& s = state();
    const auto found = s.codes.find(field(form, "code"));
    if (found == s.codes.end()) return oauth_error(400, "invalid_grant", "Bad Request");
    const Code code = found->second;
    s.codes.erase(found);
    if (std::chrono::steady_clock::now() - code.issued > kCodeLifetime)
        return oauth_error(400, "invalid_grant", "Bad Request");
    if (field(form, "redirect_uri") != code.redirect_uri)
        return oauth_error(400, "redirect_uri_mismatch", "Bad Request");
    if (!code.challenge.empty() && s256_challenge(field(form, "code_verifier")) != code.challenge)
        return oauth_error(400, "invalid_grant", "Invalid code verifier.");
    return issue_tokens(code.grant, code.offline);
}

HttpAnswer trade_refresh(const std::map<std::string, std::string>& form) {
    const auto& tokens = state().refresh_tokens;
    const auto found = tokens.find(field(form, "refresh_token"));
    if (found == tokens.end())
        return oauth_error(400, "invalid_grant", "Token has been expired or revoked.");
    return issue_tokens(found->second, false);
}

}  // namespace

// The user's visit to the consent page, answered as next_consent says.
HttpAnswer consent(const HttpRequest& request) {
    auto& s = state();
    const auto param = [&](const char* name) { return url_decode(request.query(name)); };
    const std::string redirect_uri = param("redirect_uri");
    const std::string challenge = param("code_challenge");
    const auto asked = scopes_of(param("scope"));
    if (param("response_type") != "code" || s.client_id.empty() ||
        param("client_id") != s.client_id || redirect_uri.empty() || asked.empty() ||
        (!challenge.empty() && param("code_challenge_method") != "S256") || !s.next_consent)
        return page(400, "Error 400: invalid_request");
    const json choice = *std::exchange(s.next_consent, std::nullopt);
    const std::string user_id = choice.value("user_id", "");
    std::string location = redirect_uri + (redirect_uri.find('?') == std::string::npos ? "?" : "&");
    if (choice.value("deny", false)) {
        location += "error=access_denied&state=" + url_encode(param("state"));
    } else {
        std::vector<std::string> granted;
        for (const auto& scope : choice.value("scopes", json(asked)))
            if (std::find(asked.begin(), asked.end(), scope.get<std::string>()) != asked.end())
                granted.push_back(scope.get<std::string>());
        // Google asks for offline access once; later consents give no new refresh token unless
        // the user is prompted again.
        const bool offline = param("access_type") == "offline" &&
                             (!s.consented_offline[user_id] || param("prompt") == "consent");
        if (param("access_type") == "offline") s.consented_offline[user_id] = true;
        const std::string code = "4/" + random_text(40);
        s.codes[code] = {
            {user_id, granted}, redirect_uri, challenge, offline, std::chrono::steady_clock::now()};
        location += "state=" + url_encode(param("state")) + "&code=" + url_encode(code) +
                    "&scope=" + url_encode(joined(granted));
    }
    HttpAnswer answer = page(302, "Moved Temporarily");
    answer.headers = {{"Location", location}};
    return answer;
}

HttpAnswer token(const HttpRequest& request) {
    const auto form = form_decode(request.body);
    if (const auto refused = unauthenticated_client(request, form)) return *refused;
    const auto grant_type = field(form, "grant_type");
    if (grant_type == "authorization_code") return trade_code(form);
    if (grant_type == "refresh_token") return trade_refresh(form);
    return oauth_error(400, "unsupported_grant_type", "Invalid grant_type: " + grant_type);
}

}  // namespace squawk::fakes::platforms::youtube
