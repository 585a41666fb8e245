// What the parts of the fake LinkedIn share: its state (the registered application, members,
// grants, media, posts and comments), LinkedIn's error body and the bearer check every REST call
// makes.
#pragma once

#include "tests/fakes/platforms/fake_clock.hpp"
#include "tests/fakes/platforms/fake_platform.hpp"

#include <chrono>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace squawk::fakes::platforms::linkedin {

using nlohmann::json;

// What a token or a code grants: the member (their OpenID sub) and the scopes.
struct Grant {
    std::string member;
    std::vector<std::string> scopes;
};

struct Code {
    Grant grant;
    std::string redirect_uri;
    std::string challenge;  // empty when the consent carried no PKCE challenge
    std::chrono::steady_clock::time_point issued;
};

// What the fake counts on each post (set by the control "social"), which the API shows only
// through socialActions and the share statistics.
inline constexpr const char* kPostCounts[] = {
    "likes", "comments", "impressions", "unique_impressions", "reshares", "clicks"};

struct State {
    std::string client_id;
    std::string client_secret;
    json members = json::object();  // sub -> {sub, name, followers}
    std::optional<json> next_consent;
    std::map<std::string, Code> codes;
    std::map<std::string, Grant> access_tokens;
    std::map<std::string, Grant> expired_tokens;
    std::map<std::string, Grant> refresh_tokens;
    // urn -> {owner, kind (image, document), uploaded, bytes, status}
    json single_uploads = json::object();
    // urn -> {owner, bytes, parts: [{first, last, etag}], signature, upload_token, status, fails}
    json videos = json::object();
    bool fail_next_processing = false;
    json posts = json::array();  // oldest first, each with its kPostCounts
    // oldest first: {id, activity, actor, text, parent (a comment URN or ""), created, liked_by}
    json comments = json::array();
    // id -> {id, name, followers, roles: {member sub -> ADMINISTRATOR, ANALYST, ...}}
    json organizations = json::object();
    // "METHOD /path" -> the Retry-After its next call answers 429 with
    std::map<std::string, long long> throttled;
};

State& state();

// {status, serviceErrorCode, code, message}, as the REST API words every error.
HttpAnswer error(int status, int service_code, const std::string& code, const std::string& message);
HttpAnswer unprocessable(const std::string& message);

// The grant of the request's bearer token, or LinkedIn's 401; a scope of `needed` it lacks is a
// 403 naming the resource (`resource`, as LinkedIn names its endpoints).
std::variant<Grant, HttpAnswer> authorized(const HttpRequest& request,
                                           std::initializer_list<std::string_view> needed,
                                           const std::string& resource);

// `handler(grant)` with the grant of the request's bearer token when it holds `needed`; the refusal
// of authorized() otherwise.
template <typename Handler>
HttpAnswer with_grant(const HttpRequest& request, std::initializer_list<std::string_view> needed,
                      const std::string& resource, Handler&& handler) {
    auto who = authorized(request, needed, resource);
    if (auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
    return handler(std::get<Grant>(who));
}

// Whether `grant` may act as `urn` (author posts, own media): its member's own URN, or an
// organization where the member is an ADMINISTRATOR and the grant holds w_organization_social.
bool acts_as(const std::string& urn, const Grant& grant);

bool has(const std::vector<std::string>& list, std::string_view item);
std::string random_text(size_t length);
std::string person_urn(const std::string& member);
// The request's own origin (http://127.0.0.1:<port>), for upload addresses handed out.
std::string origin(const HttpRequest& request);

// The parts of the API (oauth.cpp, media.cpp, posts.cpp); `path` is under /linkedin.
HttpAnswer consent(const HttpRequest& request);
HttpAnswer token(const HttpRequest& request);
HttpAnswer userinfo(const HttpRequest& request);
std::optional<HttpAnswer> serve_media(const HttpRequest& request, const std::string& path);
std::optional<HttpAnswer> serve_posts(const HttpRequest& request, const std::string& path);
// GET /rest/organizationAcls (organizations.cpp).
std::optional<HttpAnswer> serve_organizations(const HttpRequest& request, const std::string& path);
// GET /rest/organizationalEntityShareStatistics (share_statistics.cpp).
std::optional<HttpAnswer> serve_share_statistics(const HttpRequest& request,
                                                 const std::string& path);
// /rest/socialActions/{target}/comments and /rest/reactions (comments.cpp).
std::optional<HttpAnswer> serve_comments(const HttpRequest& request, const std::string& path);
// A member's comment on the post or comment `target` as if made in the LinkedIn app; returns it
// as the API shows it (an empty object when `target` is not there).
json store_comment_by(const std::string& target, const std::string& member,
                      const std::string& text);
// The stored post `urn` (with the counts the fake keeps on it), or nothing.
json* find_post(const std::string& urn);
// A member's post as if made in the LinkedIn app; returns it.
json store_native_post(const std::string& member, const std::string& text);
// Whether `urn` is a video, image or document owned by `owner` (a person or organization URN)
// ready to be posted; its kind.
std::optional<std::string> ready_media(const std::string& urn, const std::string& owner);

}  // namespace squawk::fakes::platforms::linkedin
