// The fake LinkedIn: OAuth 2.0 (the consent page /oauth/v2/authorization and the token endpoint
// /oauth/v2/accessToken, which LinkedIn keeps on www.linkedin.com), the OpenID userinfo (/v2), and
// the versioned REST API (/rest/...): posts, images, videos in parts, documents, social actions,
// comments and reactions, the member's follower count and organization access control (posts as
// a page). Every REST call must carry LinkedIn-Version (YYYYMM) and X-Restli-Protocol-Version
// 2.0.0; errors are {status, serviceErrorCode, code, message}; throttled calls answer 429 with
// Retry-After.
#include "tests/fakes/platforms/linkedin/linkedin_fake.hpp"

#include <algorithm>
#include <random>

namespace squawk::fakes::platforms::linkedin {

State& state() {
    return fake_state<State>();
}

HttpAnswer error(int status, int service_code, const std::string& code,
                 const std::string& message) {
    return json_answer(status, {{"status", status},
                                {"serviceErrorCode", service_code},
                                {"code", code},
                                {"message", message}});
}

HttpAnswer unprocessable(const std::string& message) {
    return error(422, 100, "UNPROCESSABLE_ENTITY", message);
}

bool has(const std::vector<std::string>& list, std::string_view item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

std::string random_text(size_t length) {
    static constexpr std::string_view kAlphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    static std::mt19937_64 engine{std::random_device{}()};
    std::uniform_int_distribution<size_t> pick(0, kAlphabet.size() - 1);
    std::string out;
    for (size_t i = 0; i < length; ++i) out += kAlphabet[pick(engine)];
    return out;
}

std::string person_urn(const std::string& member) {
    return "urn:li:person:" + member;
}

bool acts_as(const std::string& urn, const Grant& grant) {
    if (urn == person_urn(grant.member)) return true;
    constexpr std::string_view kOrganization = "urn:li:organization:";
    if (!urn.starts_with(kOrganization) || !has(grant.scopes, "w_organization_social"))
        return false;
    const auto& organizations = state().organizations;
    const auto id = urn.substr(kOrganization.size());
    return organizations.contains(id) &&
           organizations[id]["roles"].value(grant.member, "") == "ADMINISTRATOR";
}

std::string origin(const HttpRequest& request) {
    const auto host = request.headers.find("host");
    return "http://" + (host == request.headers.end() ? std::string("127.0.0.1") : host->second);
}

std::variant<Grant, HttpAnswer> authorized(const HttpRequest& request,
                                           std::initializer_list<std::string_view> needed,
                                           const std::string& resource) {
    const auto& s = state();
    const auto auth = request.headers.find("authorization");
    const std::string token = auth == request.headers.end() || !auth->second.starts_with("Bearer ")
                                  ? ""
                                  : auth->second.substr(7);
    if (s.expired_tokens.count(token))
        return error(401, 65601, "EXPIRED_ACCESS_TOKEN",
                     "The token used in the request has expired");
    const auto found = s.access_tokens.find(token);
    if (found == s.access_tokens.end())
        return error(401, 65600, "INVALID_ACCESS_TOKEN", "Invalid access token");
    for (const auto scope : needed)
        if (!has(found->second.scopes, scope))
            return error(403, 100, "ACCESS_DENIED",
                         "Not enough permissions to access: " + resource);
    return found->second;
}

namespace {

// LinkedIn-Version names a month (YYYYMM) of the versioned API; without it, or without Rest.li
// 2.0.0 (whose URN encoding the paths use), LinkedIn takes no /rest call.
std::optional<HttpAnswer> unversioned(const HttpRequest& request) {
    const auto version = request.headers.find("linkedin-version");
    if (version == request.headers.end())
        return error(400, 0, "VERSION_MISSING",
                     "A version must be present. Please specify a version by adding the "
                     "LinkedIn-Version header.");
    const std::string& v = version->second;
    const bool digits = v.size() == 6 && std::all_of(v.begin(), v.end(),
                                                     [](char c) { return c >= '0' && c <= '9'; });
    const int month = digits ? std::stoi(v.substr(4)) : 0;
    if (!digits || month < 1 || month > 12 || v < "202205")
        return error(426, 0, "NONEXISTENT_VERSION", "Requested version " + v + " is not active");
    const auto protocol = request.headers.find("x-restli-protocol-version");
    if (protocol == request.headers.end() || protocol->second != "2.0.0")
        return error(400, 0, "ILLEGAL_ARGUMENT",
                     "This resource is served with Rest.li protocol 2.0.0 only "
                     "(X-Restli-Protocol-Version)");
    return std::nullopt;
}

HttpAnswer serve(const HttpRequest& request, const std::string& path) {
    auto& s = state();
    if (const auto limited = s.throttled.find(request.method + " " + path);
        limited != s.throttled.end()) {
        auto answer = error(429, 101, "TOO_MANY_REQUESTS",
                            "Resource level throttle APPLICATION DAY limit for calls to this "
                            "resource is reached.");
        answer.headers = {{"Retry-After", std::to_string(limited->second)}};
        s.throttled.erase(limited);
        return answer;
    }
    if (request.method == "GET" && path == "/oauth/v2/authorization") return consent(request);
    if (request.method == "POST" && path == "/oauth/v2/accessToken") return token(request);
    if (request.method == "GET" && path == "/v2/userinfo") return userinfo(request);
    if (path.starts_with("/rest/"))
        if (const auto refused = unversioned(request)) return *refused;
    if (auto answer = serve_media(request, path)) return *answer;
    if (auto answer = serve_comments(request, path)) return *answer;
    if (auto answer = serve_posts(request, path)) return *answer;
    if (auto answer = serve_organizations(request, path)) return *answer;
    if (auto answer = serve_share_statistics(request, path)) return *answer;
    return error(404, 0, "NOT_FOUND", "No virtual resource found");
}

// oauth_client {client_id, client_secret}: the registered application. user {id, name,
// followers?}: a member (id is their OpenID sub). next_consent {user_id, scopes?, deny?}: how the
// next visit to the consent page answers. issue_token {user_id, scopes}: a token as the developer
// portal's token generator issues one (for permissions granted to select applications). expire
// {user_id}: the member's access tokens expire; their refresh tokens still work. throttle
// {method, path, retry_after}: the next such call answers 429. fail_processing {}: the next
// finalized video fails processing. post {user_id, text}: a post made in the LinkedIn app.
// comment {urn, user_id, text}: a member's comment on a post or a reply to a comment (urn).
// social {urn, and any of kPostCounts}: a post's counts. organization {id, name, roles: {member:
// role}}: an organization page and the roles members hold on it (all APPROVED).
std::optional<HttpAnswer> control(const std::string& action, const json& body) {
    auto& s = state();
    if (action == "oauth_client") {
        s.client_id = body.at("client_id").get<std::string>();
        s.client_secret = body.at("client_secret").get<std::string>();
    } else if (action == "user") {
        const auto id = body.at("id").get<std::string>();
        s.members[id] = {
            {"sub", id}, {"name", body.at("name")}, {"followers", body.value("followers", 0LL)}};
    } else if (action == "next_consent") {
        s.next_consent = body;
    } else if (action == "issue_token") {
        const std::string access = random_text(64);
        s.access_tokens[access] = {body.at("user_id").get<std::string>(),
                                   body.at("scopes").get<std::vector<std::string>>()};
        return json_answer(200, {{"access_token", access}});
    } else if (action == "expire") {
        const auto member = body.at("user_id").get<std::string>();
        for (auto it = s.access_tokens.begin(); it != s.access_tokens.end();) {
            if (it->second.member != member) {
                ++it;
                continue;
            }
            s.expired_tokens.insert(*it);
            it = s.access_tokens.erase(it);
        }
    } else if (action == "throttle") {
        s.throttled[body.at("method").get<std::string>() + " " +
                    body.at("path").get<std::string>()] = body.value("retry_after", 60LL);
    } else if (action == "fail_processing") {
        s.fail_next_processing = true;
    } else if (action == "post") {
        return json_answer(200, store_native_post(body.at("user_id").get<std::string>(),
                                                  body.at("text").get<std::string>()));
    } else if (action == "comment") {
        return json_answer(200, store_comment_by(body.at("urn").get<std::string>(),
                                                 body.at("user_id").get<std::string>(),
                                                 body.at("text").get<std::string>()));
    } else if (action == "organization") {
        const auto id = body.at("id").get<std::string>();
        s.organizations[id] = {
            {"id", id}, {"name", body.at("name")}, {"roles", body.value("roles", json::object())}};
    } else if (action == "social") {
        for (auto& post : s.posts)
            if (post["id"] == body.at("urn"))
                for (const char* count : kPostCounts) post[count] = body.value(count, 0LL);
    } else {
        return std::nullopt;
    }
    return json_answer(200, json::object());
}

void revoke(const std::string& token) {
    state().access_tokens.erase(token);
    state().refresh_tokens.erase(token);
}

json messages() {
    return state().posts;
}

// The registered application stays: the test support registers it once, when the fake starts.
void reset() {
    State fresh;
    fresh.client_id = state().client_id;
    fresh.client_secret = state().client_secret;
    state() = std::move(fresh);
}

constexpr FakePlatform kFake{"linkedin", &serve, &control, &revoke, &messages, &reset};
const FakeRegistration kRegistration(kFake);

}  // namespace
}  // namespace squawk::fakes::platforms::linkedin
