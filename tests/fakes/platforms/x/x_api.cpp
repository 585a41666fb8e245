// The fake X API v2: the OAuth 2.0 authorization code flow with PKCE (consent page
// /i/oauth2/authorize, token endpoint /2/oauth2/token for a confidential client, single-use codes,
// rotating refresh tokens), users/me, posts (POST /2/tweets, replies among them, which name a post
// that must exist; DELETE /2/tweets/:id; GET /2/tweets/:id with public_metrics;
// GET /2/users/:id/tweets; a conversation by GET /2/tweets/search/recent?query=conversation_id:,
// PUT /2/tweets/:id/hidden and POST /2/users/:id/likes), image uploads with their alt text (POST
// /2/media/metadata) and chunked video uploads (POST /2/media/upload with command INIT, APPEND,
// FINALIZE; GET ?command=STATUS while the video is processed), each checking the scopes X wants;
// errors as X words them: problem details {title, detail, type, status}, {errors:
// [{message}]} for invalid requests, RFC 6749 {error, error_description} at the token endpoint, and
// 429 answers with x-rate-limit-* headers.
#include "tests/fakes/platforms/fake_clock.hpp"
#include "tests/fakes/platforms/fake_platform.hpp"
#include "tests/fakes/platforms/oauth_checks.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <initializer_list>
#include <random>
#include <utility>
#include <variant>
#include <vector>

namespace squawk::fakes::platforms::x {
namespace {

using nlohmann::json;

constexpr long long kMaxImageBytes = 5 * 1024 * 1024;
constexpr long long kMaxVideoBytes = 512LL * 1024 * 1024;
constexpr long long kMaxChunkBytes = 5 * 1024 * 1024;
constexpr auto kCodeLifetime = std::chrono::minutes(10);
constexpr size_t kMaxAltTextChars = 1000;

// What a token or a code grants: the user and the scopes they agreed to.
struct Grant {
    std::string user_id;
    std::vector<std::string> scopes;
};

struct Code {
    Grant grant;
    std::string redirect_uri;
    std::string challenge;
    std::chrono::steady_clock::time_point issued;
};

struct Application {
    std::string client_id;
    std::string client_secret;
};

struct State {
    Application application;           // the one registered OAuth 2.0 client
    json users = json::object();       // id -> {id, username, name}
    std::optional<json> next_consent;  // {user_id, scopes?, deny?}
    std::map<std::string, Code> codes;
    std::map<std::string, Grant> access_tokens;
    std::map<std::string, Grant> refresh_tokens;
    // media id -> {user_id, size, content_type}; chunked uploads add total_bytes, segments,
    // finalized and, for videos, processing (processing_info) and polls_left.
    json media = json::object();
    bool fail_next_processing = false;
    json tweets = json::object();  // user id -> [post], oldest first
    // "METHOD /path" -> the x-rate-limit-reset (Unix seconds) its next call is refused until.
    std::map<std::string, long long> rate_limited;
};

State& state() {
    return fake_state<State>();
}

size_t utf8_chars(const std::string& text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

std::string field(const std::map<std::string, std::string>& fields, const std::string& name) {
    const auto found = fields.find(name);
    return found == fields.end() ? "" : found->second;
}

// The items of a list such as a scope ("tweet.read users.read") or fields ("created_at,text").
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

// Letters and digits: tokens and codes as opaque as X's.
std::string random_text(size_t length) {
    static constexpr std::string_view kAlphanumeric =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static std::mt19937_64 engine{std::random_device{}()};
    std::uniform_int_distribution<size_t> pick(0, kAlphanumeric.size() - 1);
    std::string out;
    for (size_t i = 0; i < length; ++i) out += kAlphanumeric[pick(engine)];
    return out;
}

// X's ids: 64-bit numbers in decimal, unique across the platforms of the fake.
std::string next_id() {
    return std::to_string(1800000000000000000LL + next_message_id());
}

// RFC 7807 problem details, as API v2 answers most errors.
HttpAnswer problem(int status, const std::string& title, const std::string& detail,
                   const std::string& type = "about:blank") {
    HttpAnswer answer = json_answer(
        status, {{"title", title}, {"detail", detail}, {"type", type}, {"status", status}});
    answer.content_type = "application/problem+json";
    return answer;
}

// A request X cannot take: its reasons under errors, inside problem details saying only that.
HttpAnswer invalid(const std::string& message) {
    return json_answer(400, {{"errors", json::array({{{"message", message}}})},
                             {"title", "Invalid Request"},
                             {"detail", "One or more parameters to your request was invalid."},
                             {"type", "https://api.twitter.com/2/problems/invalid-request"}});
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

// GET /i/oauth2/authorize: the user's visit to the consent page, answered as next_consent says.
HttpAnswer consent(const HttpRequest& request) {
    auto& s = state();
    const auto param = [&](const char* name) { return url_decode(request.query(name)); };
    const std::string redirect_uri = param("redirect_uri");
    if (param("response_type") != "code" || s.application.client_id.empty() ||
        param("client_id") != s.application.client_id || redirect_uri.empty() ||
        param("state").empty() || param("code_challenge").empty() ||
        param("code_challenge_method") != "S256" || !s.next_consent ||
        !s.users.contains(s.next_consent->value("user_id", "")))
        return page(400,
                    "Something went wrong. You weren't able to give access to the App. Go back "
                    "and try logging in again.");
    const json choice = *std::exchange(s.next_consent, std::nullopt);
    std::string location = redirect_uri + (redirect_uri.find('?') == std::string::npos ? "?" : "&");
    if (choice.value("deny", false)) {
        location += "error=access_denied&state=" + url_encode(param("state"));
    } else {
        const auto asked = split(param("scope"), ' ');
        std::vector<std::string> granted;
        for (const auto& scope : choice.value("scopes", json(asked)))
            if (has(asked, scope.get<std::string>())) granted.push_back(scope.get<std::string>());
        const std::string code = random_text(40);
        s.codes[code] = {{choice.at("user_id").get<std::string>(), granted},
                         redirect_uri,
                         param("code_challenge"),
                         std::chrono::steady_clock::now()};
        location += "state=" + url_encode(param("state")) + "&code=" + url_encode(code);
    }
    HttpAnswer answer = page(302, "Redirecting");
    answer.headers = {{"Location", location}};
    return answer;
}

// A confidential client authenticates with HTTP Basic: its id and secret, each form-encoded
// first (RFC 6749 2.3.1). Nothing when it did.
std::optional<HttpAnswer> unauthenticated_client(const HttpRequest& request) {
    const auto& application = state().application;
    const auto refused =
        oauth_error(401, "unauthorized_client", "Missing valid authorization header");
    const auto auth = request.headers.find("authorization");
    if (auth == request.headers.end()) return refused;
    const auto client = basic_credentials(auth->second);
    if (!client || application.client_id.empty() ||
        url_decode(client->first) != application.client_id ||
        url_decode(client->second) != application.client_secret)
        return refused;
    return std::nullopt;
}

HttpAnswer issue_tokens(const Grant& grant) {
    auto& s = state();
    const std::string access = random_text(48);
    s.access_tokens[access] = grant;
    std::string scope;
    for (const auto& granted : grant.scopes) scope += (scope.empty() ? "" : " ") + granted;
    json out = {
        {"token_type", "bearer"}, {"expires_in", 7200}, {"access_token", access}, {"scope", scope}};
    // X gives a refresh token only to a grant with offline.access.
    if (has(grant.scopes, "offline.access")) {
        const std::string refresh = random_text(48);
        s.refresh_tokens[refresh] = grant;
        out["refresh_token"] = refresh;
    }
    return json_answer(200, out);
}

// A code works once, even when the exchange is refused, and for ten minutes.
HttpAnswer trade_code(const std::map<std::string, std::string>& form) {
    auto& s = state();
    const auto found = s.codes.find(field(form, "code"));
    if (found == s.codes.end())
        return oauth_error(400, "invalid_request",
                           "Value passed for the authorization code was invalid.");
    const Code code = found->second;
    s.codes.erase(found);
    if (std::chrono::steady_clock::now() - code.issued > kCodeLifetime)
        return oauth_error(400, "invalid_request",
                           "Value passed for the authorization code was invalid.");
    if (field(form, "redirect_uri") != code.redirect_uri)
        return oauth_error(400, "invalid_request",
                           "Value passed for the redirect uri did not match the uri of the "
                           "authorization code.");
    if (s256_challenge(field(form, "code_verifier")) != code.challenge)
        return oauth_error(400, "invalid_request",
                           "Value passed for the code verifier did not match the code challenge.");
    return issue_tokens(code.grant);
}

// Refresh tokens rotate: the one used stops working.
HttpAnswer trade_refresh(const std::map<std::string, std::string>& form) {
    auto& s = state();
    const auto found = s.refresh_tokens.find(field(form, "refresh_token"));
    if (found == s.refresh_tokens.end())
        return oauth_error(400, "invalid_request", "Value passed for the token was invalid.");
    const Grant grant = found->second;
    s.refresh_tokens.erase(found);
    return issue_tokens(grant);
}

HttpAnswer token(const HttpRequest& request) {
    if (const auto refused = unauthenticated_client(request)) return *refused;
    const auto form = form_decode(request.body);
    const auto grant_type = field(form, "grant_type");
    if (grant_type == "authorization_code") return trade_code(form);
    if (grant_type == "refresh_token") return trade_refresh(form);
    return oauth_error(400, "unsupported_grant_type", "Grant type is not supported.");
}

// The grant the request's bearer token carries, or X's 401; a scope of `needed` it lacks is X's
// 403.
std::variant<Grant, HttpAnswer> authorized(const HttpRequest& request,
                                           std::initializer_list<std::string_view> needed) {
    const auto& tokens = state().access_tokens;
    const auto auth = request.headers.find("authorization");
    const auto token = auth == request.headers.end() || !auth->second.starts_with("Bearer ")
                           ? tokens.end()
                           : tokens.find(auth->second.substr(7));
    if (token == tokens.end()) return problem(401, "Unauthorized", "Unauthorized");
    for (const auto scope : needed)
        if (!has(token->second.scopes, scope)) return problem(403, "Forbidden", "Forbidden");
    return token->second;
}

// user.fields=public_metrics adds the counts X shows on the profile.
HttpAnswer me(const HttpRequest& request, const Grant& grant) {
    const json& user = state().users[grant.user_id];
    json data = {{"id", user["id"]}, {"name", user["name"]}, {"username", user["username"]}};
    if (has(split(url_decode(request.query("user.fields")), ','), "public_metrics"))
        data["public_metrics"] = {
            {"followers_count", user.value("followers", 0)},
            {"following_count", user.value("following", 0)},
            {"tweet_count", state().tweets.value(grant.user_id, json::array()).size()},
            {"listed_count", 0},
            {"like_count", 0}};
    return json_answer(200, {{"data", data}});
}

// A stored post of any user by its id; nullptr when there is none (never made, or deleted).
json* find_tweet(const std::string& id) {
    for (auto& [user_id, tweets] : state().tweets.items())
        for (auto& tweet : tweets)
            if (tweet["id"] == id) return &tweet;
    return nullptr;
}

// `media` is what X's includes.media would list for the post: {media_key, type, alt_text?}.
// A reply names its parent under referenced_tweets and shares its conversation.
json store_tweet(const std::string& user_id, const std::string& text,
                 const json& media = json::array(), const json* parent = nullptr) {
    const std::string id = next_id();
    json tweet = {{"id", id},
                  {"text", text},
                  {"author_id", user_id},
                  {"conversation_id", parent ? (*parent)["conversation_id"] : json(id)},
                  {"created_at", utc_now(3, "Z")},
                  {"edit_history_tweet_ids", json::array({id})},
                  {"public_metrics",
                   {{"retweet_count", 0},
                    {"reply_count", 0},
                    {"like_count", 0},
                    {"quote_count", 0},
                    {"bookmark_count", 0},
                    {"impression_count", 0}}}};
    if (!media.empty()) {
        json keys = json::array();
        for (const auto& item : media) keys.push_back(item["media_key"]);
        tweet["attachments"] = {{"media_keys", keys}};
        tweet["media"] = media;
    }
    if (parent) {
        tweet["referenced_tweets"] =
            json::array({{{"type", "replied_to"}, {"id", (*parent)["id"]}}});
        tweet["in_reply_to_user_id"] = (*parent)["author_id"];
    }
    state().tweets[user_id].push_back(tweet);
    return tweet;
}

HttpAnswer create_tweet(const HttpRequest& request, const Grant& grant) {
    auto& s = state();
    const json body = json::parse(request.body, nullptr, false);
    if (!body.is_object()) return invalid("The request body is not a JSON object.");
    if (body.contains("text") && (!body["text"].is_string() || body["text"] == ""))
        return invalid("$.text: must be a non-empty string.");
    json attached = json::array();
    if (body.contains("media")) {
        const json ids =
            body["media"].is_object() ? body["media"].value("media_ids", json()) : json();
        if (!ids.is_array() || ids.empty() || ids.size() > 4)
            return invalid("$.media.media_ids: must have 1 to 4 items.");
        for (const auto& id : ids) {
            if (!id.is_string() || !s.media.contains(id.get<std::string>()) ||
                s.media[id.get<std::string>()]["user_id"] != grant.user_id)
                return invalid("Your media IDs are invalid.");
            const auto& media = s.media[id.get<std::string>()];
            if (media.contains("total_bytes") &&
                (media["finalized"] != true ||
                 (media.contains("processing") && media["processing"]["state"] != "succeeded")))
                return invalid("Your media IDs are invalid.");
            const bool video = media.value("video", false);
            json item = {{"media_key", (video ? "7_" : "3_") + id.get<std::string>()},
                         {"type", video ? "video" : "photo"}};
            if (media.contains("alt_text")) item["alt_text"] = media["alt_text"];
            attached.push_back(item);
        }
    }
    if (!body.contains("text") && attached.empty())
        return invalid("You must specify either text or media.");
    const json* parent = nullptr;
    if (body.contains("reply")) {
        const json reply = body["reply"].is_object() ? body["reply"] : json::object();
        const json to = reply.value("in_reply_to_tweet_id", json());
        if (!to.is_string() || to == "")
            return invalid("$.reply.in_reply_to_tweet_id: is required.");
        parent = find_tweet(to.get<std::string>());
        if (!parent)
            return problem(403, "Forbidden",
                           "You attempted to reply to a Tweet that is deleted or not visible to "
                           "you.");
    }
    const json tweet = store_tweet(grant.user_id, body.value("text", ""), attached, parent);
    publish_log("x", tweet["text"]);
    return json_answer(201, {{"data",
                              {{"id", tweet["id"]},
                               {"text", tweet["text"]},
                               {"edit_history_tweet_ids", tweet["edit_history_tweet_ids"]}}}});
}

HttpAnswer delete_tweet(const std::string& id, const Grant& grant) {
    for (auto& [user_id, tweets] : state().tweets.items()) {
        const auto found = std::find_if(tweets.begin(), tweets.end(),
                                        [&](const json& tweet) { return tweet["id"] == id; });
        if (found == tweets.end()) continue;
        if (user_id != grant.user_id)
            return problem(403, "Forbidden", "You are not allowed to delete this Tweet.");
        tweets.erase(found);
        return json_answer(200, {{"data", {{"deleted", true}}}});
    }
    return problem(404, "Not Found Error", "Could not find tweet with id: [" + id + "].",
                   "https://api.twitter.com/2/problems/resource-not-found");
}

// A user's posts, newest first, without replies when exclude says so; created_at only when
// tweet.fields asks for it.
HttpAnswer user_tweets(const HttpRequest& request, const std::string& user_id) {
    int max_results = 10;
    if (const auto text = request.query("max_results"); !text.empty())
        max_results = std::atoi(text.c_str());
    if (max_results < 5 || max_results > 100)
        return invalid("The `max_results` query parameter value [" + request.query("max_results") +
                       "] is not between 5 and 100");
    const bool created_at =
        has(split(url_decode(request.query("tweet.fields")), ','), "created_at");
    const bool no_replies = has(split(url_decode(request.query("exclude")), ','), "replies");
    const json& tweets = state().tweets.value(user_id, json::array());
    json data = json::array();
    for (auto it = tweets.rbegin();
         it != tweets.rend() && static_cast<int>(data.size()) < max_results; ++it) {
        if (no_replies && it->contains("referenced_tweets")) continue;
        json tweet = {{"id", (*it)["id"]},
                      {"text", (*it)["text"]},
                      {"edit_history_tweet_ids", (*it)["edit_history_tweet_ids"]}};
        if (created_at) tweet["created_at"] = (*it)["created_at"];
        data.push_back(tweet);
    }
    if (data.empty()) return json_answer(200, {{"meta", {{"result_count", 0}}}});
    return json_answer(200, {{"data", data},
                             {"meta",
                              {{"result_count", data.size()},
                               {"newest_id", data.front()["id"]},
                               {"oldest_id", data.back()["id"]}}}});
}

// A media id of this user's from a form field or query parameter; nullptr when it is not one.
json* own_media(const std::string& id, const Grant& grant) {
    auto& media = state().media;
    if (!media.contains(id) || media[id]["user_id"] != grant.user_id) return nullptr;
    return &media[id];
}

json media_object(const std::string& id, const json& media) {
    json data = {{"id", id},
                 {"media_key", (media.value("video", false) ? "7_" : "3_") + id},
                 {"size", media.value("size", 0LL)},
                 {"expires_after_secs", 86400}};
    if (media.contains("processing")) data["processing_info"] = media["processing"];
    return data;
}

// command=INIT: a chunked upload of total_bytes begins (videos: tweet_video or amplify_video).
HttpAnswer init_upload(const std::map<std::string, std::string>& fields, const Grant& grant) {
    const auto type = field(fields, "media_type");
    const auto category = field(fields, "media_category");
    const long long total = std::atoll(field(fields, "total_bytes").c_str());
    if (type.empty() || total <= 0)
        return invalid("media_type and total_bytes are required for INIT.");
    const bool video = type.starts_with("video/");
    if (video && category != "tweet_video" && category != "amplify_video")
        return invalid("media_category must be tweet_video or amplify_video for videos.");
    if (total > (video ? kMaxVideoBytes : kMaxImageBytes))
        return invalid("File size exceeds the limit for " + type + ".");
    const std::string id = next_id();
    state().media[id] = {{"user_id", grant.user_id}, {"size", 0},      {"total_bytes", total},
                         {"content_type", type},     {"video", video}, {"segments", json::array()},
                         {"finalized", false}};
    return json_answer(202, {{"data", media_object(id, state().media[id])}});
}

// command=APPEND: segment_index's bytes (at most 5 MB) in the media field.
HttpAnswer append_upload(const Form& form, const Grant& grant) {
    auto* media = own_media(field(form.fields, "media_id"), grant);
    if (!media || (*media)["finalized"] == true) return invalid("Your media IDs are invalid.");
    if (!form.files.contains("media")) return invalid("The media field is required for APPEND.");
    const auto index = field(form.fields, "segment_index");
    const long long segment = std::atoll(index.c_str());
    if (index.empty() || segment < 0 || segment > 999)
        return invalid("segment_index must be between 0 and 999.");
    for (const auto& seen : (*media)["segments"])
        if (seen == segment) return invalid("Segment " + index + " was already appended.");
    const long long bytes = form.files.at("media").value("bytes", 0LL);
    if (bytes > kMaxChunkBytes) return invalid("A segment is at most 5 MB.");
    (*media)["segments"].push_back(segment);
    (*media)["size"] = (*media)["size"].get<long long>() + bytes;
    HttpAnswer answer;
    answer.status = 204;
    return answer;
}

// command=FINALIZE: every byte announced arrived; a video is then processed, polled by STATUS.
HttpAnswer finalize_upload(const std::map<std::string, std::string>& fields, const Grant& grant) {
    const auto id = field(fields, "media_id");
    auto* media = own_media(id, grant);
    if (!media || (*media)["finalized"] == true) return invalid("Your media IDs are invalid.");
    if ((*media)["size"] != (*media)["total_bytes"])
        return invalid("File size mismatch: expected " + (*media)["total_bytes"].dump() +
                       " bytes, received " + (*media)["size"].dump() + ".");
    (*media)["finalized"] = true;
    if ((*media)["video"] == true) {
        const bool fails = state().fail_next_processing;
        state().fail_next_processing = false;
        (*media)["processing"] = {{"state", "pending"}, {"check_after_secs", 1}};
        (*media)["polls_left"] = 1;
        (*media)["fails"] = fails;
    }
    return json_answer(201, {{"data", media_object(id, *media)}});
}

// GET ?command=STATUS&media_id=: pending -> in_progress -> succeeded (or failed).
HttpAnswer upload_status(const HttpRequest& request, const Grant& grant) {
    const auto params = request.parameters();
    if (field(params, "command") != "STATUS") return invalid("command must be STATUS.");
    const auto id = field(params, "media_id");
    auto* media = own_media(id, grant);
    if (!media || !media->contains("processing")) return invalid("Your media IDs are invalid.");
    auto& m = *media;
    if (m["polls_left"].get<int>() > 0) {
        m["polls_left"] = m["polls_left"].get<int>() - 1;
        m["processing"] = {
            {"state", "in_progress"}, {"check_after_secs", 1}, {"progress_percent", 50}};
    } else if (m["fails"] == true) {
        m["processing"] = {
            {"state", "failed"},
            {"progress_percent", 100},
            {"error",
             {{"code", 1}, {"name", "InvalidMedia"}, {"message", "Unsupported video format"}}}};
    } else {
        m["processing"] = {{"state", "succeeded"}, {"progress_percent", 100}};
    }
    return json_answer(200, {{"data", media_object(id, m)}});
}

// A one-request image upload, or a command of the chunked upload.
HttpAnswer upload_media(const HttpRequest& request, const Grant& grant) {
    const auto form = parse_form(request);
    if (!form) return invalid("The body must be multipart/form-data.");
    const auto command = field(form->fields, "command");
    if (command == "INIT") return init_upload(form->fields, grant);
    if (command == "APPEND") return append_upload(*form, grant);
    if (command == "FINALIZE") return finalize_upload(form->fields, grant);
    if (!command.empty()) return invalid("command must be INIT, APPEND or FINALIZE.");
    if (!form->files.contains("media"))
        return invalid("The media field is required in a multipart/form-data body.");
    const auto category = form->fields.find("media_category");
    if (category == form->fields.end() ||
        (category->second != "tweet_image" && category->second != "dm_image" &&
         category->second != "subtitles"))
        return invalid("media_category must be one of tweet_image, dm_image, subtitles.");
    const json& file = form->files.at("media");
    const std::string type = file.value("content_type", "");
    if (!type.starts_with("image/")) return invalid("Unsupported media type: " + type);
    const long long size = file.value("bytes", 0LL);
    if (size > kMaxImageBytes)
        return invalid("File size exceeds " + std::to_string(kMaxImageBytes) + " bytes.");
    const std::string id = next_id();
    state().media[id] = {{"user_id", grant.user_id}, {"size", size}, {"content_type", type}};
    auto data = media_object(id, state().media[id]);
    data["image"] = {{"image_type", type}};
    return json_answer(200, {{"data", data}});
}

// POST /2/media/metadata {id, metadata: {alt_text: {text}}}: an uploaded image's description.
HttpAnswer media_metadata(const HttpRequest& request, const Grant& grant) {
    const json body = json::parse(request.body, nullptr, false);
    if (!body.is_object() || !body.contains("id") || !body["id"].is_string())
        return invalid("$.id: is required.");
    auto* media = own_media(body["id"].get<std::string>(), grant);
    if (!media) return invalid("Your media IDs are invalid.");
    const json alt = body.value("metadata", json::object()).value("alt_text", json::object());
    if (!alt.contains("text") || !alt["text"].is_string())
        return invalid("$.metadata.alt_text.text: is required.");
    const std::string text = alt["text"];
    if (utf8_chars(text) > kMaxAltTextChars)
        return invalid("$.metadata.alt_text.text: must be at most 1000 characters.");
    (*media)["alt_text"] = text;
    return json_answer(
        200, {{"data",
               {{"id", body["id"]}, {"associated_metadata", {{"alt_text", {{"text", text}}}}}}}});
}

// GET /2/tweets/:id: the post, with public_metrics when tweet.fields asks; one that does not
// exist is 200 with the problem under errors, as X answers lookups.
HttpAnswer lookup_tweet(const HttpRequest& request, const std::string& id) {
    const json* tweet = find_tweet(id);
    if (!tweet)
        return json_answer(
            200,
            {{"errors",
              json::array({{{"value", id},
                            {"detail", "Could not find tweet with id: [" + id + "]."},
                            {"title", "Not Found Error"},
                            {"resource_type", "tweet"},
                            {"parameter", "id"},
                            {"resource_id", id},
                            {"type", "https://api.twitter.com/2/problems/resource-not-found"}}})}});
    json data = {{"id", (*tweet)["id"]},
                 {"text", (*tweet)["text"]},
                 {"edit_history_tweet_ids", (*tweet)["edit_history_tweet_ids"]}};
    const auto fields = split(url_decode(request.query("tweet.fields")), ',');
    if (has(fields, "public_metrics")) data["public_metrics"] = (*tweet)["public_metrics"];
    if (has(fields, "author_id")) data["author_id"] = (*tweet)["author_id"];
    return json_answer(200, {{"data", data}});
}

// GET /2/tweets/search/recent with the one operator the fake knows, conversation_id:<id>: the
// posts of that conversation, newest first, max_results (10 to 100) a page from next_token (the
// position, as "b26v89c19zqg8o3f<n>"); the authors under includes.users when expansions asks.
HttpAnswer search_recent(const HttpRequest& request) {
    const std::string query = url_decode(request.query("query"));
    constexpr std::string_view kOperator = "conversation_id:";
    if (!query.starts_with(kOperator))
        return invalid("The fake X searches by conversation_id:<id> only.");
    const std::string conversation = query.substr(kOperator.size());
    int max_results = 10;
    if (const auto text = request.query("max_results"); !text.empty())
        max_results = std::atoi(text.c_str());
    if (max_results < 10 || max_results > 100)
        return invalid("The `max_results` query parameter value [" + request.query("max_results") +
                       "] is not between 10 and 100");
    json found = json::array();
    for (const auto& [user_id, tweets] : state().tweets.items())
        for (const auto& tweet : tweets)
            if (tweet["conversation_id"] == conversation && tweet["id"] != conversation)
                found.push_back(tweet);
    std::sort(found.begin(), found.end(), [](const json& a, const json& b) {
        return std::stoll(a["id"].get<std::string>()) > std::stoll(b["id"].get<std::string>());
    });
    constexpr std::string_view kToken = "b26v89c19zqg8o3f";
    const std::string next = request.query("next_token");
    const size_t from = next.starts_with(kToken) ? std::stoull(next.substr(kToken.size())) : 0;
    const auto fields = split(url_decode(request.query("tweet.fields")), ',');
    json data = json::array();
    json users = json::array();
    for (size_t i = from; i < found.size() && static_cast<int>(data.size()) < max_results; ++i) {
        const json& tweet = found[i];
        json item = {{"id", tweet["id"]},
                     {"text", tweet["text"]},
                     {"edit_history_tweet_ids", tweet["edit_history_tweet_ids"]}};
        for (const char* field : {"author_id", "created_at", "referenced_tweets"})
            if (has(fields, field) && tweet.contains(field)) item[field] = tweet[field];
        data.push_back(item);
        const auto& user = state().users.value(tweet["author_id"].get<std::string>(), json());
        if (!user.is_null() && std::none_of(users.begin(), users.end(),
                                            [&](const json& u) { return u["id"] == user["id"]; }))
            users.push_back(
                {{"id", user["id"]}, {"name", user["name"]}, {"username", user["username"]}});
    }
    json out = {{"meta", {{"result_count", data.size()}}}};
    if (!data.empty()) {
        out["data"] = data;
        out["meta"]["newest_id"] = data.front()["id"];
        out["meta"]["oldest_id"] = data.back()["id"];
    }
    if (url_decode(request.query("expansions")) == "author_id" && !users.empty())
        out["includes"] = {{"users", users}};
    if (from + data.size() < found.size())
        out["meta"]["next_token"] = std::string(kToken) + std::to_string(from + data.size());
    return json_answer(200, out);
}

// PUT /2/tweets/:id/hidden: only in a conversation the user started, and only a reply.
HttpAnswer hide_reply(const HttpRequest& request, const std::string& id, const Grant& grant) {
    json* reply = find_tweet(id);
    const json body = json::parse(request.body, nullptr, false);
    if (!body.is_object() || !body.contains("hidden") || !body["hidden"].is_boolean())
        return invalid("$.hidden: is required and must be a boolean.");
    if (!reply)
        return problem(404, "Not Found Error", "Could not find tweet with id: [" + id + "].");
    const json* root = find_tweet((*reply)["conversation_id"].get<std::string>());
    if ((*reply)["conversation_id"] == (*reply)["id"] || !root ||
        (*root)["author_id"] != grant.user_id)
        return problem(403, "Forbidden",
                       "You can only hide or unhide replies to conversations you authored.");
    (*reply)["hidden"] = body["hidden"];
    return json_answer(200, {{"data", {{"hidden", body["hidden"]}}}});
}

// POST /2/users/:id/likes for the token's own user.
HttpAnswer like_tweet(const HttpRequest& request, const std::string& user_id, const Grant& grant) {
    if (user_id != grant.user_id)
        return problem(403, "Forbidden", "You are not permitted to perform this action.");
    const json body = json::parse(request.body, nullptr, false);
    json* tweet = body.is_object() && body.value("tweet_id", json()).is_string()
                      ? find_tweet(body["tweet_id"].get<std::string>())
                      : nullptr;
    if (!tweet) return invalid("$.tweet_id: must name a post that exists.");
    auto& likes = (*tweet)["liked_by"];
    if (!likes.is_array()) likes = json::array();
    if (std::find(likes.begin(), likes.end(), json(grant.user_id)) == likes.end()) {
        likes.push_back(grant.user_id);
        (*tweet)["public_metrics"]["like_count"] =
            (*tweet)["public_metrics"]["like_count"].get<long long>() + 1;
    }
    return json_answer(200, {{"data", {{"liked", true}}}});
}

HttpAnswer rate_limited(long long reset) {
    HttpAnswer answer = problem(429, "Too Many Requests", "Too Many Requests");
    answer.headers = {{"x-rate-limit-limit", "100"},
                      {"x-rate-limit-remaining", "0"},
                      {"x-rate-limit-reset", std::to_string(reset)}};
    return answer;
}

// Each endpoint checks the scopes X's API reference lists for it.
HttpAnswer serve(const HttpRequest& request, const std::string& path) {
    auto& s = state();
    if (const auto limited = s.rate_limited.find(request.method + " " + path);
        limited != s.rate_limited.end()) {
        const long long reset = limited->second;
        s.rate_limited.erase(limited);
        return rate_limited(reset);
    }
    if (request.method == "GET" && path == "/i/oauth2/authorize") return consent(request);
    if (request.method == "POST" && path == "/2/oauth2/token") return token(request);
    const auto call = [&](std::initializer_list<std::string_view> needed, auto&& handler) {
        auto who = authorized(request, needed);
        if (auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
        return handler(std::get<Grant>(who));
    };
    constexpr std::string_view kTweets = "/2/tweets/";
    constexpr std::string_view kUsers = "/2/users/";
    if (request.method == "GET" && path == "/2/users/me")
        return call({"tweet.read", "users.read"},
                    [&](const Grant& grant) { return me(request, grant); });
    if (request.method == "POST" && path == "/2/tweets")
        return call({"tweet.read", "tweet.write", "users.read"},
                    [&](const Grant& grant) { return create_tweet(request, grant); });
    if (request.method == "GET" && path == "/2/tweets/search/recent")
        return call({"tweet.read", "users.read"},
                    [&](const Grant&) { return search_recent(request); });
    if (request.method == "PUT" && path.starts_with(kTweets) && path.ends_with("/hidden"))
        return call({"tweet.read", "users.read", "tweet.moderate.write"}, [&](const Grant& grant) {
            return hide_reply(request,
                              path.substr(kTweets.size(), path.size() - kTweets.size() - 7), grant);
        });
    if (request.method == "POST" && path.starts_with(kUsers) && path.ends_with("/likes"))
        return call({"tweet.read", "users.read", "like.write"}, [&](const Grant& grant) {
            return like_tweet(request, path.substr(kUsers.size(), path.size() - kUsers.size() - 6),
                              grant);
        });
    if (request.method == "GET" && path.starts_with(kTweets))
        return call({"tweet.read", "users.read"}, [&](const Grant&) {
            return lookup_tweet(request, path.substr(kTweets.size()));
        });
    if (request.method == "DELETE" && path.starts_with(kTweets))
        return call({"tweet.read", "tweet.write", "users.read"}, [&](const Grant& grant) {
            return delete_tweet(path.substr(kTweets.size()), grant);
        });
    if (request.method == "GET" && path.starts_with(kUsers) && path.ends_with("/tweets"))
        return call({"tweet.read", "users.read"}, [&](const Grant&) {
            return user_tweets(request,
                               path.substr(kUsers.size(), path.size() - kUsers.size() - 7));
        });
    if (request.method == "GET" && path == "/2/media/upload")
        return call({"media.write"},
                    [&](const Grant& grant) { return upload_status(request, grant); });
    if (request.method == "POST" && path == "/2/media/metadata")
        return call({"media.write"},
                    [&](const Grant& grant) { return media_metadata(request, grant); });
    if (request.method == "POST" && path == "/2/media/upload")
        return call({"media.write"},
                    [&](const Grant& grant) { return upload_media(request, grant); });
    return problem(404, "Not Found Error", "The requested resource could not be found.");
}

// oauth_client {client_id, client_secret}: the registered application. user {id, username,
// name, followers?, following?}. next_consent {user_id, scopes?, deny?}: how the next visit to the
// consent page answers (scopes: those granted of the ones asked, all by default). expire {user_id}:
// the user's access tokens stop working, as after two hours, while their refresh tokens still work.
// rate_limit {method, path, reset_in}: the next such call answers 429 until reset_in seconds from
// now. fail_processing {}: the next finalized video fails processing. tweet {user_id, text,
// reply_to?}: a post made in the X app. engagement {id, <public_metrics count>...}: people's likes,
// replies and views of a post, as its public_metrics count them.
std::optional<HttpAnswer> control(const std::string& action, const json& body) {
    auto& s = state();
    if (action == "oauth_client") {
        s.application = {body.at("client_id").get<std::string>(),
                         body.at("client_secret").get<std::string>()};
    } else if (action == "user") {
        s.users[body.at("id").get<std::string>()] = {{"id", body.at("id")},
                                                     {"username", body.at("username")},
                                                     {"name", body.at("name")},
                                                     {"followers", body.value("followers", 0)},
                                                     {"following", body.value("following", 0)}};
    } else if (action == "next_consent") {
        s.next_consent = body;
    } else if (action == "expire") {
        const auto user_id = body.at("user_id").get<std::string>();
        std::erase_if(s.access_tokens,
                      [&](const auto& token) { return token.second.user_id == user_id; });
    } else if (action == "rate_limit") {
        s.rate_limited[body.at("method").get<std::string>() + " " +
                       body.at("path").get<std::string>()] =
            unix_now() + body.value("reset_in", 60LL);
    } else if (action == "fail_processing") {
        s.fail_next_processing = true;
    } else if (action == "engagement") {
        json* tweet = find_tweet(body.at("id").get<std::string>());
        if (!tweet) return json_answer(404, {{"error", "no such post"}});
        for (const auto& [name, count] : body.items())
            if (name != "id") (*tweet)["public_metrics"][name] = count;
    } else if (action == "tweet") {
        const json* parent =
            body.contains("reply_to") ? find_tweet(body["reply_to"].get<std::string>()) : nullptr;
        if (body.contains("reply_to") && !parent)
            return json_answer(404, {{"error", "no post to reply to"}});
        return json_answer(200,
                           store_tweet(body.at("user_id").get<std::string>(),
                                       body.at("text").get<std::string>(), json::array(), parent));
    } else {
        return std::nullopt;
    }
    return json_answer(200, json::object());
}

// The user revoked the token (an access or a refresh token) in their settings.
void revoke(const std::string& token) {
    state().access_tokens.erase(token);
    state().refresh_tokens.erase(token);
}

json messages() {
    return state().tweets;
}

// The registered application stays: the test support registers it once, when the fake starts.
void reset() {
    State fresh;
    fresh.application = state().application;
    state() = std::move(fresh);
}

constexpr FakePlatform kFake{"x", &serve, &control, &revoke, &messages, &reset};
const FakeRegistration kRegistration(kFake);

}  // namespace
}  // namespace squawk::fakes::platforms::x
