#include "common/extensions/platforms/x/connector.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/core/http/multipart.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/domain/social/platform_api.hpp"
#include "common/extensions/platforms/x/factory.hpp"
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

// X's words in an error body: the messages of {errors: [{message} or {detail}]} (a request it
// could not take, where the problem details around them only say "Invalid Request"), else the
// problem details' detail or title (RFC 7807: {title, detail, type, status}).
std::string reason_of(const json& body) {
    std::string messages;
    if (body.is_object() && body.contains("errors") && body["errors"].is_array())
        for (const auto& error : body["errors"]) {
            auto message = json_text(error, "message");
            if (message.empty()) message = json_text(error, "detail");
            if (!message.empty()) messages += (messages.empty() ? "" : "; ") + message;
        }
    if (!messages.empty()) return messages;
    const auto detail = json_text(body, "detail");
    return detail.empty() ? json_text(body, "title") : detail;
}

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

// A timeline without posts has no data member at all, only meta.
constexpr AnswerShape kTimeline{
    .speaker = "X",
    .accepted =
        [](long status, const json& body) {
            return status == 200 && body.is_object() &&
                   (!body.contains("data") || body["data"].is_array());
        },
    .reason = reason_of,
};

// A 401 is the access token: revoked, or expired and due a refresh.
Answer read(const http::Response& response, const AnswerShape& shape) {
    auto answer = read_answer(response, shape);
    if (!answer.failure) return answer;
    if (response.status == 401) answer.failure->field = "access_token";
    if (response.status == 429 && !answer.failure->retry_after)
        answer.failure->retry_after = until_reset_header(response, "x-rate-limit-reset");
    return answer;
}

// X takes segments of up to 5 MB; 4 MiB keeps a margin and the worker's memory small.
constexpr size_t kSegmentBytes = 4 * 1024 * 1024;
// With check_after_secs of a few seconds, about ten minutes of processing.
constexpr int kMaxStatusPolls = 120;

// A post id as X gives them: a 64-bit number in decimal.
bool is_post_id(std::string_view text) {
    return !text.empty() && text.size() <= 19 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string post_url(const std::string& handle, const std::string& id) {
    return "https://x.com/" + handle + "/status/" + id;
}

http::HeaderList bearer(const Credentials& credentials) {
    const auto token = credentials.find("access_token");
    return {{"Authorization", "Bearer " + (token == credentials.end() ? "" : token->second)}};
}

class XConnector final : public Connector {
  public:
    XConnector(const config::PlatformSettings& settings, http::Client& http)
        : Connector(kFactory), api_(settings, http) {}

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
        auto created = read(api_.send("POST", "/2/tweets", auth, post), kObject);
        if (created.failure) {
            p.failure = std::move(created.failure);
            return p;
        }
        p.message_id = json_text(created.body, "id");
        p.url = post_url(target.identity.handle, p.message_id);
        return p;
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
    // The media ids of the message's images, each uploaded (media/upload as tweet_image) before
    // the post names them. The media plan downloads every image for X, which takes none by URL;
    // one it did not is refused before anything is uploaded.
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
            const Upload* file = message.upload_of(i);
            http::Multipart form;
            form.field("media_category", "tweet_image");
            form.file("media", file->filename, file->content_type, file->bytes);
            const auto content_type = form.content_type();
            auto uploaded = read(
                api_.send("POST", "/2/media/upload", auth, content_type, std::move(form).finish()),
                kObject);
            if (uploaded.failure) {
                out.failure = nothing_published(std::move(*uploaded.failure));
                return out;
            }
            out.body.push_back(uploaded.body["id"]);
        }
        return out;
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
};

}  // namespace

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http) {
    return std::make_unique<XConnector>(settings, http);
}

}  // namespace squawk::social::x
