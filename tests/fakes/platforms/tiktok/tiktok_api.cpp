// The fake TikTok API v2: Login Kit's consent page (/v2/auth/authorize/, the application named by
// client_key, scopes comma-separated, an optional S256 challenge) and token endpoint
// (/v2/oauth/token/ with client_key and client_secret in the form, single-use codes, 24-hour
// access tokens, refresh tokens), user info with the scope each field needs, and the Content
// Posting API's Direct Post: creator_info, video init (FILE_UPLOAD with TikTok's chunk rules),
// the chunk PUTs to the upload_url it hands out (in order, each of the announced size, with its
// Content-Range), photo posts by URL (content/init), status fetch (PROCESSING_UPLOAD or
// PROCESSING_DOWNLOAD, then PUBLISH_COMPLETE or FAILED) and the daily post cap; then the video
// list and query. Every answer has TikTok's {data, error: {code, message, log_id}}, "ok" on
// success; the token endpoint answers RFC 6749's {error, error_description, log_id}.
#include "tests/fakes/platforms/fake_clock.hpp"
#include "tests/fakes/platforms/fake_platform.hpp"
#include "tests/fakes/platforms/oauth_checks.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <initializer_list>
#include <random>
#include <variant>
#include <vector>

namespace squawk::fakes::platforms::tiktok {
namespace {

using nlohmann::json;

constexpr long long kAccessSeconds = 86400;
constexpr long long kRefreshSeconds = 31536000;
constexpr auto kCodeLifetime = std::chrono::minutes(10);
constexpr long long kMiB = 1024 * 1024;
constexpr long long kMinChunk = 5 * kMiB;
constexpr long long kMaxChunk = 64 * kMiB;
constexpr long long kMaxFinalChunk = 128 * kMiB;
constexpr long long kMaxChunks = 1000;
constexpr size_t kMaxTitle = 2200;
constexpr size_t kMaxPhotoTitle = 90;
constexpr size_t kMaxDescription = 4000;
constexpr size_t kMaxPhotos = 35;
// The Direct Post cap: posts a creator may make through the API in a day.
constexpr int kDailyPosts = 15;

struct Grant {
    std::string open_id;
    std::vector<std::string> scopes;
};

struct Code {
    Grant grant;
    std::string redirect_uri;
    std::string challenge;  // empty when the consent carried none
    std::chrono::steady_clock::time_point issued;
};

struct State {
    std::string client_key;
    std::string client_secret;
    // open_id -> {open_id, union_id, username, display_name, privacy_level_options,
    // comment_disabled, duet_disabled, stitch_disabled, max_video_post_duration_sec,
    // follower_count, following_count, likes_count, posts_today}
    json users = json::object();
    std::optional<json> next_consent;  // {user_id, scopes?, deny?}
    std::map<std::string, Code> codes;
    std::map<std::string, Grant> access_tokens;
    std::map<std::string, Grant> refresh_tokens;
    // publish_id -> {open_id, media_type, post_info, status, fail_reason}; a video adds
    // video_size, chunk_size, total_chunk_count, upload_token, uploaded_bytes and chunks
    // [{bytes, content_range, content_type}]; photos add photo_images; received_at_ms is when
    // the post's last part arrived (the publishing call: TikTok processes the post after it);
    // status reads add read (whether one answered since the media arrived) and, once
    // published, post_id.
    json publishes = json::object();
    std::string fail_next;         // the fail_reason the next post ends with; empty: none
    json videos = json::object();  // open_id -> [video], newest last
};

State& state() {
    return fake_state<State>();
}

std::string random_text(size_t length) {
    static constexpr std::string_view kAlphanumeric =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static std::mt19937_64 engine{std::random_device{}()};
    std::uniform_int_distribution<size_t> pick(0, kAlphanumeric.size() - 1);
    std::string out;
    for (size_t i = 0; i < length; ++i) out += kAlphanumeric[pick(engine)];
    return out;
}

std::string log_id() {
    return "202611261000" + random_text(22);
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

bool has(const std::vector<std::string>& list, std::string_view item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

std::string field(const std::map<std::string, std::string>& fields, const std::string& name) {
    const auto found = fields.find(name);
    return found == fields.end() ? "" : found->second;
}

// Characters as TikTok counts a caption's length (code points of UTF-8).
size_t characters(const std::string& text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

HttpAnswer answer(int status, const json& data, const std::string& code = "ok",
                  const std::string& message = "") {
    return json_answer(
        status,
        {{"data", data}, {"error", {{"code", code}, {"message", message}, {"log_id", log_id()}}}});
}

HttpAnswer error(int status, const std::string& code, const std::string& message) {
    return answer(status, json::object(), code, message);
}

HttpAnswer invalid(const std::string& message) {
    return error(400, "invalid_params", message);
}

HttpAnswer oauth_error(int status, const std::string& code, const std::string& description) {
    return json_answer(status,
                       {{"error", code}, {"error_description", description}, {"log_id", log_id()}});
}

HttpAnswer page(int status, const std::string& text) {
    HttpAnswer a;
    a.status = status;
    a.content_type = "text/html";
    a.body = "<html><body><p>" + text + "</p></body></html>";
    return a;
}

// GET /v2/auth/authorize/: the user's visit to the consent page, answered as next_consent says.
HttpAnswer consent(const HttpRequest& request) {
    auto& s = state();
    const auto param = [&](const char* name) { return url_decode(request.query(name)); };
    const std::string redirect_uri = param("redirect_uri");
    const std::string challenge = param("code_challenge");
    if (param("response_type") != "code" || s.client_key.empty() ||
        param("client_key") != s.client_key || redirect_uri.empty() || param("scope").empty() ||
        (!challenge.empty() && param("code_challenge_method") != "S256") || !s.next_consent ||
        !s.users.contains(s.next_consent->value("user_id", "")))
        return page(400, "Something went wrong. client_key, redirect_uri or scope is invalid.");
    const json choice = *std::exchange(s.next_consent, std::nullopt);
    std::string location = redirect_uri + (redirect_uri.find('?') == std::string::npos ? "?" : "&");
    if (choice.value("deny", false)) {
        location += "error=access_denied&error_description=" +
                    url_encode("The user denied the authorization") +
                    "&state=" + url_encode(param("state"));
    } else {
        const auto asked = split(param("scope"), ',');
        std::vector<std::string> granted;
        for (const auto& scope : choice.value("scopes", json(asked)))
            if (has(asked, scope.get<std::string>())) granted.push_back(scope.get<std::string>());
        const std::string code = random_text(40);
        s.codes[code] = {{choice.at("user_id").get<std::string>(), granted},
                         redirect_uri,
                         challenge,
                         std::chrono::steady_clock::now()};
        std::string scopes;
        for (const auto& scope : granted) scopes += (scopes.empty() ? "" : ",") + scope;
        location += "code=" + url_encode(code) + "&scopes=" + url_encode(scopes) +
                    "&state=" + url_encode(param("state"));
    }
    HttpAnswer a = page(302, "Redirecting");
    a.headers = {{"Location", location}};
    return a;
}

HttpAnswer issue_tokens(const Grant& grant, std::string refresh = "") {
    auto& s = state();
    const std::string access = "act." + random_text(48);
    s.access_tokens[access] = grant;
    if (refresh.empty()) {
        refresh = "rft." + random_text(48);
        s.refresh_tokens[refresh] = grant;
    }
    std::string scope;
    for (const auto& granted : grant.scopes) scope += (scope.empty() ? "" : ",") + granted;
    return json_answer(200, {{"access_token", access},
                             {"expires_in", kAccessSeconds},
                             {"open_id", grant.open_id},
                             {"refresh_expires_in", kRefreshSeconds},
                             {"refresh_token", refresh},
                             {"scope", scope},
                             {"token_type", "Bearer"}});
}

// A code works once, even when the exchange is refused, for ten minutes, and (when the consent
// carried a challenge) only with its verifier.
HttpAnswer trade_code(const std::map<std::string, std::string>& form) {
    auto& s = state();
    const auto found = s.codes.find(field(form, "code"));
    if (found == s.codes.end())
        return oauth_error(400, "invalid_grant", "Authorization code is expired.");
    const Code code = found->second;
    s.codes.erase(found);
    if (std::chrono::steady_clock::now() - code.issued > kCodeLifetime)
        return oauth_error(400, "invalid_grant", "Authorization code is expired.");
    if (field(form, "redirect_uri") != code.redirect_uri)
        return oauth_error(400, "invalid_request", "Redirect_uri does not match.");
    if (!code.challenge.empty() && s256_challenge(field(form, "code_verifier")) != code.challenge)
        return oauth_error(400, "invalid_request", "Code verifier or code challenge is invalid.");
    return issue_tokens(code.grant);
}

// TikTok answers a refresh with a new access token and the refresh token it was given.
HttpAnswer trade_refresh(const std::map<std::string, std::string>& form) {
    const auto refresh = field(form, "refresh_token");
    const auto found = state().refresh_tokens.find(refresh);
    if (found == state().refresh_tokens.end())
        return oauth_error(400, "invalid_grant", "Refresh token is invalid or expired.");
    return issue_tokens(found->second, refresh);
}

// POST /v2/oauth/token/: the application by client_key and client_secret in the form.
HttpAnswer token(const HttpRequest& request) {
    const auto& s = state();
    if (request.headers.count("content-type") == 0 ||
        !request.headers.at("content-type").starts_with("application/x-www-form-urlencoded"))
        return oauth_error(400, "invalid_request", "Content-Type must be form-urlencoded.");
    const auto form = form_decode(request.body);
    if (s.client_key.empty() || field(form, "client_key") != s.client_key ||
        field(form, "client_secret") != s.client_secret)
        return oauth_error(401, "invalid_client", "Client key or secret is incorrect.");
    const auto grant_type = field(form, "grant_type");
    if (grant_type == "authorization_code") return trade_code(form);
    if (grant_type == "refresh_token") return trade_refresh(form);
    return oauth_error(400, "unsupported_grant_type", "Grant type is not supported.");
}

// The grant of the request's bearer token, or TikTok's 401; a scope of `needed` it lacks is
// scope_not_authorized.
std::variant<Grant, HttpAnswer> authorized(const HttpRequest& request,
                                           const std::vector<std::string>& needed) {
    const auto& tokens = state().access_tokens;
    const auto auth = request.headers.find("authorization");
    const auto token = auth == request.headers.end() || !auth->second.starts_with("Bearer ")
                           ? tokens.end()
                           : tokens.find(auth->second.substr(7));
    if (token == tokens.end())
        return error(401, "access_token_invalid",
                     "The access token is invalid or not found in the request.");
    for (const auto& scope : needed)
        if (!has(token->second.scopes, scope))
            return error(401, "scope_not_authorized",
                         "The user did not authorize the scope required for completing this "
                         "request.");
    return token->second;
}

// The scope each user info field needs.
std::string scope_of_field(const std::string& name) {
    static const std::vector<std::string> kBasic = {
        "open_id", "union_id", "avatar_url", "avatar_url_100", "avatar_large_url", "display_name"};
    static const std::vector<std::string> kProfile = {"bio_description", "profile_deep_link",
                                                      "is_verified", "username"};
    static const std::vector<std::string> kStats = {"follower_count", "following_count",
                                                    "likes_count", "video_count"};
    if (has(kBasic, name)) return "user.info.basic";
    if (has(kProfile, name)) return "user.info.profile";
    if (has(kStats, name)) return "user.info.stats";
    return "";
}

// GET /v2/user/info/?fields=: the fields asked for, each needing its scope.
HttpAnswer user_info(const HttpRequest& request) {
    const auto fields = split(url_decode(request.query("fields")), ',');
    if (fields.empty()) return invalid("fields is required");
    std::vector<std::string> needed;
    for (const auto& name : fields) {
        const auto scope = scope_of_field(name);
        if (scope.empty()) return invalid("Invalid field: " + name);
        if (!has(needed, scope)) needed.push_back(scope);
    }
    auto who = authorized(request, needed);
    if (auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
    const json& user = state().users[std::get<Grant>(who).open_id];
    json out = json::object();
    for (const auto& name : fields)
        if (user.contains(name)) out[name] = user[name];
    if (has(fields, "video_count"))
        out["video_count"] =
            state().videos.value(std::get<Grant>(who).open_id, json::array()).size();
    return answer(200, {{"user", out}});
}

HttpAnswer creator_info(const Grant& grant) {
    const json& user = state().users[grant.open_id];
    return answer(200, {{"creator_avatar_url", "https://p16.tiktokcdn.example/avatar.jpeg"},
                        {"creator_username", user["username"]},
                        {"creator_nickname", user["display_name"]},
                        {"privacy_level_options", user["privacy_level_options"]},
                        {"comment_disabled", user["comment_disabled"]},
                        {"duet_disabled", user["duet_disabled"]},
                        {"stitch_disabled", user["stitch_disabled"]},
                        {"max_video_post_duration_sec", user["max_video_post_duration_sec"]}});
}

// A JSON body, which TikTok takes only as application/json.
std::optional<json> json_body(const HttpRequest& request) {
    const auto type = request.headers.find("content-type");
    if (type == request.headers.end() || !type->second.starts_with("application/json"))
        return std::nullopt;
    auto body = json::parse(request.body, nullptr, false);
    if (!body.is_object()) return std::nullopt;
    return body;
}

// post_info's privacy level and switches as TikTok checks them against the creator's settings;
// nothing when they pass.
std::optional<HttpAnswer> post_info_problem(const json& info, const json& user, bool video) {
    if (!info.is_object()) return invalid("post_info is required");
    const auto level = info.value("privacy_level", json());
    if (!level.is_string()) return invalid("post_info.privacy_level is required");
    const auto& allowed = user["privacy_level_options"];
    if (std::find(allowed.begin(), allowed.end(), level) == allowed.end())
        return error(400, "privacy_level_option_mismatch",
                     "privacy_level is not one of the creator's privacy_level_options");
    std::vector<std::string> switches = {"disable_comment"};
    if (video) switches = {"disable_comment", "disable_duet", "disable_stitch"};
    for (const auto& name : switches)
        if (info.contains(name) && !info[name].is_boolean())
            return invalid("post_info." + name + " must be a boolean");
    return std::nullopt;
}

// The Direct Post cap; nothing while the creator may still post today.
std::optional<HttpAnswer> over_post_cap(json& user) {
    if (user["posts_today"].get<int>() >= kDailyPosts)
        return error(403, "spam_risk_too_many_posts",
                     "The daily post cap from the API is reached for the current user.");
    user["posts_today"] = user["posts_today"].get<int>() + 1;
    return std::nullopt;
}

std::string new_publish_id(const char* kind) {
    return std::string("v_pub_") + kind + "~v2-1." + std::to_string(next_message_id());
}

std::string host_of(const HttpRequest& request) {
    const auto host = request.headers.find("host");
    return "http://" + (host == request.headers.end() ? std::string("127.0.0.1") : host->second);
}

// POST /v2/post/publish/video/init/ with FILE_UPLOAD (the fake pulls no video from a URL): the
// chunk plan must follow TikTok's rules.
HttpAnswer video_init(const HttpRequest& request, const Grant& grant) {
    auto& s = state();
    const auto body = json_body(request);
    if (!body) return invalid("The request body must be a JSON object.");
    json& user = s.users[grant.open_id];
    const json info = body->value("post_info", json());
    if (auto problem = post_info_problem(info, user, true)) return *problem;
    if (info.contains("title") &&
        (!info["title"].is_string() || characters(info["title"].get<std::string>()) > kMaxTitle))
        return invalid("post_info.title must be a string of at most 2200 characters");
    const json source = body->value("source_info", json::object());
    if (source.value("source", "") != "FILE_UPLOAD")
        return invalid("source_info.source must be FILE_UPLOAD");
    const long long size = source.value("video_size", 0LL);
    const long long chunk = source.value("chunk_size", 0LL);
    const long long count = source.value("total_chunk_count", 0LL);
    if (size <= 0 || chunk <= 0 || count <= 0)
        return invalid("video_size, chunk_size and total_chunk_count are required for FILE_UPLOAD");
    if (size < kMinChunk && (chunk != size || count != 1))
        return invalid("A video under 5 MB is uploaded whole: chunk_size equals video_size");
    if (size >= kMinChunk && (chunk < kMinChunk || chunk > kMaxChunk))
        return invalid("chunk_size must be between 5 MB and 64 MB");
    if (count != size / chunk || count > kMaxChunks)
        return invalid("total_chunk_count must be video_size divided by chunk_size, rounded down");
    if (size - (count - 1) * chunk > kMaxFinalChunk)
        return invalid("The final chunk may be at most 128 MB");
    if (auto capped = over_post_cap(user)) return *capped;
    const std::string id = new_publish_id("file");
    const std::string upload_token = random_text(24);
    s.publishes[id] = {{"open_id", grant.open_id},
                       {"media_type", "VIDEO"},
                       {"post_info", info},
                       {"video_size", size},
                       {"chunk_size", chunk},
                       {"total_chunk_count", count},
                       {"upload_token", upload_token},
                       {"chunks", json::array()},
                       {"uploaded_bytes", 0},
                       {"status", "PROCESSING_UPLOAD"},
                       {"fail_reason", std::exchange(s.fail_next, "")}};
    return answer(200, {{"publish_id", id},
                        {"upload_url", host_of(request) + "/tiktok/upload/video/?upload_id=" +
                                           url_encode(id) + "&upload_token=" + upload_token}});
}

// "bytes first-last/total" of a Content-Range header; nothing when it is not that form.
std::optional<std::array<long long, 3>> content_range(const HttpRequest& request) {
    const auto header = request.headers.find("content-range");
    if (header == request.headers.end()) return std::nullopt;
    long long first = 0, last = 0, total = 0;
    int consumed = 0;
    if (std::sscanf(header->second.c_str(), "bytes %lld-%lld/%lld%n", &first, &last, &total,
                    &consumed) != 3 ||
        consumed != static_cast<int>(header->second.size()))
        return std::nullopt;
    return std::array<long long, 3>{first, last, total};
}

// PUT /upload/video/?upload_id=&upload_token=: the next chunk, in order and of the size the plan
// gives it; 206 until the last, 201 for it.
HttpAnswer upload_chunk(const HttpRequest& request) {
    auto& publishes = state().publishes;
    const auto params = request.parameters();
    const auto id = field(params, "upload_id");
    if (!publishes.contains(id) || publishes[id]["upload_token"] != field(params, "upload_token"))
        return error(404, "invalid_params", "The upload_url is invalid or expired.");
    json& upload = publishes[id];
    const auto type = request.headers.find("content-type");
    if (type == request.headers.end() ||
        (type->second != "video/mp4" && type->second != "video/quicktime" &&
         type->second != "video/webm"))
        return error(415, "invalid_file_upload",
                     "Content-Type must be video/mp4, video/quicktime or video/webm");
    const auto range = content_range(request);
    const long long size = upload["video_size"].get<long long>();
    const long long chunk = upload["chunk_size"].get<long long>();
    const long long count = upload["total_chunk_count"].get<long long>();
    const long long index = static_cast<long long>(upload["chunks"].size());
    if (index >= count)
        return error(400, "invalid_file_upload", "Every chunk was uploaded already.");
    const long long expected_first = index * chunk;
    const long long expected_length = index + 1 == count ? size - expected_first : chunk;
    if (!range || (*range)[2] != size || (*range)[0] != expected_first ||
        (*range)[1] != expected_first + expected_length - 1)
        return error(416, "invalid_file_upload",
                     "Content-Range must be bytes " + std::to_string(expected_first) + "-" +
                         std::to_string(expected_first + expected_length - 1) + "/" +
                         std::to_string(size));
    if (static_cast<long long>(request.body.size()) != expected_length)
        return error(400, "invalid_file_upload",
                     "The chunk's length does not match its Content-Range.");
    upload["chunks"].push_back({{"bytes", expected_length},
                                {"content_range", request.headers.at("content-range")},
                                {"content_type", type->second}});
    upload["uploaded_bytes"] = expected_first + expected_length;
    if (index + 1 == count) upload["received_at_ms"] = unix_now_ms();
    HttpAnswer a;
    a.status = index + 1 == count ? 201 : 206;
    a.content_type = "text/plain";
    return a;
}

// POST /v2/post/publish/content/init/: a photo post of 1 to 35 images by URL.
HttpAnswer content_init(const HttpRequest& request, const Grant& grant) {
    auto& s = state();
    const auto body = json_body(request);
    if (!body) return invalid("The request body must be a JSON object.");
    if (body->value("media_type", "") != "PHOTO") return invalid("media_type must be PHOTO");
    if (body->value("post_mode", "") != "DIRECT_POST")
        return invalid("post_mode must be DIRECT_POST or MEDIA_UPLOAD");
    json& user = s.users[grant.open_id];
    const json info = body->value("post_info", json());
    if (auto problem = post_info_problem(info, user, false)) return *problem;
    if (info.contains("disable_duet") || info.contains("disable_stitch"))
        return invalid("disable_duet and disable_stitch do not apply to photo posts");
    if (info.contains("title") && characters(info.value("title", "")) > kMaxPhotoTitle)
        return invalid("post_info.title must be at most 90 characters");
    if (info.contains("description") && characters(info.value("description", "")) > kMaxDescription)
        return invalid("post_info.description must be at most 4000 characters");
    const json source = body->value("source_info", json::object());
    if (source.value("source", "") != "PULL_FROM_URL")
        return invalid("source_info.source must be PULL_FROM_URL for photos");
    const json images = source.value("photo_images", json());
    if (!images.is_array() || images.empty() || images.size() > kMaxPhotos)
        return invalid("source_info.photo_images must have 1 to 35 URLs");
    for (const auto& url : images)
        if (!url.is_string() || !(url.get<std::string>().starts_with("https://") ||
                                  url.get<std::string>().starts_with("http://")))
            return invalid("source_info.photo_images must be URLs");
    const long long cover = source.value("photo_cover_index", -1LL);
    if (cover < 0 || cover >= static_cast<long long>(images.size()))
        return invalid("source_info.photo_cover_index must index photo_images");
    if (auto capped = over_post_cap(user)) return *capped;
    const std::string id = new_publish_id("url");
    s.publishes[id] = {{"open_id", grant.open_id},
                       {"media_type", "PHOTO"},
                       {"post_info", info},
                       {"photo_images", images},
                       {"received_at_ms", unix_now_ms()},
                       {"status", "PROCESSING_DOWNLOAD"},
                       {"fail_reason", std::exchange(s.fail_next, "")}};
    return answer(200, {{"publish_id", id}});
}

// The published post, added to the creator's videos.
json publish_post(const json& publish) {
    const std::string id = std::to_string(7'400'000'000'000'000'000LL + next_message_id());
    const json& user = state().users[publish["open_id"].get<std::string>()];
    const json& info = publish["post_info"];
    json video = {{"id", id},
                  {"title", info.value("title", "")},
                  {"video_description", info.value("description", info.value("title", ""))},
                  {"create_time", unix_now()},
                  {"share_url", "https://www.tiktok.com/@" + user["username"].get<std::string>() +
                                    "/video/" + id},
                  {"privacy_level", info["privacy_level"]},
                  {"media_type", publish["media_type"]},
                  {"like_count", 0},
                  {"comment_count", 0},
                  {"share_count", 0},
                  {"view_count", 0}};
    for (const char* name : {"disable_comment", "disable_duet", "disable_stitch"})
        if (info.contains(name)) video[name] = info[name];
    if (publish.contains("chunks")) video["chunks"] = publish["chunks"];
    if (publish.contains("photo_images")) video["photo_images"] = publish["photo_images"];
    state().videos[publish["open_id"].get<std::string>()].push_back(video);
    return video;
}

// POST /v2/post/publish/status/fetch/: a post whose media all arrived is processing at the first
// read and done at the next; an upload short of its chunks stays PROCESSING_UPLOAD.
HttpAnswer status_fetch(const HttpRequest& request, const Grant& grant) {
    auto& publishes = state().publishes;
    const auto body = json_body(request);
    if (!body) return invalid("The request body must be a JSON object.");
    const auto id = body->value("publish_id", "");
    if (!publishes.contains(id) || publishes[id]["open_id"] != grant.open_id)
        return invalid("publish_id is invalid");
    json& publish = publishes[id];
    json data = {{"status", publish["status"]}, {"publicaly_available_post_id", json::array()}};
    const bool arrived = publish["media_type"] == "PHOTO" ||
                         publish["chunks"].size() == publish["total_chunk_count"].get<size_t>();
    if (publish.contains("uploaded_bytes")) data["uploaded_bytes"] = publish["uploaded_bytes"];
    if (!arrived || publish.value("read", false) == false) {
        publish["read"] = arrived;
        return answer(200, data);
    }
    if (publish["status"] == "PROCESSING_UPLOAD" || publish["status"] == "PROCESSING_DOWNLOAD") {
        if (!publish["fail_reason"].get<std::string>().empty()) {
            publish["status"] = "FAILED";
        } else {
            publish["status"] = "PUBLISH_COMPLETE";
            publish["post_id"] = publish_post(publish)["id"];
            const json& info = publish["post_info"];
            publish_log("tiktok", info.value("description", info.value("title", "")),
                        publish["received_at_ms"].get<long long>());
        }
    }
    data["status"] = publish["status"];
    if (publish["status"] == "FAILED") data["fail_reason"] = publish["fail_reason"];
    // A post only its creator sees has no public id.
    if (publish["status"] == "PUBLISH_COMPLETE" &&
        publish["post_info"]["privacy_level"] != "SELF_ONLY")
        data["publicaly_available_post_id"] =
            json::array({std::stoll(publish["post_id"].get<std::string>())});
    return answer(200, data);
}

std::vector<std::string> video_fields(const HttpRequest& request) {
    return split(url_decode(request.query("fields")), ',');
}

json with_fields(const json& video, const std::vector<std::string>& fields) {
    json out = json::object();
    for (const auto& name : fields)
        if (video.contains(name)) out[name] = video[name];
    return out;
}

// POST /v2/video/list/?fields=: the creator's videos, newest first, max_count (at most 20) a page.
HttpAnswer video_list(const HttpRequest& request, const Grant& grant) {
    const auto body = json_body(request);
    if (!body) return invalid("The request body must be a JSON object.");
    const auto fields = video_fields(request);
    if (fields.empty()) return invalid("fields is required");
    const long long max = body->value("max_count", 10LL);
    if (max < 1 || max > 20) return invalid("max_count must be between 1 and 20");
    const json& videos = state().videos.value(grant.open_id, json::array());
    json out = json::array();
    for (auto it = videos.rbegin(); it != videos.rend() && static_cast<long long>(out.size()) < max;
         ++it)
        out.push_back(with_fields(*it, fields));
    return answer(200, {{"videos", out},
                        {"cursor", unix_now() * 1000},
                        {"has_more", static_cast<long long>(videos.size()) > max}});
}

// POST /v2/video/query/?fields=: the creator's videos among filters.video_ids (at most 20).
HttpAnswer video_query(const HttpRequest& request, const Grant& grant) {
    const auto body = json_body(request);
    if (!body) return invalid("The request body must be a JSON object.");
    const auto fields = video_fields(request);
    if (fields.empty()) return invalid("fields is required");
    const json filters = body->value("filters", json::object());
    const json ids = filters.is_object() ? filters.value("video_ids", json()) : json();
    if (!ids.is_array() || ids.empty() || ids.size() > 20)
        return invalid("filters.video_ids must have 1 to 20 ids");
    json out = json::array();
    for (const auto& video : state().videos.value(grant.open_id, json::array()))
        if (std::find(ids.begin(), ids.end(), video["id"]) != ids.end())
            out.push_back(with_fields(video, fields));
    return answer(200, {{"videos", out}, {"cursor", 0}, {"has_more", false}});
}

HttpAnswer serve(const HttpRequest& request, const std::string& path) {
    if (request.method == "GET" && path == "/v2/auth/authorize/") return consent(request);
    if (request.method == "POST" && path == "/v2/oauth/token/") return token(request);
    if (request.method == "PUT" && path == "/upload/video/") return upload_chunk(request);
    if (request.method == "GET" && path == "/v2/user/info/") return user_info(request);
    const auto call = [&](const std::vector<std::string>& needed, auto&& handler) {
        auto who = authorized(request, needed);
        if (auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
        return handler(std::get<Grant>(who));
    };
    if (request.method == "POST" && path == "/v2/post/publish/creator_info/query/")
        return call({"video.publish"}, creator_info);
    if (request.method == "POST" && path == "/v2/post/publish/video/init/")
        return call({"video.publish"}, [&](const Grant& g) { return video_init(request, g); });
    if (request.method == "POST" && path == "/v2/post/publish/content/init/")
        return call({"video.publish"}, [&](const Grant& g) { return content_init(request, g); });
    if (request.method == "POST" && path == "/v2/post/publish/status/fetch/")
        return call({"video.publish"}, [&](const Grant& g) { return status_fetch(request, g); });
    if (request.method == "POST" && path == "/v2/video/list/")
        return call({"video.list"}, [&](const Grant& g) { return video_list(request, g); });
    if (request.method == "POST" && path == "/v2/video/query/")
        return call({"video.list"}, [&](const Grant& g) { return video_query(request, g); });
    return error(404, "invalid_params", "The requested path does not exist.");
}

// oauth_client {client_id, client_secret}: the registered application (its client_key and
// secret). user {open_id, username, display_name, privacy_level_options?, comment_disabled?,
// duet_disabled?, stitch_disabled?, max_video_post_duration_sec?, follower_count?,
// following_count?, likes_count?}. next_consent {user_id, scopes?, deny?}. expire {user_id}: the
// user's access tokens stop working, as after 24 hours. fail_next {fail_reason}: the next post
// ends FAILED. posts_today {user_id, count}: posts already made today, against the daily cap.
// video {user_id, title, like_count?, comment_count?, share_count?, view_count?}: a video posted
// in the TikTok app.
std::optional<HttpAnswer> control(const std::string& action, const json& body) {
    auto& s = state();
    if (action == "oauth_client") {
        s.client_key = body.at("client_id").get<std::string>();
        s.client_secret = body.at("client_secret").get<std::string>();
    } else if (action == "user") {
        const auto id = body.at("open_id").get<std::string>();
        s.users[id] = {
            {"open_id", id},
            {"union_id", "union-" + id},
            {"username", body.at("username")},
            {"display_name", body.at("display_name")},
            {"avatar_url", "https://p16.tiktokcdn.example/" + id + ".jpeg"},
            {"privacy_level_options",
             body.value("privacy_level_options",
                        json::array({"PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "SELF_ONLY"}))},
            {"comment_disabled", body.value("comment_disabled", false)},
            {"duet_disabled", body.value("duet_disabled", false)},
            {"stitch_disabled", body.value("stitch_disabled", false)},
            {"max_video_post_duration_sec", body.value("max_video_post_duration_sec", 600)},
            {"follower_count", body.value("follower_count", 0)},
            {"following_count", body.value("following_count", 0)},
            {"likes_count", body.value("likes_count", 0)},
            {"posts_today", 0}};
    } else if (action == "next_consent") {
        s.next_consent = body;
    } else if (action == "expire") {
        const auto id = body.at("user_id").get<std::string>();
        std::erase_if(s.access_tokens,
                      [&](const auto& token) { return token.second.open_id == id; });
    } else if (action == "fail_next") {
        s.fail_next = body.at("fail_reason").get<std::string>();
    } else if (action == "posts_today") {
        s.users[body.at("user_id").get<std::string>()]["posts_today"] = body.at("count");
    } else if (action == "video") {
        json publish = {
            {"open_id", body.at("user_id")},
            {"media_type", "VIDEO"},
            {"post_info", {{"title", body.at("title")}, {"privacy_level", "PUBLIC_TO_EVERYONE"}}}};
        publish_post(publish);
        json& stored = s.videos[body.at("user_id").get<std::string>()].back();
        for (const char* name : {"like_count", "comment_count", "share_count", "view_count"})
            if (body.contains(name)) stored[name] = body[name];
        return json_answer(200, stored);
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
    return state().videos;
}

// The registered application stays: the test support registers it once, when the fake starts.
void reset() {
    State fresh;
    fresh.client_key = state().client_key;
    fresh.client_secret = state().client_secret;
    state() = std::move(fresh);
}

constexpr FakePlatform kFake{"tiktok", &serve, &control, &revoke, &messages, &reset};
const FakeRegistration kRegistration(kFake);

}  // namespace
}  // namespace squawk::fakes::platforms::tiktok
