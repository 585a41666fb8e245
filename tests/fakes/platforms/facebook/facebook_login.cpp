// The fake Facebook Login: the consent page (/v19.0/dialog/oauth, where the user grants
// permissions and chooses Pages), the token endpoint (/v19.0/oauth/access_token: a code for a
// short-lived user token, fb_exchange_token for a long-lived one) and what a user token reads:
// /me/permissions and /me/accounts with each granted Page's own token.
#include "tests/fakes/platforms/facebook/facebook_fake.hpp"
#include "tests/fakes/platforms/fake_clock.hpp"

#include <algorithm>
#include <cstdlib>

namespace squawk::fakes::platforms::facebook {
namespace {

using nlohmann::json;

constexpr long long kShortLivedSeconds = 2 * 3600;
constexpr long long kLongLivedSeconds = 60LL * 24 * 3600;
constexpr long long kCodeSeconds = 600;

std::string issue_token(const std::string& kind, const json& grant, const std::string& page_id) {
    const std::string token = "EAAB" + kind + new_id();
    json record = {{"kind", kind},
                   {"user_id", grant["user_id"]},
                   {"scopes", grant["scopes"]},
                   {"pages", grant["pages"]},
                   {"expired", false}};
    // A Page token read with a long-lived user token does not expire.
    if (kind == "page")
        record["page_id"] = page_id;
    else
        record["expires_at"] =
            unix_now() + (kind == "short" ? kShortLivedSeconds : kLongLivedSeconds);
    state().tokens[token] = record;
    return token;
}

HttpAnswer redirect(const std::string& to, const std::string& query) {
    HttpAnswer answer;
    answer.status = 302;
    answer.headers.emplace_back("Location",
                                to + (to.find('?') == std::string::npos ? "?" : "&") + query);
    answer.content_type = "text/html";
    return answer;
}

bool client_matches(const Params& params) {
    const auto& client = state().client;
    return !client.value("client_id", "").empty() &&
           param(params, "client_id") == client.value("client_id", "") &&
           param(params, "client_secret") == client.value("client_secret", "");
}

// GET /v19.0/dialog/oauth: the user consents (or not) as next_consent says; the Pages granted are
// the user's unless next_consent names some.
HttpAnswer consent(const Params& params) {
    auto& s = state();
    if (s.client.value("client_id", "").empty() ||
        param(params, "client_id") != s.client.value("client_id", ""))
        return graph_error(400, "Invalid App ID", 101);
    if (param(params, "response_type") != "code")
        return invalid_parameter("response_type must be code");
    const std::string redirect_uri = param(params, "redirect_uri");
    // Facebook takes http for localhost in development mode; the stacks under test use it.
    if (!redirect_uri.starts_with("https://") && !redirect_uri.starts_with("http://"))
        return invalid_parameter("URL blocked: the redirect URI is not whitelisted");
    if (s.next_consent.is_null())
        return invalid_parameter("No user is at the consent page (next_consent is not set)");
    const json how = s.next_consent;
    s.next_consent = nullptr;
    const std::string state_part =
        params.contains("state") ? "&state=" + url_encode(param(params, "state")) : "";
    if (how.value("deny", false))
        return redirect(redirect_uri,
                        "error=access_denied&error_code=200&error_reason=user_denied&"
                        "error_description=" +
                            url_encode("Permissions error") + state_part);
    const std::string user_id = how.at("user_id");
    const json pages =
        how.contains("pages") ? how["pages"] : s.users[user_id].value("pages", json::array());
    const std::string code = "AQD" + new_id() + "c" + std::to_string(std::rand() % 100000);
    s.codes[code] = {{"user_id", user_id},
                     {"redirect_uri", redirect_uri},
                     {"scopes", how.value("scopes", json(split_list(param(params, "scope"))))},
                     {"pages", pages},
                     {"issued_at", unix_now()},
                     {"used", false}};
    return redirect(redirect_uri, "code=" + code + state_part);
}

HttpAnswer token_answer(const std::string& token, long long expires_in) {
    return json_answer(
        200, {{"access_token", token}, {"token_type", "bearer"}, {"expires_in", expires_in}});
}

// GET /v19.0/oauth/access_token: a code (with the redirect_uri it was issued for) for a
// short-lived user token, or (fb_exchange_token) a short-lived token for a long-lived one.
HttpAnswer access_token(const Params& params) {
    auto& s = state();
    if (!client_matches(params)) return graph_error(400, "Error validating client secret.", 1);
    if (param(params, "grant_type") == "fb_exchange_token") {
        const std::string old = param(params, "fb_exchange_token");
        if (!s.tokens.contains(old) || s.tokens[old]["expired"].get<bool>())
            return graph_error(400, "Invalid OAuth access token - Cannot parse access token", 190);
        const json& record = s.tokens[old];
        if (record["kind"] == "page")
            return invalid_parameter("fb_exchange_token must be a user access token");
        return token_answer(issue_token("user", record, ""), kLongLivedSeconds);
    }
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
    grant["used"] = true;
    return token_answer(issue_token("short", grant, ""), kShortLivedSeconds);
}

// GET /v19.0/me/permissions with a user token: every permission asked, granted or declined.
HttpAnswer permissions(const Caller& caller) {
    json data = json::array();
    for (const auto& scope : caller.record["scopes"])
        data.push_back({{"permission", scope}, {"status", "granted"}});
    return json_answer(200, {{"data", data}});
}

// GET /v19.0/me/accounts with a user token: the granted Pages the user still manages, each with
// a Page token (pages_show_list needed).
HttpAnswer accounts(const Caller& caller, const Params& params) {
    auto& s = state();
    if (!caller.has("pages_show_list")) return missing_permission("pages_show_list");
    const json user = s.users.value(caller.record["user_id"].get<std::string>(), json::object());
    const json managed = user.value("pages", json::array());
    json data = json::array();
    for (const auto& id : caller.record["pages"]) {
        if (std::find(managed.begin(), managed.end(), id) == managed.end()) continue;
        const json& page = s.pages[id.get<std::string>()];
        json entry = {{"id", page["id"]}, {"name", page["name"]}};
        const auto fields = split_list(param(params, "fields"));
        if (std::find(fields.begin(), fields.end(), "access_token") != fields.end())
            entry["access_token"] = issue_token("page", caller.record, id.get<std::string>());
        if (std::find(fields.begin(), fields.end(), "tasks") != fields.end())
            entry["tasks"] = {"ADVERTISE", "ANALYZE", "CREATE_CONTENT", "MODERATE", "MANAGE"};
        data.push_back(entry);
    }
    return json_answer(200, {{"data", data}});
}

}  // namespace

std::optional<HttpAnswer> serve_login(const HttpRequest& request, const std::string& path,
                                      const Params& params) {
    if (path == "/v19.0/dialog/oauth" && request.method == "GET") return consent(params);
    if (path == "/v19.0/oauth/access_token" && request.method == "GET") return access_token(params);
    if (path != "/v19.0/me/permissions" && path != "/v19.0/me/accounts") return std::nullopt;
    const auto who = authenticated(request, params);
    if (const auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
    const auto& caller = std::get<Caller>(who);
    if (caller.page_token())
        return graph_error(400,
                           "(#100) Tried accessing nonexisting field (accounts) on node type "
                           "(Page)",
                           100);
    return path.ends_with("permissions") ? permissions(caller) : accounts(caller, params);
}

}  // namespace squawk::fakes::platforms::facebook
