#include "common/extensions/platforms/threads/connector.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/meta_graph.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/domain/social/platform_api.hpp"
#include "common/extensions/platforms/threads/factory.hpp"
#include "common/extensions/platforms/threads/replies.hpp"
#include "common/extensions/platforms/threads/tokens.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <iterator>

namespace squawk::social::threads {
namespace {

using namespace std::chrono_literals;

const std::string kGraph = "/v1.0/";
constexpr AnswerShape kAnswer = meta_graph::object_answer("Threads");

// Pauses between status reads of a container still IN_PROGRESS. Threads readies text and images
// in seconds (the minutes it advises waiting are for video, which is not sent), and a publish
// should not hold its worker longer: a container still in progress after them is not accepted,
// to be tried again later.
constexpr std::chrono::milliseconds kStatusPauses[] = {250ms, 500ms, 1000ms, 2000ms, 4000ms};
// Threads advises reading a container's status once a minute.
constexpr std::chrono::seconds kProcessingRetry{60};

// threads_publish's refusal of a container not yet FINISHED: (#24) subcode 4279009, "the media is
// not ready for publishing".
constexpr meta_graph::GraphError kMediaNotReady{24, 4279009};

bool is_access_token(std::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
               c == '|';
    });
}

std::string token_of(const Credentials& credentials) {
    const auto token = credentials.find("access_token");
    return token == credentials.end() ? std::string() : token->second;
}

// A media container: its id, or why none was made ready.
struct Container {
    std::string id;
    std::optional<PlatformFailure> failure;
};

class ThreadsConnector final : public Connector {
  public:
    ThreadsConnector(const config::PlatformSettings& settings, http::Client& http)
        : Connector(kFactory), api_(settings, http) {}

    // The grant's credentials, as the consent flow stores them: there are no connect fields.
    std::vector<FieldProblem> check(Credentials& credentials) const override {
        const auto token = credentials.find("access_token");
        if (token == credentials.end() || token->second.empty())
            return {{"access_token",
                     "Threads accounts connect through OAuth: GET "
                     "/v1/social/connect/threads/authorize"}};
        if (!is_access_token(token->second))
            return {{"access_token", "is not a Threads access token"}};
        return {};
    }

    Verification verify(const Credentials& credentials) override {
        Verification v;
        auto me = meta_graph::read(
            get(kGraph + "me?fields=id,username,name", token_of(credentials)), kAnswer);
        if (me.failure) {
            v.failure = std::move(me.failure);
            if (v.failure->kind == FailureKind::refused) v.failure->field = "access_token";
            return v;
        }
        Identity identity;
        identity.external_id = meta_graph::graph_id(me.body, "id");
        identity.handle = json_text(me.body, "username");
        identity.display_name = json_text(me.body, "name");
        if (identity.display_name.empty()) identity.display_name = identity.handle;
        if (identity.external_id.empty()) {
            v.failure =
                failure_of(FailureKind::refused, "Threads' profile answer has no user id", 200);
            v.failure->field = "access_token";
            return v;
        }
        v.identity = std::move(identity);
        return v;
    }

    // A container (one per image and the carousel holding them when there are several),
    // published at once: text and images are ready by then as a rule.
    Publication publish(const Target& target, const Message& message) override {
        Publication p;
        for (size_t i = 0; i < message.image_urls.size(); ++i) {
            if (!message.upload_of(i)) continue;
            p.failure = failure_of(FailureKind::refused,
                                   "Threads takes images only by public URL, and " +
                                       message.image_urls[i] + " was to be uploaded",
                                   0);
            return p;
        }
        const std::string& user = target.identity.external_id;
        const std::string token = token_of(target.credentials);
        auto container = post_container(user, token, message);
        if (container.failure) {
            p.failure = std::move(container.failure);
            return p;
        }
        auto published = meta_graph::publish_when_ready(
            [&] { return threads_publish(user, token, container.id); }, kMediaNotReady,
            [&] { return wait_until_finished(container.id, token); });
        if (published.failure) {
            p.failure = std::move(published.failure);
            return p;
        }
        p.message_id = meta_graph::graph_id(published.body, "id");
        if (p.message_id.empty()) {
            p.failure = failure_of(FailureKind::unknown_outcome,
                                   "Threads published the post without naming it", 200);
            return p;
        }
        p.url = permalink(p.message_id, token);
        return p;
    }

    std::optional<CommentListing> list_comments(const Target& target,
                                                const std::string& external_id,
                                                const std::string& cursor) override {
        return conversation(api_, token_of(target.credentials), external_id, cursor);
    }

    // A reply is a post answering the comment, as platform_options.threads.reply_to makes one.
    std::optional<Publication> reply_to_comment(const Target& target, const std::string& comment_id,
                                                const Message& message) override {
        Message reply = message;
        reply.options["reply_to"] = comment_id;
        return publish(target, reply);
    }

    std::optional<MessageChange> moderate_comment(const Target& target,
                                                  const std::string& comment_id,
                                                  Moderation moderation) override {
        if (moderation == Moderation::remove) {
            auto owned = own_reply(api_, token_of(target.credentials), comment_id);
            return owned.failure ? owned : remove(target, comment_id);
        }
        return set_hidden(api_, token_of(target.credentials), comment_id,
                          moderation == Moderation::hide);
    }

    // Threads answers a post already gone (or never this account's) as an object that does not
    // exist, which counts as deleted so that removing may be repeated.
    MessageChange remove(const Target& target, const std::string& external_id) override {
        if (!meta_graph::is_graph_id(external_id))
            return {failure_of(FailureKind::refused,
                               "'" + external_id + "' is not the id of a Threads post", 0)};
        auto answer = meta_graph::read(api_.send("DELETE", kGraph + external_id,
                                                 meta_graph::bearer(token_of(target.credentials))),
                                       kAnswer);
        if (answer.failure && meta_graph::names_missing_object(answer.body)) return {};
        if (!answer.failure && answer.body.contains("success") && answer.body["success"] == false)
            return {failure_of(FailureKind::refused, "Threads did not delete the post", 200)};
        return {std::move(answer.failure)};
    }

    // The account's own posts, newest first; reposts of others' posts are left out.
    std::optional<RemoteListing> list_recent(const Target& target) override {
        RemoteListing listing;
        auto answer =
            meta_graph::read(get(kGraph + target.identity.external_id +
                                     "/threads?fields=id,media_type,text,permalink,timestamp"
                                     "&limit=100",
                                 token_of(target.credentials)),
                             kAnswer);
        if (answer.failure) {
            listing.failure = std::move(answer.failure);
            return listing;
        }
        if (!answer.body.contains("data") || !answer.body["data"].is_array()) {
            listing.failure = failure_of(FailureKind::not_accepted,
                                         "Threads' answer is not a list of posts", 200);
            return listing;
        }
        for (const auto& item : answer.body["data"]) {
            if (!item.is_object() || json_text(item, "media_type") == "REPOST_FACADE") continue;
            const auto id = meta_graph::graph_id(item, "id");
            const auto at = meta_graph::parse_graph_time(json_text(item, "timestamp"));
            if (id.empty() || !at) continue;
            RemotePost post;
            post.external_id = id;
            post.text = json_text(item, "text");
            if (auto link = json_text(item, "permalink"); !link.empty()) post.url = std::move(link);
            post.published_at = *at;
            listing.posts.push_back(std::move(post));
        }
        return listing;
    }

    // The account's followers (threads_insights, which Threads gives for accounts of any size).
    std::optional<MetricsReading> account_metrics(const Target& target) override {
        MetricsReading reading;
        auto answer = insights(
            kGraph + target.identity.external_id + "/threads_insights?metric=followers_count",
            token_of(target.credentials));
        if (answer.failure) {
            reading.failure = std::move(answer.failure);
            return reading;
        }
        reading.metrics.followers =
            meta_graph::insight_value(answer.body["data"], "followers_count");
        return reading;
    }

    // A post's lifetime counts: views as impressions, replies as comments, and reposts, quotes
    // and shares together as shares (every way the post was passed on).
    std::optional<MetricsReading> post_metrics(const Target& target,
                                               const std::string& external_id) override {
        MetricsReading reading;
        if (!meta_graph::is_graph_id(external_id)) {
            reading.failure = refusal("'" + external_id + "' is not the id of a Threads post");
            return reading;
        }
        auto answer = insights(
            kGraph + external_id + "/insights?metric=views,likes,replies,reposts,quotes,shares",
            token_of(target.credentials));
        if (answer.failure) {
            reading.failure = std::move(answer.failure);
            return reading;
        }
        const auto& data = answer.body["data"];
        auto& m = reading.metrics;
        m.impressions = meta_graph::insight_value(data, "views");
        m.likes = meta_graph::insight_value(data, "likes");
        m.comments = meta_graph::insight_value(data, "replies");
        const auto reposts = meta_graph::insight_value(data, "reposts");
        const auto quotes = meta_graph::insight_value(data, "quotes");
        const auto shares = meta_graph::insight_value(data, "shares");
        if (reposts || quotes || shares)
            m.shares = reposts.value_or(0) + quotes.value_or(0) + shares.value_or(0);
        return reading;
    }

    // Meta's consent page takes the scopes comma-separated; the PKCE challenge it ignores does no
    // harm.
    std::string authorize_url(const OAuthClient& client, const std::string& state,
                              const std::string& code_challenge) const override {
        return consent_url(client, kFactory.oauth_scopes, ",", state, code_challenge);
    }

    // Threads takes no PKCE verifier: the client secret proves the application.
    TokenGrant exchange_code(const OAuthClient& client, const std::string& code,
                             const std::string&) override {
        return long_lived_grant(api_, client, code);
    }

    // The long-lived token refreshes itself; the application's credentials are not asked for.
    TokenGrant refresh(const OAuthClient&, const Credentials& current) override {
        return refreshed_grant(api_, current);
    }

  private:
    http::Response get(const std::string& path, const std::string& token) {
        return api_.send("GET", path, meta_graph::bearer(token));
    }

    // An insights answer: {data: [...]}, or why there is none.
    Answer insights(const std::string& path, const std::string& token) {
        auto answer = meta_graph::read(get(path, token), kAnswer);
        if (!answer.failure && (!answer.body.contains("data") || !answer.body["data"].is_array()))
            answer.failure = failure_of(FailureKind::not_accepted,
                                        "Threads' answer is not a list of insights", 200);
        return answer;
    }

    Container create_container(const std::string& user, const std::string& token,
                               const http::FormFields& fields) {
        Container container;
        auto answer = meta_graph::read(
            api_.send("POST", kGraph + user + "/threads", meta_graph::bearer(token),
                      "application/x-www-form-urlencoded", http::form_encode(fields)),
            kAnswer);
        if (answer.failure) {
            container.failure = nothing_published(std::move(*answer.failure));
            return container;
        }
        container.id = meta_graph::graph_id(answer.body, "id");
        if (container.id.empty())
            container.failure = failure_of(FailureKind::not_accepted,
                                           "Threads made a media container without an id", 200);
        return container;
    }

    // The container to publish: TEXT, one IMAGE, one VIDEO, or a CAROUSEL of image items (2 to
    // 20), the text going with it as the caption; a reply names the post it answers.
    Container post_container(const std::string& user, const std::string& token,
                             const Message& message) {
        const auto& images = message.image_urls;
        const auto reply_to = reply_to_of(message.options);
        http::FormFields fields;
        if (!reply_to.empty()) fields.emplace_back("reply_to_id", reply_to);
        if (message.video) {
            // Threads fetches a video itself from its public URL, as it was given.
            if (message.video->transcoded) {
                Container refused;
                refused.failure = refusal(
                    "Threads takes a video only by its public URL, and this one had to be "
                    "transcoded first (" +
                    message.video->url + "); post an MP4 or MOV Threads takes as it is");
                return refused;
            }
            fields.emplace_back("media_type", "VIDEO");
            fields.emplace_back("video_url", message.video->url);
            if (!message.text.empty()) fields.emplace_back("text", message.text);
            return create_container(user, token, fields);
        }
        if (images.empty()) {
            fields.emplace_back("media_type", "TEXT");
            fields.emplace_back("text", message.text);
            return create_container(user, token, fields);
        }
        if (images.size() == 1) {
            fields.emplace_back("media_type", "IMAGE");
            fields.emplace_back("image_url", images.front());
        } else {
            std::string children;
            for (const auto& url : images) {
                auto item = create_container(
                    user, token,
                    {{"media_type", "IMAGE"}, {"image_url", url}, {"is_carousel_item", "true"}});
                if (item.failure) return item;
                children += (children.empty() ? "" : ",") + item.id;
            }
            fields.emplace_back("media_type", "CAROUSEL");
            fields.emplace_back("children", children);
        }
        if (!message.text.empty()) fields.emplace_back("text", message.text);
        return create_container(user, token, fields);
    }

    Answer threads_publish(const std::string& user, const std::string& token,
                           const std::string& container_id) {
        return meta_graph::read(api_.send("POST",
                                          kGraph + user + "/threads_publish?" +
                                              http::form_encode({{"creation_id", container_id}}),
                                          meta_graph::bearer(token)),
                                kAnswer);
    }

    // Nothing once the container is FINISHED; its error_message when it ends in ERROR.
    std::optional<PlatformFailure> wait_until_finished(const std::string& id,
                                                       const std::string& token) {
        for (size_t read = 0;; ++read) {
            auto answer =
                meta_graph::read(get(kGraph + id + "?fields=status,error_message", token), kAnswer);
            if (answer.failure) return nothing_published(std::move(*answer.failure));
            const auto status = json_text(answer.body, "status");
            if (status == "FINISHED") return std::nullopt;
            if (status == "ERROR") {
                const auto error = json_text(answer.body, "error_message");
                return failure_of(FailureKind::refused,
                                  error.empty() ? "Threads could not process the post"
                                                : "Threads could not process the post: " + error,
                                  200);
            }
            if (status != "IN_PROGRESS")
                return failure_of(FailureKind::not_accepted,
                                  "Threads' media container is " +
                                      (status.empty() ? std::string("of no status") : status),
                                  200);
            if (read == std::size(kStatusPauses)) {
                auto busy = failure_of(FailureKind::not_accepted,
                                       "Threads was still processing the post's media", 200);
                busy.retry_after = kProcessingRetry;
                return busy;
            }
            // Connectors run on a worker's fiber or on a plain thread and have no fiber-aware
            // pause of their own; the pauses are short and bounded.
            time::pause(time::scaled(kStatusPauses[read]));
        }
    }

    // The post's address: Threads builds it from a shortcode the id does not give, so it is read
    // back. The post is published whatever this answers; without it the post has no url.
    std::optional<std::string> permalink(const std::string& id, const std::string& token) {
        const auto answer =
            meta_graph::read(get(kGraph + id + "?fields=permalink", token), kAnswer);
        if (answer.failure) return std::nullopt;
        auto link = json_text(answer.body, "permalink");
        if (link.empty()) return std::nullopt;
        return link;
    }

    PlatformApi api_;
};

}  // namespace

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http) {
    return std::make_unique<ThreadsConnector>(settings, http);
}

}  // namespace squawk::social::threads
