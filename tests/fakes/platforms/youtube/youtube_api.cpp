// The fake YouTube Data API v3 under /youtube: Google's OAuth endpoints (google_oauth.cpp), the
// resumable upload (resumable_upload.cpp) and the resources (data_api.cpp), each checking the
// scopes Google lists for it, with Google's error body {error: {code, message, errors: [{message,
// domain, reason}], status}}; its control actions and registration.
#include "tests/fakes/platforms/youtube/youtube_fake.hpp"

#include <algorithm>
#include <random>

namespace squawk::fakes::platforms::youtube {

using nlohmann::json;

State& state() {
    return fake_state<State>();
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

HttpAnswer google_error(int status, const std::string& reason, const std::string& message,
                        const std::string& domain) {
    static const std::map<int, std::string> kStatus = {
        {400, "INVALID_ARGUMENT"}, {401, "UNAUTHENTICATED"}, {403, "PERMISSION_DENIED"},
        {404, "NOT_FOUND"},        {500, "INTERNAL"},        {503, "UNAVAILABLE"}};
    const auto name = kStatus.find(status);
    return json_answer(
        status, {{"error",
                  {{"code", status},
                   {"message", message},
                   {"errors",
                    json::array({{{"message", message}, {"domain", domain}, {"reason", reason}}})},
                   {"status", name == kStatus.end() ? "UNKNOWN" : name->second}}}});
}

std::variant<Grant, HttpAnswer> authorized(const HttpRequest& request,
                                           std::initializer_list<std::string_view> accepted) {
    const auto& tokens = state().access_tokens;
    const auto auth = request.headers.find("authorization");
    const auto token = auth == request.headers.end() || !auth->second.starts_with("Bearer ")
                           ? tokens.end()
                           : tokens.find(auth->second.substr(7));
    if (token == tokens.end()) {
        auto answer = google_error(401, "authError",
                                   "Request had invalid authentication credentials. Expected "
                                   "OAuth 2 access token, login cookie or other valid "
                                   "authentication credential.",
                                   "global");
        answer.headers = {{"WWW-Authenticate", "Bearer realm=\"https://accounts.google.com/\""}};
        return answer;
    }
    const auto& scopes = token->second.scopes;
    for (const auto scope : accepted)
        if (std::find(scopes.begin(), scopes.end(), scope) != scopes.end()) return token->second;
    return google_error(403, "insufficientPermissions",
                        "Request had insufficient authentication scopes.", "global");
}

namespace {

// The scopes Google's reference lists for reading and for changing a channel's resources.
constexpr std::initializer_list<std::string_view> kReaders = {kReadScope, kManageScope,
                                                              kForceSslScope, kPartnerScope};
constexpr std::initializer_list<std::string_view> kEditors = {kManageScope, kForceSslScope,
                                                              kPartnerScope};

// Google's words for the reasons tests make the API answer (control "fail").
HttpAnswer failure(const std::string& reason) {
    if (reason == "quotaExceeded")
        return google_error(403, reason,
                            "The request cannot be completed because you have exceeded your "
                            "<a href=\"/youtube/v3/getting-started#quota\">quota</a>.",
                            "youtube.quota");
    if (reason == "rateLimitExceeded" || reason == "userRateLimitExceeded") {
        auto answer = google_error(403, reason, "Rate Limit Exceeded", "usageLimits");
        answer.headers = {{"Retry-After", "30"}};
        return answer;
    }
    if (reason == "uploadLimitExceeded")
        return google_error(400, reason,
                            "The user has exceeded the number of videos they may upload.",
                            "youtube.video");
    if (reason == "backendError") return google_error(503, reason, "Backend Error", "global");
    return google_error(400, reason, reason, "global");
}

std::optional<HttpAnswer> programmed_failure(const std::string& path) {
    for (auto& [match, reasons] : state().failures) {
        if (reasons.empty() || path.find(match) == std::string::npos) continue;
        const auto reason = reasons.front();
        reasons.erase(reasons.begin());
        return failure(reason);
    }
    return std::nullopt;
}

// A session's answer with its Location moved to the upload_host a test set.
HttpAnswer upload_elsewhere(HttpAnswer answer) {
    const auto& host = state().upload_host;
    if (!host) return answer;
    for (auto& [name, value] : answer.headers)
        if (name == "Location")
            value = "http://" + *host + value.substr(value.find('/', value.find("://") + 3));
    return answer;
}

HttpAnswer serve(const HttpRequest& request, const std::string& path) {
    if (request.method == "GET" && path == "/o/oauth2/v2/auth") return consent(request);
    if (request.method == "POST" && path == "/token") return token(request);
    if (const auto failed = programmed_failure(path)) return *failed;
    const auto call = [&](std::initializer_list<std::string_view> accepted, auto&& handler) {
        auto who = authorized(request, accepted);
        if (auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
        return handler(std::get<Grant>(who));
    };
    const auto& m = request.method;
    if (path == "/upload/youtube/v3/videos") {
        if (m == "POST") return upload_elsewhere(start_upload(request));
        if (m == "PUT") return upload_chunk(request);
    }
    if (m == "GET" && path == "/youtube/v3/channels")
        return call(kReaders, [&](const Grant& grant) { return channels(request, grant); });
    if (m == "GET" && path == "/youtube/v3/videos")
        return call(kReaders, [&](const Grant& grant) { return list_videos(request, grant); });
    if (m == "PUT" && path == "/youtube/v3/videos")
        return call(kEditors, [&](const Grant& grant) { return update_video(request, grant); });
    if (m == "DELETE" && path == "/youtube/v3/videos")
        return call(kEditors, [&](const Grant& grant) { return delete_video(request, grant); });
    if (m == "GET" && path == "/youtube/v3/commentThreads")
        return call(kReaders, [&](const Grant&) { return comment_threads(request); });
    if (m == "GET" && path == "/youtube/v3/comments")
        return call(kReaders, [&](const Grant&) { return list_comments(request); });
    if (m == "POST" && path == "/youtube/v3/comments")
        return call({kForceSslScope},
                    [&](const Grant& grant) { return insert_comment(request, grant); });
    if (m == "POST" && path == "/youtube/v3/comments/setModerationStatus")
        return call({kForceSslScope},
                    [&](const Grant& grant) { return moderate_comment(request, grant); });
    if (m == "DELETE" && path == "/youtube/v3/comments")
        return call({kForceSslScope},
                    [&](const Grant& grant) { return delete_comment(request, grant); });
    if (m == "GET" && path == "/youtube/v3/playlistItems")
        return call(kReaders, [&](const Grant&) { return playlist_items(request); });
    return google_error(404, "notFound", "Not Found", "global");
}

// oauth_client {client_id, client_secret}: the registered application. channel {user_id, id,
// title, custom_url, subscribers?, views?, hidden_subscribers?}: a Google account's channel.
// next_consent {user_id, scopes?, deny?}: how the next visit to the consent page answers.
// expire {user_id}: the account's access tokens stop working (an hour passed); refresh tokens
// still work. fail {match, reasons}: the next API calls whose path contains match answer these
// Google error reasons (quotaExceeded, rateLimitExceeded, uploadLimitExceeded, backendError).
// partial_chunk {first, bytes}: the chunk starting at byte `first` keeps only `bytes` of them.
// statistics {video_id, views, likes, comments}. comment {video_id, channel_id, name, text,
// parent_id?}: someone's comment (or reply) in the YouTube app; answers its id. uploads {}: the
// upload sessions with the Content-Range of each chunk. upload_host {host}: the next sessions'
// Location names this host:port.
std::optional<HttpAnswer> control(const std::string& action, const json& body) {
    auto& s = state();
    if (action == "oauth_client") {
        s.client_id = body.at("client_id").get<std::string>();
        s.client_secret = body.at("client_secret").get<std::string>();
    } else if (action == "channel") {
        s.channels[body.at("user_id").get<std::string>()] = {
            {"id", body.at("id")},
            {"title", body.at("title")},
            {"customUrl", body.value("custom_url", "")},
            {"subscriberCount", std::to_string(body.value("subscribers", 0LL))},
            {"viewCount", std::to_string(body.value("views", 0LL))},
            {"hiddenSubscriberCount", body.value("hidden_subscribers", false)}};
    } else if (action == "next_consent") {
        s.next_consent = body;
    } else if (action == "expire") {
        const auto user_id = body.at("user_id").get<std::string>();
        std::erase_if(s.access_tokens,
                      [&](const auto& token) { return token.second.user_id == user_id; });
    } else if (action == "fail") {
        auto& reasons = s.failures[body.at("match").get<std::string>()];
        for (const auto& reason : body.at("reasons")) reasons.push_back(reason.get<std::string>());
    } else if (action == "partial_chunk") {
        s.partial_chunk = State::PartialChunk{body.at("first").get<long long>(),
                                              body.at("bytes").get<long long>()};
    } else if (action == "statistics") {
        const auto id = body.at("video_id").get<std::string>();
        if (!s.videos.contains(id)) return json_answer(404, {{"error", "no such video"}});
        s.videos[id]["statistics"] = {
            {"viewCount", std::to_string(body.value("views", 0LL))},
            {"likeCount", std::to_string(body.value("likes", 0LL))},
            {"favoriteCount", "0"},
            {"commentCount", std::to_string(body.value("comments", 0LL))}};
    } else if (action == "comment") {
        return json_answer(
            200, {{"id", store_comment(body.at("video_id"), body.value("parent_id", ""),
                                       body.at("channel_id"), body.at("name"), body.at("text"))}});
    } else if (action == "upload_host") {
        s.upload_host = body.at("host").get<std::string>();
    } else if (action == "uploads") {
        json out = json::object();
        for (const auto& [id, upload] : s.uploads)
            out[id] = {{"pieces", upload.pieces},
                       {"received", upload.received},
                       {"total", upload.total},
                       {"video_id", upload.video_id}};
        return json_answer(200, out);
    } else {
        return std::nullopt;
    }
    return json_answer(200, json::object());
}

void revoke(const std::string& token) {
    state().access_tokens.erase(token);
    state().refresh_tokens.erase(token);
}

// The videos by channel id, oldest first.
json messages() {
    json out = json::object();
    for (const auto& id : state().video_order) {
        const json& video = state().videos[id];
        out[video["snippet"]["channelId"].get<std::string>()].push_back(
            video_resource(video, "snippet,status"));
    }
    return out;
}

// The registered application stays: the test support registers it once, when the fake starts.
void reset() {
    State fresh;
    fresh.client_id = state().client_id;
    fresh.client_secret = state().client_secret;
    state() = std::move(fresh);
}

constexpr FakePlatform kFake{"youtube", &serve, &control, &revoke, &messages, &reset};
const FakeRegistration kRegistration(kFake);

}  // namespace
}  // namespace squawk::fakes::platforms::youtube
