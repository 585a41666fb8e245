#include "common/extensions/platforms/youtube/connector.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/domain/social/platform_api.hpp"
#include "common/extensions/platforms/youtube/comments.hpp"
#include "common/extensions/platforms/youtube/factory.hpp"
#include "common/extensions/platforms/youtube/google_api.hpp"
#include "common/extensions/platforms/youtube/resumable_upload.hpp"
#include "common/extensions/platforms/youtube/video_metadata.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace squawk::social::youtube {
namespace {

using nlohmann::json;

// Google's token endpoint takes the client's id and secret among the form fields and words
// refusals as RFC 6749 does; the path stands in only when no token_url is configured.
constexpr TokenEndpoint kTokenEndpoint{kFactory.default_token_url, ClientAuthentication::body};

const std::string kApi = "/youtube/v3/";

// YouTube's video ids: 11 characters of base64url.
bool is_video_id(std::string_view text) {
    return text.size() == 11 && std::all_of(text.begin(), text.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
           });
}

std::string watch_url(const std::string& id, bool short_video) {
    return short_video ? "https://www.youtube.com/shorts/" + id
                       : "https://www.youtube.com/watch?v=" + id;
}

// Google writes 64-bit counts as strings ("statistics": {"viewCount": "1024"}).
std::optional<long long> count(const json& object, const char* name) {
    const auto text = json_text(object, name);
    long long value = 0;
    const char* end = text.data() + text.size();
    if (text.empty() || std::from_chars(text.data(), end, value).ptr != end) return std::nullopt;
    return value;
}

// The first item of a list answer; null when there is none.
json first_item(const json& list) {
    if (!list.contains("items") || !list["items"].is_array() || list["items"].empty())
        return nullptr;
    return list["items"][0];
}

class YouTubeConnector final : public Connector {
  public:
    YouTubeConnector(const config::PlatformSettings& settings, http::Client& http)
        : Connector(kFactory), api_(settings, http) {}

    // The credentials are a token grant (exchange_code), never typed by a client.
    std::vector<FieldProblem> check(Credentials& credentials) const override {
        const auto token = credentials.find("access_token");
        if (token != credentials.end() && !token->second.empty()) return {};
        return {{"access_token",
                 "YouTube channels connect through OAuth: GET "
                 "/v1/social/connect/youtube/authorize"}};
    }

    // The channel the token's Google account owns; an account without one cannot upload.
    Verification verify(const Credentials& credentials) override {
        Verification v;
        auto channels = get("channels?part=snippet,statistics&mine=true", credentials, kReadScope);
        if (channels.failure) {
            v.failure = std::move(channels.failure);
            return v;
        }
        const json channel = first_item(channels.body);
        if (channel.is_null() || json_text(channel, "id").empty()) {
            v.failure = refusal("this Google account has no YouTube channel", 200);
            v.failure->field = "access_token";
            return v;
        }
        const json snippet = channel.value("snippet", json::object());
        v.identity = Identity{json_text(channel, "id"), json_text(snippet, "title"),
                              json_text(snippet, "customUrl")};
        return v;
    }

    Publication publish(const Target& target, const Message& message) override {
        Publication p;
        const auto video = video_resource(message);
        if (video.problem) {
            p.failure = refusal(*video.problem);
            return p;
        }
        auto uploaded =
            upload_video(api_, bearer(target.credentials), *message.video, video.resource);
        if (uploaded.failure) {
            p.failure = std::move(uploaded.failure);
            return p;
        }
        const json& resource = uploaded.body;
        p.message_id = json_text(resource, "id");
        if (p.message_id.empty()) {
            p.failure = PlatformFailure{FailureKind::unknown_outcome,
                                        "YouTube finished the upload without naming the video",
                                        std::nullopt, 200, ""};
            return p;
        }
        // A rejected upload (a duplicate, a file YouTube cannot read) stays on the channel as a
        // failed video: not a publication.
        const json status = resource.value("status", json::object());
        const auto upload_status = json_text(status, "uploadStatus");
        if (upload_status == "rejected" || upload_status == "failed") {
            auto why = json_text(status,
                                 upload_status == "rejected" ? "rejectionReason" : "failureReason");
            p.failure = refusal("YouTube " + upload_status + " the video" +
                                    (why.empty() ? std::string() : ": " + why),
                                200);
            return p;
        }
        p.url = watch_url(p.message_id, message.post_type == "short");
        return p;
    }

    // videos.update replaces the whole snippet: the video's category, tags and languages are read
    // first and sent back with the new title and description.
    MessageChange edit(const Target& target, const std::string& external_id,
                       const Message& message) override {
        if (!is_video_id(external_id))
            return {refusal("'" + external_id + "' is not the id of a YouTube video")};
        if (message.text.size() > kMaxDescriptionBytes)
            return {refusal("YouTube takes a description of at most 5000 bytes")};
        if (message.text.find_first_of("<>") != std::string::npos)
            return {refusal("YouTube refuses a description containing '<' or '>'")};
        auto current =
            get("videos?part=snippet&id=" + external_id, target.credentials, kManageScope);
        if (current.failure) return {std::move(current.failure)};
        const json video = first_item(current.body);
        if (video.is_null()) return {refusal("YouTube has no video " + external_id, 404)};
        const json old = video.value("snippet", json::object());
        json snippet = {{"title", message.options.contains("title") ? title_of(message)
                                                                    : json_text(old, "title")},
                        {"description", message.text},
                        {"categoryId", json_text(old, "categoryId")}};
        for (const char* kept : {"tags", "defaultLanguage", "defaultAudioLanguage"})
            if (old.contains(kept)) snippet[kept] = old[kept];
        auto updated =
            read_resource(api_.send("PUT", kApi + "videos?part=snippet", bearer(target.credentials),
                                    json{{"id", external_id}, {"snippet", snippet}}),
                          kManageScope);
        return {std::move(updated.failure)};
    }

    std::optional<CommentListing> list_comments(const Target& target,
                                                const std::string& external_id,
                                                const std::string& cursor) override {
        CommentListing listing;
        if (!is_video_id(external_id)) {
            listing.failure = refusal("'" + external_id + "' is not the id of a YouTube video");
            return listing;
        }
        return comment_threads(api_, target.credentials, external_id, cursor);
    }

    std::optional<Publication> reply_to_comment(const Target& target, const std::string& comment_id,
                                                const Message& message) override {
        return reply_to(api_, target.credentials, comment_id, message.text);
    }

    std::optional<MessageChange> moderate_comment(const Target& target,
                                                  const std::string& comment_id,
                                                  Moderation moderation) override {
        return moderate(api_, target, comment_id, moderation);
    }

    // A video already gone (404 videoNotFound) counts as deleted: removing may be repeated.
    MessageChange remove(const Target& target, const std::string& external_id) override {
        if (!is_video_id(external_id))
            return {refusal("'" + external_id + "' is not the id of a YouTube video")};
        const auto response =
            api_.send("DELETE", kApi + "videos?id=" + external_id, bearer(target.credentials));
        if (response.status == 204 || response.status == 404) return {};
        auto answer = read_resource(response, kManageScope);
        return {std::move(answer.failure)};
    }

    // The channel's uploads playlist, newest first: each video's description is its text.
    std::optional<RemoteListing> list_recent(const Target& target) override {
        RemoteListing listing;
        auto channels =
            get("channels?part=contentDetails&mine=true", target.credentials, kReadScope);
        if (channels.failure) {
            listing.failure = std::move(channels.failure);
            return listing;
        }
        const json channel = first_item(channels.body);
        const auto uploads = channel.is_null()
                                 ? std::string()
                                 : json_text(channel.value("contentDetails", json::object())
                                                 .value("relatedPlaylists", json::object()),
                                             "uploads");
        if (uploads.empty()) {
            listing.failure = refusal("this Google account's channel has no uploads playlist", 200);
            return listing;
        }
        auto items = get("playlistItems?part=snippet,contentDetails&maxResults=50&playlistId=" +
                             http::percent_encode(uploads),
                         target.credentials, kReadScope);
        if (items.failure) {
            listing.failure = std::move(items.failure);
            return listing;
        }
        for (const auto& item : items.body.value("items", json::array())) {
            const json snippet = item.value("snippet", json::object());
            const json details = item.value("contentDetails", json::object());
            const auto id = json_text(snippet.value("resourceId", json::object()), "videoId");
            auto at = time::parse_iso8601(json_text(details, "videoPublishedAt"));
            if (!at) at = time::parse_iso8601(json_text(snippet, "publishedAt"));
            if (!is_video_id(id) || !at) continue;
            RemotePost post;
            post.external_id = id;
            post.text = json_text(snippet, "description");
            post.url = watch_url(id, false);
            post.published_at = *at;
            listing.posts.push_back(std::move(post));
        }
        std::stable_sort(listing.posts.begin(), listing.posts.end(),
                         [](const RemotePost& a, const RemotePost& b) {
                             return a.published_at > b.published_at;
                         });
        return listing;
    }

    // Subscribers (unless the channel hides them) as followers and the channel's views.
    std::optional<MetricsReading> account_metrics(const Target& target) override {
        MetricsReading reading;
        auto channels = get("channels?part=statistics&mine=true", target.credentials, kReadScope);
        if (channels.failure) {
            reading.failure = std::move(channels.failure);
            return reading;
        }
        const json channel = first_item(channels.body);
        if (channel.is_null()) {
            reading.failure = refusal("this Google account has no YouTube channel", 200);
            return reading;
        }
        const json statistics = channel.value("statistics", json::object());
        if (!statistics.value("hiddenSubscriberCount", false))
            reading.metrics.followers = count(statistics, "subscriberCount");
        reading.metrics.video_views = count(statistics, "viewCount");
        return reading;
    }

    std::optional<MetricsReading> post_metrics(const Target& target,
                                               const std::string& external_id) override {
        MetricsReading reading;
        if (!is_video_id(external_id)) {
            reading.failure = refusal("'" + external_id + "' is not the id of a YouTube video");
            return reading;
        }
        auto videos =
            get("videos?part=statistics&id=" + external_id, target.credentials, kReadScope);
        if (videos.failure) {
            reading.failure = std::move(videos.failure);
            return reading;
        }
        const json video = first_item(videos.body);
        if (video.is_null()) {
            reading.failure = refusal("YouTube has no video " + external_id, 404);
            return reading;
        }
        const json statistics = video.value("statistics", json::object());
        reading.metrics.video_views = count(statistics, "viewCount");
        reading.metrics.likes = count(statistics, "likeCount");
        reading.metrics.comments = count(statistics, "commentCount");
        return reading;
    }

    // Google gives a refresh token only for offline access, and again only when the user is
    // asked to consent: without prompt=consent a second connection would get none.
    std::string authorize_url(const OAuthClient& client, const std::string& state,
                              const std::string& code_challenge) const override {
        return consent_url(client, kFactory.oauth_scopes, " ", state, code_challenge) + "&" +
               http::form_encode({{"access_type", "offline"}, {"prompt", "consent"}});
    }

    TokenGrant exchange_code(const OAuthClient& client, const std::string& code,
                             const std::string& code_verifier) override {
        return exchange_authorization_code(api_, kTokenEndpoint, client, code, code_verifier);
    }

    // Google's answer to a refresh carries no refresh token: the stored one stays in use.
    TokenGrant refresh(const OAuthClient& client, const Credentials& current) override {
        return refresh_access_token(api_, kTokenEndpoint, client, current);
    }

  private:
    Answer get(const std::string& path, const Credentials& credentials, std::string_view scope) {
        return read_resource(api_.send("GET", kApi + path, bearer(credentials)), scope);
    }

    PlatformApi api_;
};

}  // namespace

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http) {
    return std::make_unique<YouTubeConnector>(settings, http);
}

}  // namespace squawk::social::youtube
