// LinkedIn's OAuth 2.0 authorization code flow as the fake serves it: the consent page, the token
// endpoint (client credentials among the form fields, codes good once for 30 minutes, a PKCE
// verifier checked when the consent carried a challenge, refresh tokens that stay the same for
// their year) and the OpenID userinfo.
#include "tests/fakes/platforms/linkedin/linkedin_fake.hpp"

#include "tests/fakes/platforms/oauth_checks.hpp"

namespace squawk::fakes::platforms::linkedin {
namespace {

constexpr auto kCodeLifetime = std::chrono::minutes(30);
constexpr long long kAccessSeconds = 60LL * 24 * 3600;
constexpr long long kRefreshSeconds = 365LL * 24 * 3600;

std::string field(const std::map<std::string, std::string>& fields, const std::string& name) {
    const auto found = fields.find(name);
    return found == fields.end() ? "" : found->second;
}

std::vector<std::string> split(std::string_view text, char separator) {
    std::vector<std::string> out;
    size_t at = 0;
    while (at < text.size()) {
        const auto end = std::min(text.find(separator, at), text.size());
        if (end > at) out.emplace_back(text.substr(at, end - at));
        at = end + 1;
    }
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

// LinkedIn answers the granted scopes comma-separated.
HttpAnswer issue(const Grant& grant, const std::string& refresh) {
    auto& s = state();
    const std::string access = random_text(64);
    s.access_tokens[access] = grant;
    std::string scope;
    for (const auto& granted : grant.scopes) scope += (scope.empty() ? "" : ",") + granted;
    return json_answer(200, {{"access_token", access},
                             {"expires_in", kAccessSeconds},
                             {"refresh_token", refresh},
                             {"refresh_token_expires_in", kRefreshSeconds},
                             {"scope", scope},
                             {"token_type", "Bearer"}});
}

const std::string kBadCode =
    "Unable to retrieve access token: appid/redirect uri/code verifier does not match "
    "authorization code. Or authorization code expired. Or external member binding exists";

HttpAnswer trade_code(const std::map<std::string, std::string>& form) {
    auto& s = state();
    const auto found = s.codes.find(field(form, "code"));
    if (found == s.codes.end()) return oauth_error(400, "invalid_request", kBadCode);
    const Code code = found->second;
    s.codes.erase(found);
    if (std::chrono::steady_clock::now() - code.issued > kCodeLifetime ||
        field(form, "redirect_uri") != code.redirect_uri ||
        (!code.challenge.empty() && s256_challenge(field(form, "code_verifier")) != code.challenge))
        return oauth_error(400, "invalid_request", kBadCode);
    const std::string refresh = random_text(64);
    s.refresh_tokens[refresh] = code.grant;
    return issue(code.grant, refresh);
}

// The refresh token stays the one issued with the grant, its expiry unchanged.
HttpAnswer trade_refresh(const std::map<std::string, std::string>& form) {
    const auto refresh = field(form, "refresh_token");
    const auto found = state().refresh_tokens.find(refresh);
    if (found == state().refresh_tokens.end())
        return oauth_error(400, "invalid_request",
                           "The provided authorization grant or refresh token is invalid, "
                           "expired or revoked.");
    return issue(found->second, refresh);
}

}  // namespace

// The member's visit to the consent page, answered as next_consent says.
HttpAnswer consent(const HttpRequest& request) {
    auto& s = state();
    const auto param = [&](const char* name) { return url_decode(request.query(name)); };
    const std::string redirect_uri = param("redirect_uri");
    const std::string challenge = param("code_challenge");
    if (param("response_type") != "code" || s.client_id.empty() ||
        param("client_id") != s.client_id || redirect_uri.empty() || param("state").empty() ||
        (!challenge.empty() && param("code_challenge_method") != "S256") || !s.next_consent ||
        !s.members.contains(s.next_consent->value("user_id", "")))
        return page(400,
                    "Bummer, something went wrong. The redirect_uri does not match the "
                    "registered value or the request is not valid.");
    const json choice = *std::exchange(s.next_consent, std::nullopt);
    std::string location = redirect_uri + (redirect_uri.find('?') == std::string::npos ? "?" : "&");
    if (choice.value("deny", false)) {
        location += "error=user_cancelled_authorize&error_description=" +
                    url_encode("The user cancelled the authorization") +
                    "&state=" + url_encode(param("state"));
    } else {
        const auto asked = split(param("scope"), ' ');
        std::vector<std::string> granted;
        for (const auto& scope : choice.value("scopes", json(asked)))
            if (has(asked, scope.get<std::string>())) granted.push_back(scope.get<std::string>());
        const std::string code = random_text(80);
        s.codes[code] = {{choice.at("user_id").get<std::string>(), granted},
                         redirect_uri,
                         challenge,
                         std::chrono::steady_clock::now()};
        location += "code=" + url_encode(code) + "&state=" + url_encode(param("state"));
    }
    HttpAnswer answer = page(303, "Redirecting");
    answer.headers = {{"Location", location}};
    return answer;
}

// The application names itself with client_id and client_secret in the form.
HttpAnswer token(const HttpRequest& request) {
    const auto& s = state();
    const auto form = form_decode(request.body);
    if (s.client_id.empty() || field(form, "client_id") != s.client_id ||
        field(form, "client_secret") != s.client_secret)
        return oauth_error(401, "invalid_client", "Client authentication failed");
    const auto grant_type = field(form, "grant_type");
    if (grant_type == "authorization_code") return trade_code(form);
    if (grant_type == "refresh_token") return trade_refresh(form);
    return oauth_error(400, "unsupported_grant_type", "The grant type is not supported");
}

HttpAnswer userinfo(const HttpRequest& request) {
    auto who = authorized(request, {"openid", "profile"}, "userinfo.GET.NO_VERSION");
    if (auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
    const json& member = state().members[std::get<Grant>(who).member];
    const std::string name = member["name"];
    const auto space = name.find(' ');
    return json_answer(200,
                       {{"sub", member["sub"]},
                        {"name", name},
                        {"given_name", name.substr(0, space)},
                        {"family_name", space == std::string::npos ? "" : name.substr(space + 1)},
                        {"locale", {{"country", "US"}, {"language", "en"}}}});
}

}  // namespace squawk::fakes::platforms::linkedin
