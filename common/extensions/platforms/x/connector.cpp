#include "common/extensions/platforms/x/connector.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/core/http/multipart.hpp"
#include "common/domain/social/alt_texts.hpp"
#include "common/domain/social/media_probe.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/domain/social/platform_api.hpp"
#include "common/extensions/platforms/x/answers.hpp"
#include "common/extensions/platforms/x/factory.hpp"
#include "common/extensions/platforms/x/options.hpp"
#include "common/extensions/platforms/x/replies.hpp"
#include "common/extensions/platforms/x/weighted_length.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>

namespace squawk::social::x {
namespace {

using nlohmann::json;

// A confidential client: X takes the application's id and secret as HTTP Basic authentication
// and words refusals as RFC 6749 does ({error, error_description}).
constexpr TokenEndpoint kTokenEndpoint{"/2/oauth2/token", ClientAuthentication::basic};

// API v2 answers the object it read or made under data: the user, the post, the uploaded image.
constexpr AnswerShape kObject{
    .speaker = "X",
    .accepted =
        [](long status, const json& body) {
            return status / 100 == 2 && body.is_object() && body.contains("data") &&
                   body["data"].is_object() && body["data"].contains("id") &&
                   body["data"]["id"].is_string();
        },
    .payload = "data",
    .reason = reason_of,
};

constexpr AnswerShape kDeletion{
    .speaker = "X",
    .accepted =
        [](long status, const json& body) {
            return status == 200 && body.is_object() && body.contains("data") &&
                   body["data"].is_object() && body["data"].contains("deleted") &&
                   body["data"]["deleted"] == true;
        },
    .reason = reason_of,
};

// X takes segments of up to 5 MB; 4 MiB keeps a margin and the worker's memory small.
constexpr size_t kSegmentBytes = 4 * 1024 * 1024;
// With check_after_secs of a few seconds, about ten minutes of processing.
constexpr int kMaxStatusPolls = 120;

std::string post_url(const std::string& handle, const std::string& id) {
    return "https://x.com/" + handle + "/status/" + id;
}

class XConnector final : public Connector {
  public:
    XConnector(const config::PlatformSettings& settings, http::Client& http)
        : Connector(kFactory), api_(settings, http), http_(http), timeout_(settings.timeout_ms) {}

    // The credentials are a token grant (exchange_code), never typed by a client: a connect body
    // has none to offer.
    std::vector<FieldProblem> check(Credentials& credentials) const override {
        const auto token = credentials.find("access_token");
        if (token != credentials.end() && !token->second.empty()) return {};
        return {{"access_token",
                 "X accounts connect through OAuth: GET /v1/social/connect/x/authorize"}};
    }

    Verification verify(const Credentials& credentials) override {
        Verification v;
        auto me = read(api_.send("GET", "/2/users/me", bearer(credentials)), kObject);
        if (me.failure) {
            v.failure = std::move(me.failure);
            return v;
        }
        v.identity = Identity{json_text(me.body, "id"), json_text(me.body, "name"),
                              json_text(me.body, "username")};
        return v;
    }

    // A thread's parts go out one by one after the post, each replying to the one before; their
    // images are uploaded before the post, so that a part whose image cannot go fails the thread
    // before anything is published. message_id is the first post's.
    Publication publish(const Target& target, const Message& message) override {
        Publication p;
        if (const auto length = weighted_length(message.text); length > kMaxWeightedLength) {
            p.failure = refusal("X counts this text as " + std::to_string(length) +
                                " characters (a link as 23, CJK and emoji as 2), more than the " +
                                std::to_string(kMaxWeightedLength) + " a post may have");
            return p;
        }
        const auto auth = bearer(target.credentials);
        // X wants text or media: a post of images alone goes without text, not with an empty one.
        json post = json::object();
        if (!message.text.empty()) post["text"] = message.text;
        if (message.video) {
            auto media = upload_video(auth, *message.video);
            if (media.failure) {
                p.failure = std::move(media.failure);
                return p;
            }
            post["media"] = {{"media_ids", {media.body}}};
        } else if (!message.image_urls.empty()) {
            auto media = upload_images(auth, message);
            if (media.failure) {
                p.failure = std::move(media.failure);
                return p;
            }
            post["media"] = {{"media_ids", std::move(media.body)}};
        }
        if (const auto parent = reply_to_of(message.options); !parent.empty())
            post["reply"] = {{"in_reply_to_tweet_id", parent}};
        auto parts = thread_posts(auth, message);
        if (parts.failure) {
            p.failure = std::move(parts.failure);
            return p;
        }
        auto created = read(api_.send("POST", "/2/tweets", auth, post), kObject);
        if (created.failure) {
            p.failure = std::move(created.failure);
            return p;
        }
        p.message_id = json_text(created.body, "id");
        p.url = post_url(target.identity.handle, p.message_id);
        std::vector<std::string> published{p.message_id};
        for (size_t i = 0; i < parts.body.size(); ++i) {
            auto& part = parts.body[i];
            part["reply"] = {{"in_reply_to_tweet_id", published.back()}};
            auto reply = read(api_.send("POST", "/2/tweets", auth, part), kObject);
            if (reply.failure) {
                p.warnings.push_back(thread_cut_short(*reply.failure, i, published));
                return p;
            }
            published.push_back(json_text(reply.body, "id"));
        }
        return p;
    }

    std::optional<CommentListing> list_comments(const Target& target,
                                                const std::string& external_id,
                                                const std::string& cursor) override {
        return conversation(api_, target.credentials, external_id, cursor);
    }

    // A reply is a post answering the comment, as platform_options.x.reply_to makes one.
    std::optional<Publication> reply_to_comment(const Target& target, const std::string& comment_id,
                                                const Message& message) override {
        Message reply = message;
        reply.options["reply_to"] = comment_id;
        return publish(target, reply);
    }

    std::optional<MessageChange> like_comment(const Target& target,
                                              const std::string& comment_id) override {
        return like(api_, target, comment_id);
    }

    std::optional<MessageChange> moderate_comment(const Target& target,
                                                  const std::string& comment_id,
                                                  Moderation moderation) override {
        if (moderation != Moderation::remove)
            return set_hidden(api_, target.credentials, comment_id, moderation == Moderation::hide);
        auto owned = own_post(api_, target, comment_id);
        return owned.failure ? owned : remove(target, comment_id);
    }

    // The counts X shows under a post (public_metrics): likes; replies as comments; reposts and
    // quotes as shares; bookmarks as saves; impressions (views). The non-public and organic
    // metrics exist only for posts under 30 days old.
    std::optional<MetricsReading> post_metrics(const Target& target,
                                               const std::string& external_id) override {
        MetricsReading reading;
        if (!is_post_id(external_id)) {
            reading.failure = refusal("'" + external_id + "' is not the id of an X post");
            return reading;
        }
        const auto response =
            api_.send("GET", "/2/tweets/" + external_id + "?tweet.fields=public_metrics",
                      bearer(target.credentials));
        auto post = read(response, kObject);
        if (post.failure) {
            // A post gone answers 200 with its problem under errors and no data.
            if (const auto reason = reason_of(post.body); response.status == 200 && !reason.empty())
                post.failure = refusal(reason, response.status);
            reading.failure = std::move(post.failure);
            return reading;
        }
        const auto counts = post.body.value("public_metrics", json::object());
        const auto count = [&](const char* name) -> std::optional<long long> {
            if (counts.contains(name) && counts[name].is_number_integer())
                return counts[name].get<long long>();
            return std::nullopt;
        };
        auto& m = reading.metrics;
        m.likes = count("like_count");
        m.comments = count("reply_count");
        if (const auto reposts = count("retweet_count"), quotes = count("quote_count");
            reposts || quotes)
            m.shares = reposts.value_or(0) + quotes.value_or(0);
        m.saves = count("bookmark_count");
        m.impressions = count("impression_count");
        return reading;
    }

    // X answers a post already gone with 404, which counts as deleted: removing may be repeated.
    MessageChange remove(const Target& target, const std::string& external_id) override {
        if (!is_post_id(external_id))
            return {refusal("'" + external_id + "' is not the id of an X post")};
        const auto response =
            api_.send("DELETE", "/2/tweets/" + external_id, bearer(target.credentials));
        if (response.status == 404) return {};
        return {read(response, kDeletion).failure};
    }

    // The account's own posts (no replies, no reposts), newest first as X lists them.
    std::optional<RemoteListing> list_recent(const Target& target) override {
        RemoteListing listing;
        auto answer =
            read(api_.send("GET",
                           "/2/users/" + http::percent_encode(target.identity.external_id) +
                               "/tweets?max_results=100&tweet.fields=created_at"
                               "&exclude=replies,retweets",
                           bearer(target.credentials)),
                 kTimeline);
        if (answer.failure) {
            listing.failure = std::move(answer.failure);
            return listing;
        }
        for (const auto& post : answer.body.value("data", json::array())) {
            const auto id = json_text(post, "id");
            const auto at = time::parse_iso8601(json_text(post, "created_at"));
            if (!is_post_id(id) || !at) continue;
            RemotePost remote;
            remote.external_id = id;
            remote.text = json_text(post, "text");
            remote.url = post_url(target.identity.handle, id);
            remote.published_at = *at;
            listing.posts.push_back(std::move(remote));
        }
        return listing;
    }

    // The profile's public counts: followers, following and posts.
    std::optional<MetricsReading> account_metrics(const Target& target) override {
        MetricsReading reading;
        auto me = read(
            api_.send("GET", "/2/users/me?user.fields=public_metrics", bearer(target.credentials)),
            kObject);
        if (me.failure) {
            reading.failure = std::move(me.failure);
            return reading;
        }
        const auto counts = me.body.value("public_metrics", json::object());
        if (counts.contains("followers_count") && counts["followers_count"].is_number_integer())
            reading.metrics.followers = counts["followers_count"].get<long long>();
        if (counts.contains("following_count") && counts["following_count"].is_number_integer())
            reading.metrics.following = counts["following_count"].get<long long>();
        return reading;
    }

    std::string authorize_url(const OAuthClient& client, const std::string& state,
                              const std::string& code_challenge) const override {
        return consent_url(client, kFactory.oauth_scopes, " ", state, code_challenge);
    }

    TokenGrant exchange_code(const OAuthClient& client, const std::string& code,
                             const std::string& code_verifier) override {
        return exchange_authorization_code(api_, kTokenEndpoint, client, code, code_verifier);
    }

    // X rotates refresh tokens: the grant's refresh_token replaces the one used, which no longer
    // works.
    TokenGrant refresh(const OAuthClient& client, const Credentials& current) override {
        return refresh_access_token(api_, kTokenEndpoint, client, current);
    }

  private:
    // The media ids of the message's images, each uploaded (with its alt text) before the post
    // names them. The media plan downloads every image for X, which takes none by URL; one it did
    // not is refused before anything is uploaded.
    Answer upload_images(const http::HeaderList& auth, const Message& message) {
        Answer out;
        for (size_t i = 0; i < message.image_urls.size(); ++i)
            if (!message.upload_of(i)) {
                out.failure = refusal("X takes images only as uploads, and " +
                                      message.image_urls[i] + " was not downloaded");
                return out;
            }
        out.body = json::array();
        for (size_t i = 0; i < message.image_urls.size(); ++i) {
            auto uploaded =
                upload_image(auth, *message.upload_of(i), alt_text_of(message.options, i));
            if (uploaded.failure) return uploaded;
            out.body.push_back(std::move(uploaded.body));
        }
        return out;
    }

    // One image by media/upload as tweet_image, then its alt text by media/metadata when it has
    // one; the media id is the answer's body. Neither publishes anything.
    Answer upload_image(const http::HeaderList& auth, const Upload& file, const std::string& alt) {
        Answer out;
        http::Multipart form;
        form.field("media_category", "tweet_image");
        form.file("media", file.filename, file.content_type, file.bytes);
        auto uploaded = read(send_form(auth, std::move(form)), kObject);
        if (uploaded.failure) {
            out.failure = nothing_published(std::move(*uploaded.failure));
            return out;
        }
        out.body = uploaded.body["id"];
        if (alt.empty()) return out;
        auto described =
            read(api_.send("POST", "/2/media/metadata", auth,
                           json{{"id", out.body}, {"metadata", {{"alt_text", {{"text", alt}}}}}}),
                 kObject);
        if (described.failure) out.failure = nothing_published(std::move(*described.failure));
        return out;
    }

    // The body of each thread part's post without its reply (the previous post's id is known only
    // once that went out), its images fetched and uploaded already.
    Answer thread_posts(const http::HeaderList& auth, const Message& message) {
        Answer out;
        out.body = json::array();
        for (const auto& part : thread_parts(message.options, message.post_type)) {
            json post = json::object();
            if (const auto text = json_text(part, "text"); !text.empty()) post["text"] = text;
            const auto urls = part.value("media_urls", json::array());
            json ids = json::array();
            for (size_t i = 0; i < urls.size(); ++i) {
                auto file = fetch_image(message, urls[i].get<std::string>());
                if (file.failure) {
                    out.failure = std::move(file.failure);
                    return out;
                }
                auto uploaded = upload_image(auth,
                                             Upload{"image", json_text(file.body, "content_type"),
                                                    file.body["bytes"].get<std::string>()},
                                             alt_text_of(part, i));
                if (uploaded.failure) return uploaded;
                ids.push_back(std::move(uploaded.body));
            }
            if (!ids.empty()) post["media"] = {{"media_ids", std::move(ids)}};
            out.body.push_back(std::move(post));
        }
        return out;
    }

    // A thread part's image, which the media stage (run for the post's own media only) did not
    // fetch: probed and downloaded from where message.check_url lets it, one of X's photo types
    // and at most its upload limit. The body is {content_type, bytes}; nothing is published yet.
    Answer fetch_image(const Message& message, const std::string& url) {
        Answer out;
        const auto failed = [&](const ProbeFailure& failure) {
            return failure_of(failure.permanent ? FailureKind::refused : FailureKind::not_accepted,
                              "the image " + url + " of a thread part: " + failure.reason,
                              failure.http_status);
        };
        if (!message.check_url) {
            out.failure = refusal("the image " + url + " of a thread part cannot be fetched here");
            return out;
        }
        const auto probe = probe_media(http_, url, message.check_url, timeout_);
        if (probe.failure) {
            out.failure = failed(*probe.failure);
            return out;
        }
        const auto& types = kFactory.limits.media.photo_types;
        if (std::find(types.begin(), types.end(), probe.content_type) == types.end()) {
            out.failure =
                refusal("the image " + url + " of a thread part is of type '" + probe.content_type +
                        "'; X takes JPEG, PNG, WebP or GIF images in a thread part");
            return out;
        }
        auto download = download_media(http_, url, message.check_url, timeout_,
                                       kFactory.limits.media.max_photo_upload_bytes, probe.bytes);
        if (download.failure) {
            out.failure = failed(*download.failure);
            return out;
        }
        out.body = {{"content_type", probe.content_type}, {"bytes", std::move(download.bytes)}};
        return out;
    }

    // A part that failed once the thread began. The post is out, so the target is published
    // with this warning rather than failed: a retry would publish the post a second time. The
    // warning says which parts went out, and a part whose outcome is unknown stays unknown.
    static std::string thread_cut_short(const PlatformFailure& failure, size_t part,
                                        const std::vector<std::string>& published) {
        std::string out = "X published the post " + published.front();
        for (size_t i = 1; i < published.size(); ++i)
            out += ", thread[" + std::to_string(i - 1) + "] " + published[i];
        return out + "; then thread[" + std::to_string(part) + "] " +
               (failure.kind == FailureKind::unknown_outcome ? "may or may not have been published"
                                                             : "failed") +
               " and the rest was not sent: " + failure.reason;
    }

    http::Response send_form(const http::HeaderList& auth, http::Multipart form) {
        const auto content_type = form.content_type();
        return api_.send("POST", "/2/media/upload", auth, content_type, std::move(form).finish());
    }

    // A video goes up in segments (INIT, APPEND of at most 4 MiB each from the file, FINALIZE),
    // then X processes it, polled with STATUS as it asks; a post may name it only once that
    // succeeded. The media id is the answer's body.
    Answer upload_video(const http::HeaderList& auth, const Video& video) {
        Answer out;
        http::Multipart init;
        init.field("command", "INIT");
        init.field("media_type", video.content_type);
        init.field("total_bytes", std::to_string(video.bytes));
        init.field("media_category", "tweet_video");
        auto started = read(send_form(auth, std::move(init)), kObject);
        if (started.failure) {
            out.failure = nothing_published(std::move(*started.failure));
            return out;
        }
        const auto id = json_text(started.body, "id");
        long long offset = 0;
        for (int segment = 0; offset < video.bytes; ++segment) {
            auto chunk = video.read_chunk(offset, kSegmentBytes);
            if (chunk.empty()) {
                out.failure = refusal("the video file is shorter than its announced size");
                return out;
            }
            offset += static_cast<long long>(chunk.size());
            http::Multipart append;
            append.field("command", "APPEND");
            append.field("media_id", id);
            append.field("segment_index", std::to_string(segment));
            append.file("media", "segment", "application/octet-stream", chunk);
            chunk.clear();
            const auto answer = send_form(auth, std::move(append));
            // APPEND answers 2xx without a body.
            if (answer.status / 100 == 2) continue;
            out.failure = nothing_published(
                read(answer, kObject).failure.value_or(refusal("X refused a video segment")));
            return out;
        }
        http::Multipart finalize;
        finalize.field("command", "FINALIZE");
        finalize.field("media_id", id);
        auto finished = read(send_form(auth, std::move(finalize)), kObject);
        for (int polls = 0;; ++polls) {
            if (finished.failure) {
                out.failure = nothing_published(std::move(*finished.failure));
                return out;
            }
            const auto info = finished.body.value("processing_info", json::object());
            const auto state = json_text(info, "state");
            if (state.empty() || state == "succeeded") break;
            if (state == "failed") {
                const auto error = info.value("error", json::object());
                out.failure =
                    refusal("X could not process the video: " + json_text(error, "message"));
                return out;
            }
            if (polls == kMaxStatusPolls) {
                auto busy = refusal("X was still processing the video");
                busy.kind = FailureKind::not_accepted;
                out.failure = std::move(busy);
                return out;
            }
            const long long wait = std::clamp(info.value("check_after_secs", 1LL), 1LL, 30LL);
            time::pause(time::scaled(std::chrono::seconds(wait)));
            finished = read(
                api_.send("GET",
                          "/2/media/upload?command=STATUS&media_id=" + http::percent_encode(id),
                          auth),
                kObject);
        }
        out.body = id;
        return out;
    }

    PlatformApi api_;
    http::Client& http_;
    std::chrono::milliseconds timeout_;
};

}  // namespace

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http) {
    return std::make_unique<XConnector>(settings, http);
}

}  // namespace squawk::social::x
