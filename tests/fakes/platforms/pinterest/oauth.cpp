// The fake Pinterest's OAuth 2.0 authorization code flow: the consent page (/oauth/, scopes
// comma-separated, no PKCE) and the token endpoint (/v5/oauth/token) for an application
// authenticating with HTTP Basic. Codes work once and for ten minutes; access tokens last 30
// days; a continuous refresh token (60 days) is replaced by every refresh, while a legacy one
// (without continuous_refresh) stays and is not renewed.
#include "tests/fakes/platforms/oauth_checks.hpp"
#include "tests/fakes/platforms/pinterest/pinterest_fake.hpp"

#include "tests/fakes/platforms/fake_clock.hpp"

#include <utility>

namespace squawk::fakes::platforms::pinterest {
namespace {

using nlohmann::json;

constexpr auto kCodeLifetime = std::chrono::minutes(10);
constexpr long long kAccessSeconds = 30LL * 24 * 3600;
constexpr long long kRefreshSeconds = 60LL * 24 * 3600;

std::string field(const std::map<std::string, std::string>& fields, const std::string& name) {
    const auto found = fields.find(name);
    return found == fields.end() ? "" : found->second;
}

HttpAnswer page(int status, const std::string& text) {
    HttpAnswer answer;
    answer.status = status;
    answer.content_type = "text/html";
    answer.body = "<html><body><p>" + text + "</p></body></html>";
    return answer;
}

HttpAnswer issue_tokens(const Grant& grant, const char* response_type, bool new_refresh_token) {
    auto& s = state();
    const std::string access = "pina_" + random_text(48);
    s.access_tokens[access] = grant;
    std::string scope;
    for (const auto& granted : grant.scopes) scope += (scope.empty() ? "" : ",") + granted;
    json out = {{"access_token", access},
                {"token_type", "bearer"},
                {"expires_in", kAccessSeconds},
                {"scope", scope},
                {"response_type", response_type}};
    if (new_refresh_token) {
        const std::string refresh = "pinr_" + random_text(48);
        s.refresh_tokens[refresh] = grant;
        out["refresh_token"] = refresh;
        out["refresh_token_expires_in"] = kRefreshSeconds;
        out["refresh_token_expires_at"] = unix_now() + kRefreshSeconds;
    }
    return json_answer(200, out);
}

HttpAnswer trade_code(const std::map<std::string, std::string>& form) {
    auto& s = state();
    const auto found = s.codes.find(field(form, "code"));
    if (found == s.codes.end()) return error(400, 1, "Invalid authorization code.");
    Code code = found->second;
    s.codes.erase(found);
    if (std::chrono::steady_clock::now() - code.issued > kCodeLifetime)
        return error(400, 1, "Invalid authorization code.");
    if (field(form, "redirect_uri") != code.redirect_uri)
        return error(400, 1, "redirect_uri does not match the one of the authorization.");
    code.grant.continuous_refresh = field(form, "continuous_refresh") == "true";
    return issue_tokens(code.grant, "authorization_code", true);
}

// A continuous refresh token is replaced; a legacy one keeps working and gets no successor.
HttpAnswer trade_refresh(const std::map<std::string, std::string>& form) {
    auto& s = state();
    const auto found = s.refresh_tokens.find(field(form, "refresh_token"));
    if (found == s.refresh_tokens.end()) return error(400, 1, "Invalid refresh token.");
    const Grant grant = found->second;
    if (grant.continuous_refresh) s.refresh_tokens.erase(found);
    return issue_tokens(grant, "refresh_token", grant.continuous_refresh);
}

}  // namespace

HttpAnswer consent(const HttpRequest& request) {
    auto& s = state();
    const auto param = [&](const char* name) { return url_decode(request.query(name)); };
    const std::string redirect_uri = param("redirect_uri");
    if (param("response_type") != "code" || s.client_id.empty() ||
        param("client_id") != s.client_id || redirect_uri.empty() || !s.next_consent ||
        !s.users.contains(s.next_consent->value("user_id", "")))
        return page(400, "Something went wrong. Please try again.");
    const json choice = *std::exchange(s.next_consent, std::nullopt);
    std::string location = redirect_uri + (redirect_uri.find('?') == std::string::npos ? "?" : "&");
    if (choice.value("deny", false)) {
        location += "error=access_denied&state=" + url_encode(param("state"));
    } else {
        const auto asked = split(param("scope"), ',');
        std::vector<std::string> granted;
        for (const auto& scope : choice.value("scopes", json(asked)))
            if (has(asked, scope.get<std::string>())) granted.push_back(scope.get<std::string>());
        const std::string code = random_text(40);
        s.codes[code] = {{choice.at("user_id").get<std::string>(), granted, false},
                         redirect_uri,
                         std::chrono::steady_clock::now()};
        location += "code=" + url_encode(code) + "&state=" + url_encode(param("state"));
    }
    HttpAnswer answer = page(302, "Redirecting");
    answer.headers = {{"Location", location}};
    return answer;
}

HttpAnswer token(const HttpRequest& request) {
    const auto& s = state();
    const auto auth = request.headers.find("authorization");
    const auto client =
        auth == request.headers.end() ? std::nullopt : basic_credentials(auth->second);
    if (!client || s.client_id.empty() || url_decode(client->first) != s.client_id ||
        url_decode(client->second) != s.client_secret)
        return error(401, 2, "Authentication failed.");
    const auto type = request.headers.find("content-type");
    if (type == request.headers.end() ||
        !type->second.starts_with("application/x-www-form-urlencoded"))
        return error(400, 1, "The body must be application/x-www-form-urlencoded.");
    const auto form = form_decode(request.body);
    const auto grant_type = field(form, "grant_type");
    if (grant_type == "authorization_code") return trade_code(form);
    if (grant_type == "refresh_token") return trade_refresh(form);
    return error(400, 1, "Invalid grant_type.");
}

}  // namespace squawk::fakes::platforms::pinterest
