#include "common/extensions/platforms/tiktok/connector.hpp"

#include "common/domain/social/platform_api.hpp"
#include "common/extensions/platforms/tiktok/answers.hpp"
#include "common/extensions/platforms/tiktok/factory.hpp"
#include "common/extensions/platforms/tiktok/options.hpp"
#include "common/extensions/platforms/tiktok/tokens.hpp"
#include "common/extensions/platforms/tiktok/upload.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <iterator>

namespace squawk::social::tiktok {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr std::string_view kPublish = "video.publish";
constexpr std::string_view kList = "video.list";

// Pauses between status reads of a post TikTok is still processing: it readies most videos in
// under half a minute, and a publish should not hold its worker for the hours moderation may
// sometimes take. A post still processing after them has an unknown outcome: it may yet appear.
constexpr std::chrono::milliseconds kStatusPauses[] = {250ms, 500ms, 1s, 2s, 4s, 8s, 15s};

// Ids are 64-bit numbers, which TikTok writes as JSON strings or (publicaly_available_post_id)
// numbers.
std::string id_text(const json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number_unsigned()) return std::to_string(value.get<unsigned long long>());
    if (value.is_number_integer()) return std::to_string(value.get<long long>());
    return {};
}

class TikTokConnector final : public Connector {
  public:
    TikTokConnector(const config::PlatformSettings& settings, http::Client& http)
        : Connector(kFactory), api_(settings, http) {}

    // The credentials are a token grant (exchange_code), never typed by a client.
    std::vector<FieldProblem> check(Credentials& credentials) const override {
        const auto token = credentials.find("access_token");
        if (token != credentials.end() && !token->second.empty()) return {};
        return {{"access_token",
                 "TikTok accounts connect through OAuth: GET /v1/social/connect/tiktok/authorize"}};
    }

    Verification verify(const Credentials& credentials) override {
        Verification v;
        auto user = user_info(credentials, "open_id,display_name,username",
                              "user.info.basic or user.info.profile");
        if (user.failure) {
            v.failure = std::move(user.failure);
            return v;
        }
        Identity identity{json_text(user.body, "open_id"), json_text(user.body, "display_name"),
                          json_text(user.body, "username")};
        if (identity.external_id.empty()) {
            v.failure = refusal("TikTok's user answer has no open_id", 200);
            v.failure->field = "access_token";
            return v;
        }
        if (identity.display_name.empty()) identity.display_name = identity.handle;
        v.identity = std::move(identity);
        return v;
    }

    // Direct Post: the creator's settings, the post initialized (a video with its chunk plan, or
    // photos by URL), a video's chunks uploaded, then the post's status read until TikTok
    // published it or gave up on it.
    Publication publish(const Target& target, const Message& message) override {
        Publication p;
        const auto auth = bearer(target.credentials);
        const bool video = message.video.has_value();
        if (auto problem = media_problem(message)) {
            p.failure = refusal(std::move(*problem));
            return p;
        }
        auto creator =
            read(api_.send("POST", "/v2/post/publish/creator_info/query/", auth, json::object()),
                 kPublish);
        if (creator.failure) {
            p.failure = nothing_published(std::move(*creator.failure));
            return p;
        }
        const auto settings = creator_info_of(creator.body);
        if (video && settings.max_video_seconds > 0 &&
            message.video->duration_seconds > static_cast<double>(settings.max_video_seconds)) {
            p.failure = refusal("this TikTok account posts videos of at most " +
                                std::to_string(settings.max_video_seconds) + " seconds");
            return p;
        }
        auto info = post_info(message.options, settings, video);
        if (info.refusal) {
            p.failure = refusal(std::move(*info.refusal));
            return p;
        }
        auto started = video ? start_video(auth, message, std::move(info.body))
                             : start_photos(auth, message, std::move(info.body));
        if (started.failure) {
            p.failure = std::move(started.failure);
            return p;
        }
        const auto publish_id = json_text(started.body, "publish_id");
        if (publish_id.empty()) {
            p.failure = refusal("TikTok started the post without naming it", 200);
            p.failure->kind = FailureKind::unknown_outcome;
            return p;
        }
        if (video) {
            const auto upload_url = json_text(started.body, "upload_url");
            if (upload_url.empty()) {
                p.failure = refusal("TikTok gave no upload_url for the video", 200);
                return p;
            }
            const auto plan = chunk_plan(message.video->bytes);
            if (auto failure = upload_chunks(api_, upload_url, *message.video, plan)) {
                p.failure = std::move(failure);
                return p;
            }
        }
        return wait_until_published(auth, publish_id, target.identity.handle);
    }

    // The account's videos, newest first as TikTok lists them (at most 20 a page; the first is
    // enough to import what was posted natively since the last look).
    std::optional<RemoteListing> list_recent(const Target& target) override {
        RemoteListing listing;
        auto answer = read(api_.send("POST",
                                     "/v2/video/list/?fields=id,title,video_description,"
                                     "create_time,share_url",
                                     bearer(target.credentials), json{{"max_count", 20}}),
                           kList);
        if (answer.failure) {
            listing.failure = std::move(answer.failure);
            return listing;
        }
        for (const auto& item : answer.body.value("videos", json::array())) {
            const auto id = item.is_object() ? id_text(item.value("id", json())) : "";
            const auto created = json_integer(item, "create_time");
            if (id.empty() || !created) continue;
            RemotePost post;
            post.external_id = id;
            post.text = json_text(item, "video_description");
            if (post.text.empty()) post.text = json_text(item, "title");
            if (auto link = json_text(item, "share_url"); !link.empty()) post.url = std::move(link);
            post.published_at = time::TimePoint(std::chrono::seconds(*created));
            listing.posts.push_back(std::move(post));
        }
        return listing;
    }

    std::optional<MetricsReading> account_metrics(const Target& target) override {
        MetricsReading reading;
        auto user = user_info(target.credentials, "follower_count,following_count,likes_count",
                              "user.info.stats");
        if (user.failure) {
            reading.failure = std::move(user.failure);
            return reading;
        }
        reading.metrics.followers = json_integer(user.body, "follower_count");
        reading.metrics.following = json_integer(user.body, "following_count");
        reading.metrics.likes = json_integer(user.body, "likes_count");
        return reading;
    }

    std::optional<MetricsReading> post_metrics(const Target& target,
                                               const std::string& external_id) override {
        MetricsReading reading;
        auto answer = read(
            api_.send("POST",
                      "/v2/video/query/?fields=id,like_count,comment_count,share_count,view_count",
                      bearer(target.credentials),
                      json{{"filters", {{"video_ids", json::array({external_id})}}}}),
            kList);
        if (answer.failure) {
            reading.failure = std::move(answer.failure);
            return reading;
        }
        for (const auto& item : answer.body.value("videos", json::array())) {
            if (!item.is_object() || id_text(item.value("id", json())) != external_id) continue;
            reading.metrics.likes = json_integer(item, "like_count");
            reading.metrics.comments = json_integer(item, "comment_count");
            reading.metrics.shares = json_integer(item, "share_count");
            reading.metrics.video_views = json_integer(item, "view_count");
            return reading;
        }
        reading.failure = refusal("TikTok has no video " + external_id + " of this account", 200);
        return reading;
    }

    std::string authorize_url(const OAuthClient& client, const std::string& state,
                              const std::string& code_challenge) const override {
        return consent_address(client, state, code_challenge);
    }

    TokenGrant exchange_code(const OAuthClient& client, const std::string& code,
                             const std::string& code_verifier) override {
        return exchange(api_, client, code, code_verifier);
    }

    // TikTok may answer a refresh with a new refresh token, which then replaces the stored one.
    TokenGrant refresh(const OAuthClient& client, const Credentials& current) override {
        return refreshed(api_, client, current);
    }

  private:
    // GET /v2/user/info/ with `fields`, the user object; `scope` is the one its fields need.
    Answer user_info(const Credentials& credentials, const std::string& fields,
                     std::string_view scope) {
        auto answer =
            read(api_.send("GET", "/v2/user/info/?fields=" + fields, bearer(credentials)), scope);
        if (!answer.failure) answer.body = answer.body.value("user", json::object());
        return answer;
    }

    // Why the message's media cannot go to TikTok, if they cannot: a photo post needs images by
    // URL (TikTok pulls them; it takes no photo upload), and a photo post cannot carry a video.
    static std::optional<std::string> media_problem(const Message& message) {
        if (message.video) {
            if (message.post_type == "photo")
                return "a TikTok photo post takes images, and this post's media is a video";
            return std::nullopt;
        }
        if (message.image_urls.empty()) return "TikTok posts need a video or images";
        for (size_t i = 0; i < message.image_urls.size(); ++i)
            if (message.upload_of(i))
                return "TikTok takes photos only by URL, and " + message.image_urls[i] +
                       " was to be uploaded";
        return std::nullopt;
    }

    // POST /v2/post/publish/video/init/ announcing the file and its chunk plan; the text is the
    // video's title (its caption).
    Answer start_video(const http::HeaderList& auth, const Message& message, json post_info) {
        const auto plan = chunk_plan(message.video->bytes);
        if (!message.text.empty()) post_info["title"] = message.text;
        return read(api_.send("POST", "/v2/post/publish/video/init/", auth,
                              json{{"post_info", std::move(post_info)},
                                   {"source_info",
                                    {{"source", "FILE_UPLOAD"},
                                     {"video_size", message.video->bytes},
                                     {"chunk_size", plan.chunk_size},
                                     {"total_chunk_count", plan.total_chunk_count}}}}),
                    kPublish);
    }

    // POST /v2/post/publish/content/init/ with the images' URLs for TikTok to pull (the first is
    // the cover); the text is the post's description, which holds 4,000 characters where a photo
    // post's title holds 90.
    Answer start_photos(const http::HeaderList& auth, const Message& message, json post_info) {
        if (!message.text.empty()) post_info["description"] = message.text;
        return read(api_.send("POST", "/v2/post/publish/content/init/", auth,
                              json{{"post_info", std::move(post_info)},
                                   {"source_info",
                                    {{"source", "PULL_FROM_URL"},
                                     {"photo_cover_index", 0},
                                     {"photo_images", message.image_urls}}},
                                   {"post_mode", "DIRECT_POST"},
                                   {"media_type", "PHOTO"}}),
                    kPublish);
    }

    // Reads the post's status until PUBLISH_COMPLETE (its public id, when TikTok gives one: a
    // post only its creator sees has none, and is known by its publish_id) or FAILED (refused
    // with TikTok's fail_reason). The post is under way once initialized and uploaded, so a status
    // that cannot be read leaves its outcome unknown.
    Publication wait_until_published(const http::HeaderList& auth, const std::string& publish_id,
                                     const std::string& handle) {
        Publication p;
        for (size_t reads = 0;; ++reads) {
            auto status = read(api_.send("POST", "/v2/post/publish/status/fetch/", auth,
                                         json{{"publish_id", publish_id}}),
                               kPublish);
            if (status.failure) {
                p.failure = std::move(status.failure);
                p.failure->kind = FailureKind::unknown_outcome;
                p.failure->reason = "the status of TikTok post " + publish_id +
                                    " could not be read: " + p.failure->reason;
                return p;
            }
            const auto state = json_text(status.body, "status");
            if (state == "PUBLISH_COMPLETE") {
                const auto ids = status.body.value("publicaly_available_post_id", json::array());
                p.message_id = ids.is_array() && !ids.empty() ? id_text(ids.front()) : "";
                if (p.message_id.empty()) {
                    p.message_id = publish_id;
                } else if (!handle.empty()) {
                    p.url = "https://www.tiktok.com/@" + handle + "/video/" + p.message_id;
                }
                return p;
            }
            if (state == "FAILED") {
                const auto why = json_text(status.body, "fail_reason");
                p.failure = refusal("TikTok did not publish the post: " +
                                        (why.empty() ? std::string("no reason given") : why),
                                    200);
                return p;
            }
            if (reads == std::size(kStatusPauses)) {
                p.failure = refusal(
                    "TikTok was still processing post " + publish_id + " (" + state + ")", 200);
                p.failure->kind = FailureKind::unknown_outcome;
                return p;
            }
            time::pause(time::scaled(kStatusPauses[reads]));
        }
    }

    PlatformApi api_;
};

}  // namespace

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http) {
    return std::make_unique<TikTokConnector>(settings, http);
}

}  // namespace squawk::social::tiktok
