// What the parts of the fake YouTube share: its state (the OAuth application and grants, the
// channels, the videos and the upload sessions), Google's error body, and who a bearer token is.
#pragma once

#include "tests/fakes/platforms/fake_platform.hpp"

#include <chrono>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace squawk::fakes::platforms::youtube {

inline constexpr std::string_view kUploadScope = "https://www.googleapis.com/auth/youtube.upload";
inline constexpr std::string_view kReadScope = "https://www.googleapis.com/auth/youtube.readonly";
inline constexpr std::string_view kForceSslScope =
    "https://www.googleapis.com/auth/youtube.force-ssl";
inline constexpr std::string_view kManageScope = "https://www.googleapis.com/auth/youtube";
inline constexpr std::string_view kPartnerScope = "https://www.googleapis.com/auth/youtubepartner";

// What a token or a code grants: the Google account and the scopes it agreed to.
struct Grant {
    std::string user_id;
    std::vector<std::string> scopes;
};

struct Code {
    Grant grant;
    std::string redirect_uri;
    std::string challenge;  // empty: the consent asked no PKCE
    bool offline = false;   // access_type=offline: the code buys a refresh token too
    std::chrono::steady_clock::time_point issued;
};

// A resumable upload session: the metadata it started with and the bytes received so far.
struct UploadSession {
    std::string user_id;
    nlohmann::json resource;
    long long total = 0;
    long long received = 0;
    std::vector<std::string> pieces;  // the Content-Range of every chunk that brought bytes
    std::string video_id;             // once every byte arrived
};

struct State {
    std::string client_id;
    std::string client_secret;
    // Google account id -> its channel {id, title, customUrl, subscriberCount, viewCount,
    // hiddenSubscriberCount}; an account without an entry has no channel.
    nlohmann::json channels = nlohmann::json::object();
    std::optional<nlohmann::json> next_consent;     // {user_id, scopes?, deny?}
    std::map<std::string, bool> consented_offline;  // accounts that gave offline access once
    std::map<std::string, Code> codes;
    std::map<std::string, Grant> access_tokens;
    std::map<std::string, Grant> refresh_tokens;
    std::map<std::string, UploadSession> uploads;  // upload_id -> session
    // The chunk starting at `first` keeps only its first `bytes`, as a connection broken in the
    // middle of its body would.
    struct PartialChunk {
        long long first = 0;
        long long bytes = 0;
    };
    std::optional<PartialChunk> partial_chunk;
    // host:port the next upload sessions' Location names instead of the fake's own (control
    // "upload_host"), as a compromised or misconfigured front could.
    std::optional<std::string> upload_host;
    // video id -> {id, user_id, snippet, status, statistics}, in upload order
    nlohmann::json videos = nlohmann::json::object();
    std::vector<std::string> video_order;
    // comment id -> {id, video_id, parent_id ("" for a top-level comment), author_channel_id,
    // author_name, text, published_at, moderation (published, heldForReview or rejected)}, and
    // the ids in the order they were made.
    nlohmann::json comments = nlohmann::json::object();
    std::vector<std::string> comment_order;
    // Path fragment -> the error reasons its next calls answer, one each (control "fail").
    std::map<std::string, std::vector<std::string>> failures;
};

State& state();

// {error: {code, message, errors: [{message, domain, reason}], status}} as Google answers.
HttpAnswer google_error(int status, const std::string& reason, const std::string& message,
                        const std::string& domain = "youtube.api");

// The grant of the request's bearer token, or Google's 401; a grant holding none of `accepted`
// (any one of them authorizes the call) is Google's 403 insufficientPermissions.
std::variant<Grant, HttpAnswer> authorized(const HttpRequest& request,
                                           std::initializer_list<std::string_view> accepted);

// Letters, digits, '-' and '_', as Google's ids and tokens.
std::string random_text(size_t length);

// The OAuth endpoints (google_oauth.cpp): the consent page and the token endpoint.
HttpAnswer consent(const HttpRequest& request);
HttpAnswer token(const HttpRequest& request);

// The resumable upload (resumable_upload.cpp): POST starting a session, PUT of a chunk or a
// status query to the session's URL.
HttpAnswer start_upload(const HttpRequest& request);
HttpAnswer upload_chunk(const HttpRequest& request);

// The resources (data_api.cpp), for the grant the bearer token carries.
HttpAnswer channels(const HttpRequest& request, const Grant& grant);
HttpAnswer list_videos(const HttpRequest& request, const Grant& grant);
HttpAnswer update_video(const HttpRequest& request, const Grant& grant);
HttpAnswer delete_video(const HttpRequest& request, const Grant& grant);
HttpAnswer playlist_items(const HttpRequest& request);

// The comments (comments_api.cpp): threads of a video, replies and lookups, a reply, moderation
// by the video's channel and deletion by the author.
HttpAnswer comment_threads(const HttpRequest& request);
HttpAnswer list_comments(const HttpRequest& request);
HttpAnswer insert_comment(const HttpRequest& request, const Grant& grant);
HttpAnswer moderate_comment(const HttpRequest& request, const Grant& grant);
HttpAnswer delete_comment(const HttpRequest& request, const Grant& grant);
// A comment on `video_id` by `author_channel_id` (a reply when parent_id names one); its id.
std::string store_comment(const std::string& video_id, const std::string& parent_id,
                          const std::string& author_channel_id, const std::string& author_name,
                          const std::string& text);

// The video resource with the parts asked for ("snippet,status"); all of them when empty.
nlohmann::json video_resource(const nlohmann::json& video, const std::string& parts = "");
// A new video from a finished upload session; returns its id.
std::string store_video(const UploadSession& session);

}  // namespace squawk::fakes::platforms::youtube
