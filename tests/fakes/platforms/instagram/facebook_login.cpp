// The fake Facebook Login: the consent dialog (/v19.0/dialog/oauth), which answers as next_consent
// says, and the token endpoint (/v19.0/oauth/access_token) trading a code for a short-lived user
// token (checking the application's secret, the redirect_uri and, when the dialog had one, the
// PKCE challenge) and a token for a long-lived one (fb_exchange_token). Facebook's token answers
// name no permissions: /me/permissions tells them.
#include "tests/fakes/platforms/fake_clock.hpp"
#include "tests/fakes/platforms/instagram/instagram_state.hpp"
#include "tests/fakes/platforms/oauth_checks.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace squawk::fakes::platforms::instagram {
namespace {

constexpr long long kShortLivedSeconds = 5183;      // what Facebook answers: under two hours
constexpr long long kLongLivedSeconds = 5'184'000;  // 60 days
constexpr long long kCodeSeconds = 600;

std::vector<std::string> comma_list(const std::string& text) {
    std::vector<std::string> items;
    std::string item;
    for (const char c : text + ",") {
        if (c == ',' || c == ' ') {
            if (!item.empty()) items.push_back(item);
            item.clear();
        } else {
            item += c;
        }
    }
    return items;
}

HttpAnswer redirect(const std::string& to, const std::string& query) {
    HttpAnswer answer;
    answer.status = 302;
    answer.headers.emplace_back("Location",
                                to + (to.find('?') == std::string::npos ? "?" : "&") + query);
    answer.content_type = "text/html";
    return answer;
}

std::string issue_token(const std::string& user_id, const json& scopes, bool long_lived) {
    const std::string token = (long_lived ? "EAAGLong" : "EAAGShort") + new_id();
    state().tokens[token] = {
        {"user_id", user_id},
        {"scopes", scopes},
        {"long_lived", long_lived},
        {"expires_at", unix_now() + (long_lived ? kLongLivedSeconds : kShortLivedSeconds)},
        {"expired", false}};
    return token;
}

HttpAnswer token_answer(const std::string& token, long long expires_in) {
    return json_answer(
        200, {{"access_token", token}, {"token_type", "bearer"}, {"expires_in", expires_in}});
}

bool client_ok(const Params& params) {
    const auto& client = state().client;
    return !param(params, "client_secret").empty() &&
           param(params, "client_id") == client.value("client_id", "") &&
           param(params, "client_secret") == client.value("client_secret", "");
}

HttpAnswer code_for_token(const Params& params) {
    auto& s = state();
    const std::string code = param(params, "code");
    if (!s.codes.contains(code))
        return graph_error(400, "Invalid verification code format.", 100, 36008);
    json& grant = s.codes[code];
    if (grant["used"].get<bool>())
        return graph_error(400, "This authorization code has been used.", 100, 36009);
    if (grant["issued_at"].get<long long>() + kCodeSeconds < unix_now())
        return graph_error(400, "This authorization code has expired.", 100, 36007);
    if (grant["redirect_uri"] != param(params, "redirect_uri"))
        return graph_error(400,
                           "Error validating verification code. Please make sure your "
                           "redirect_uri is identical to the one you used in the OAuth dialog "
                           "request",
                           100, 36008);
    const std::string challenge = grant["code_challenge"];
    if (!challenge.empty() && s256_challenge(param(params, "code_verifier")) != challenge)
        return graph_error(400, "Invalid code verifier", 100, 36008);
    grant["used"] = true;
    return token_answer(issue_token(grant["user_id"], grant["scopes"], false), kShortLivedSeconds);
}

// fb_exchange_token: any token Facebook still takes, short- or long-lived, for a new long-lived
// one.
HttpAnswer exchange(const Params& params) {
    const auto who = caller_of(param(params, "fb_exchange_token"));
    if (const auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
    const auto& caller = std::get<Caller>(who);
    return token_answer(issue_token(caller.user_id, caller.scopes, true), kLongLivedSeconds);
}

}  // namespace

HttpAnswer consent_dialog(const Params& params) {
    auto& s = state();
    if (s.client.value("client_id", "").empty() ||
        param(params, "client_id") != s.client.value("client_id", ""))
        return graph_error(400, "Invalid App ID", 101);
    if (param(params, "response_type") != "code")
        return invalid_parameter("response_type must be code");
    const std::string redirect_uri = param(params, "redirect_uri");
    if (!redirect_uri.starts_with("https://"))
        return invalid_parameter("URL blocked: redirect_uri is not an allowed OAuth redirect URI");
    const auto asked = comma_list(param(params, "scope"));
    if (std::find(asked.begin(), asked.end(), "instagram_basic") == asked.end())
        return invalid_parameter("The scope instagram_basic is required");
    const std::string challenge = param(params, "code_challenge");
    if (!challenge.empty() && param(params, "code_challenge_method") != "S256")
        return invalid_parameter("code_challenge_method must be S256");
    if (s.next_consent.is_null())
        return invalid_parameter("No user is at the consent page (next_consent is not set)");
    const json consent = s.next_consent;
    s.next_consent = nullptr;
    const std::string state_part =
        params.contains("state") ? "&state=" + url_encode(param(params, "state")) : "";
    if (consent.value("deny", false))
        return redirect(redirect_uri,
                        "error=access_denied&error_code=200&error_reason=user_denied"
                        "&error_description=" +
                            url_encode("Permissions error") + state_part);
    const std::string code = "AQD" + new_id() + "f" + std::to_string(std::rand() % 100000);
    s.codes[code] = {{"user_id", consent.at("user_id").get<std::string>()},
                     {"redirect_uri", redirect_uri},
                     {"scopes", consent.contains("scopes") ? consent["scopes"] : json(asked)},
                     {"code_challenge", challenge},
                     {"issued_at", unix_now()},
                     {"used", false}};
    return redirect(redirect_uri, "code=" + code + state_part);
}

HttpAnswer access_token(const Params& params) {
    if (!client_ok(params)) return graph_error(400, "Error validating client secret.", 1);
    if (param(params, "grant_type") == "fb_exchange_token") return exchange(params);
    return code_for_token(params);
}

std::variant<Caller, HttpAnswer> caller_of(const std::string& token) {
    auto& tokens = state().tokens;
    if (token.empty() || !tokens.contains(token))
        return graph_error(400, "Invalid OAuth access token - Cannot parse access token", 190);
    const json& record = tokens[token];
    if (record["expired"].get<bool>() || record["expires_at"].get<long long>() < unix_now())
        return graph_error(400,
                           "Error validating access token: Session has expired. The current "
                           "time is " +
                               utc_now(0, "+0000") + ".",
                           190, 463);
    return Caller{record["user_id"].get<std::string>(), record["scopes"]};
}

bool Caller::has(const std::string& scope) const {
    return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
}

}  // namespace squawk::fakes::platforms::instagram
