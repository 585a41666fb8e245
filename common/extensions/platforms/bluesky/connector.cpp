#include "common/extensions/platforms/bluesky/connector.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/core/net/target_url.hpp"
#include "common/core/text/ascii.hpp"
#include "common/domain/social/alt_texts.hpp"
#include "common/domain/social/platform_api.hpp"
#include "common/extensions/platforms/bluesky/facets.hpp"
#include "common/extensions/platforms/bluesky/factory.hpp"
#include "common/extensions/platforms/bluesky/link_card.hpp"
#include "common/extensions/platforms/bluesky/records.hpp"
#include "common/extensions/platforms/bluesky/replies.hpp"
#include "common/extensions/platforms/bluesky/session.hpp"
#include "common/extensions/platforms/bluesky/video_service.hpp"
#include "common/extensions/platforms/bluesky/xrpc.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace squawk::social::bluesky {
namespace {

using nlohmann::json;

// The longest a post waits for its link's page: the card is a decoration, the post is not.
constexpr std::chrono::milliseconds kMaxCardWait{5000};

// A handle, DID or e-mail address as typed: no whitespace or control characters.
bool is_identifier(std::string_view text) {
    return text.size() <= 256 && std::none_of(text.begin(), text.end(), [](char c) {
               return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f;
           });
}

PlatformFailure bad_id(const std::string& external_id) {
    return PlatformFailure{FailureKind::refused,
                           "'" + external_id + "' is not a post of this Bluesky account",
                           std::nullopt, 0, ""};
}

// The DIDs of the handles a text mentions, those that resolve; or why the PDS could not say.
struct MentionedDids {
    std::map<std::string, std::string> dids;
    std::optional<PlatformFailure> failure;
};

class BlueskyConnector final : public Connector {
  public:
    BlueskyConnector(const config::PlatformSettings& settings, http::Client& http)
        : Connector(kFactory), settings_(settings), http_(http), videos_(settings, http) {}

    std::vector<FieldProblem> check(Credentials& credentials) const override {
        std::vector<FieldProblem> problems;
        auto& identifier = credentials["identifier"];
        if (identifier.starts_with('@')) identifier.erase(0, 1);
        if (identifier.empty())
            problems.push_back({"identifier", "is required"});
        else if (!is_identifier(identifier))
            problems.push_back({"identifier", "must be a handle, a DID or an e-mail address"});
        if (credentials["app_password"].empty())
            problems.push_back({"app_password", "is required"});
        const auto service = credentials.find("service");
        if (service == credentials.end()) return problems;
        if (service->second.empty())
            credentials.erase(service);
        else if (const auto address = pds_address(service->second))
            service->second = *address;
        else
            problems.push_back({"service", "must be the https:// address of a PDS"});
        return problems;
    }

    // The account's profile names it (app.bsky.actor.getProfile); one without a display name
    // goes by its handle.
    Verification verify(const Credentials& credentials) override {
        Verification v;
        auto pds = pds_of(credentials);
        PdsSession session(pds, service_of(credentials), credentials);
        if (auto failure = session.open()) {
            v.failure = std::move(failure);
            return v;
        }
        auto profile =
            session.call("GET", "/xrpc/app.bsky.actor.getProfile?actor=" + session.did());
        // The AppView answers 400 for an account it has not indexed yet (one just created): the
        // credentials are good, the account only has no name there yet.
        const bool unknown_profile =
            profile.failure && profile.failure->kind == FailureKind::refused &&
            profile.failure->http_status == 400 && profile.failure->field.empty();
        if (profile.failure && !unknown_profile) {
            v.failure = nothing_published(std::move(*profile.failure));
            return v;
        }
        auto name = unknown_profile ? std::string() : json_text(profile.body, "displayName");
        if (text::trim_blanks(name).empty()) name = session.handle();
        v.identity = Identity{session.did(), std::move(name), session.handle()};
        return v;
    }

    Publication publish(const Target& target, const Message& message) override {
        return create_post(target, message, "");
    }

    std::optional<Publication> reply_to_comment(const Target& target, const std::string& comment_id,
                                                const Message& message) override {
        return create_post(target, message, comment_id);
    }

    // The thread comes whole from getPostThread: there is no following page.
    std::optional<CommentListing> list_comments(const Target& target,
                                                const std::string& external_id,
                                                const std::string& cursor) override {
        CommentListing listing;
        const auto address = parse_post_uri(external_id);
        if (!address || address->repo != target.identity.external_id) {
            listing.failure = bad_id(external_id);
            return listing;
        }
        if (!cursor.empty()) return listing;
        return on_account<CommentListing>(
            target, [&](PdsSession& session) { return list_replies(session, external_id); });
    }

    std::optional<MessageChange> like_comment(const Target& target,
                                              const std::string& comment_id) override {
        return on_account<MessageChange>(
            target, [&](PdsSession& session) { return like(session, comment_id); });
    }

    std::optional<MessageChange> moderate_comment(const Target& target,
                                                  const std::string& comment_id,
                                                  Moderation moderation) override {
        // Removing deletes the account's own reply as any of its posts; others' can only hide.
        if (moderation == Moderation::remove) {
            const auto address = parse_post_uri(comment_id);
            if (address && address->repo != target.identity.external_id)
                return MessageChange{refusal(
                    "Bluesky lets an account delete only its own posts; hide the reply instead")};
            return remove(target, comment_id);
        }
        return on_account<MessageChange>(target, [&](PdsSession& session) {
            return set_hidden(session, comment_id, moderation == Moderation::hide);
        });
    }

    // The PDS answers a record already gone like a deletion, so removing may be repeated.
    MessageChange remove(const Target& target, const std::string& external_id) override {
        const auto address = parse_post_uri(external_id);
        if (!address || address->repo != target.identity.external_id) return {bad_id(external_id)};
        return on_account<MessageChange>(target, [&](PdsSession& session) {
            return MessageChange{session
                                     .call("POST", "/xrpc/com.atproto.repo.deleteRecord",
                                           json{{"repo", session.did()},
                                                {"collection", kPosts},
                                                {"rkey", address->rkey}})
                                     .failure};
        });
    }

    // The account's own posts (no replies, no reposts), newest first.
    std::optional<RemoteListing> list_recent(const Target& target) override {
        return on_account<RemoteListing>(target,
                                         [&](PdsSession& session) { return author_feed(session); });
    }

    // The posts of getAuthorFeed the session's account made.
    static RemoteListing author_feed(PdsSession& session) {
        RemoteListing listing;
        auto answer =
            session.call("GET", "/xrpc/app.bsky.feed.getAuthorFeed?actor=" + session.did() +
                                    "&limit=100&filter=posts_no_replies");
        if (answer.failure) {
            listing.failure = std::move(answer.failure);
            return listing;
        }
        if (!answer.body.contains("feed") || !answer.body["feed"].is_array()) {
            listing.failure = unreadable("Bluesky's answer is not a feed");
            return listing;
        }
        for (const auto& item : answer.body["feed"]) {
            if (!item.is_object() || item.contains("reason")) continue;  // a repost
            const json post = object_at(item, "post");
            const json record = object_at(post, "record");
            const auto address = parse_post_uri(json_text(post, "uri"));
            auto at = time::parse_iso8601(json_text(record, "createdAt"));
            if (!at) at = time::parse_iso8601(json_text(post, "indexedAt"));
            if (!address || address->repo != session.did() || !at) continue;
            RemotePost remote;
            remote.external_id = json_text(post, "uri");
            remote.text = json_text(record, "text");
            remote.url = post_url(session.handle(), address->rkey);
            remote.published_at = *at;
            listing.posts.push_back(std::move(remote));
        }
        return listing;
    }

    // The profile's counts (app.bsky.actor.getProfile): followers and follows.
    std::optional<MetricsReading> account_metrics(const Target& target) override {
        return on_account<MetricsReading>(target, [](PdsSession& session) {
            MetricsReading reading;
            auto profile =
                session.call("GET", "/xrpc/app.bsky.actor.getProfile?actor=" + session.did());
            if (profile.failure) {
                reading.failure = std::move(profile.failure);
                return reading;
            }
            reading.metrics.followers = json_integer(profile.body, "followersCount");
            reading.metrics.following = json_integer(profile.body, "followsCount");
            return reading;
        });
    }

    // The post's counts (app.bsky.feed.getPosts): likes; replies as comments; reposts and quotes
    // as shares. Bluesky tells no impressions, reach or saves.
    std::optional<MetricsReading> post_metrics(const Target& target,
                                               const std::string& external_id) override {
        MetricsReading reading;
        const auto address = parse_post_uri(external_id);
        if (!address || address->repo != target.identity.external_id) {
            reading.failure = bad_id(external_id);
            return reading;
        }
        return on_account<MetricsReading>(
            target, [&](PdsSession& session) { return post_counts(session, external_id); });
    }

    // getPosts' counts of the post `external_id`.
    static MetricsReading post_counts(PdsSession& session, const std::string& external_id) {
        MetricsReading reading;
        auto answer = session.call(
            "GET", "/xrpc/app.bsky.feed.getPosts?uris=" + http::percent_encode(external_id));
        if (answer.failure) {
            reading.failure = std::move(answer.failure);
            return reading;
        }
        // A post deleted or not indexed is left out of the answer.
        const auto posts = answer.body.value("posts", json::array());
        const auto post = std::find_if(posts.begin(), posts.end(), [&](const json& p) {
            return json_text(p, "uri") == external_id;
        });
        if (post == posts.end()) {
            reading.failure = bad_id(external_id);
            return reading;
        }
        auto& m = reading.metrics;
        m.likes = json_integer(*post, "likeCount");
        m.comments = json_integer(*post, "replyCount");
        if (const auto reposts = json_integer(*post, "repostCount"),
            quotes = json_integer(*post, "quoteCount");
            reposts || quotes)
            m.shares = reposts.value_or(0) + quotes.value_or(0);
        return reading;
    }

  private:
    // A post of the account, answering the post or reply `reply_to` unless that is empty. The
    // session is kept for the next operations of the account (session.hpp).
    Publication create_post(const Target& target, const Message& message,
                            const std::string& reply_to) {
        return on_account<Publication>(target, [&](PdsSession& session) {
            return post_as(session, target, message, reply_to);
        });
    }

    // Mentions are resolved, and the link card fetched, before the post is created, so that
    // nothing of them can fail after it.
    Publication post_as(PdsSession& session, const Target& target, const Message& message,
                        const std::string& reply_to) {
        Publication p;
        auto mentioned = resolve_mentions(session.pds(), message.text);
        if (mentioned.failure) {
            p.failure = std::move(mentioned.failure);
            return p;
        }
        json post{{"$type", kPosts},
                  {"text", message.text},
                  {"createdAt", time::format_iso8601(time::now())}};
        if (!reply_to.empty()) {
            auto refs = reply_refs(session, reply_to);
            if (refs.failure) {
                p.failure = std::move(refs.failure);
                return p;
            }
            post["reply"] = std::move(refs.body);
        }
        if (auto facets = post_facets(message.text, mentioned.dids); !facets.empty())
            post["facets"] = std::move(facets);
        if (message.video) {
            auto embed = embed_video(session, service_of(target.credentials), message);
            if (embed.failure) {
                p.failure = std::move(embed.failure);
                return p;
            }
            post["embed"] = std::move(embed.body);
        } else if (!message.image_urls.empty()) {
            auto embed = embed_images(session, message);
            if (embed.failure) {
                p.failure = std::move(embed.failure);
                return p;
            }
            post["embed"] = std::move(embed.body);
        } else if (auto card = card_of(message)) {
            post["embed"] = std::move(*card);
        }
        auto created = session.call(
            "POST", "/xrpc/com.atproto.repo.createRecord",
            json{{"repo", session.did()}, {"collection", kPosts}, {"record", std::move(post)}});
        if (created.failure) {
            p.failure = std::move(created.failure);
            return p;
        }
        const auto address = parse_post_uri(json_text(created.body, "uri"));
        if (!address) {
            p.failure = unreadable("Bluesky created the post without a record uri",
                                   FailureKind::unknown_outcome);
            return p;
        }
        p.message_id = json_text(created.body, "uri");
        p.url = post_url(session.handle(), address->rkey);
        return p;
    }

    // Plain http and private addresses only where the configured PDS is plain http itself (a
    // loopback fake in development and tests): connectors do not see
    // security.allow_private_targets.
    bool local_pds() const { return settings_.api_base_url.starts_with("http://"); }

    // The PDS a `service` names: an http(s) URL with no query or credentials, without the final
    // slash (XRPC paths follow it).
    std::optional<std::string> pds_address(std::string_view text) const {
        try {
            const auto url = net::parse_url(text);
            if (url.target.find('?') != std::string::npos) return std::nullopt;
            if (url.scheme != "https" && !local_pds()) return std::nullopt;
        } catch (const net::TargetRefused&) {
            return std::nullopt;
        }
        if (text.ends_with('/')) text.remove_suffix(1);
        return std::string(text);
    }

    // The base URL of the account's PDS: its `service`, or the configured one.
    std::string service_of(const Credentials& credentials) const {
        const auto service = credentials.find("service");
        return service != credentials.end() && !service->second.empty() ? service->second
                                                                        : settings_.api_base_url;
    }

    PlatformApi pds_of(const Credentials& credentials) const {
        config::PlatformSettings pds = settings_;
        pds.api_base_url = service_of(credentials);
        return PlatformApi(pds, http_);
    }

    // `operation` run with the connected account's session open on its PDS; the session's failure
    // to open fails it instead.
    template <typename Result, typename Operation>
    Result on_account(const Target& target, Operation operation) {
        auto pds = pds_of(target.credentials);
        PdsSession session(pds, service_of(target.credentials), target.credentials);
        if (auto failure = open_target(session, target)) {
            Result failed;
            failed.failure = std::move(failure);
            return failed;
        }
        return operation(session);
    }

    // Opens the session of the connected account: a handle can move to another account, whose
    // credentials must not post in its name.
    static std::optional<PlatformFailure> open_target(PdsSession& session, const Target& target) {
        if (auto failure = session.open()) return failure;
        if (session.did() == target.identity.external_id) return std::nullopt;
        return PlatformFailure{FailureKind::refused,
                               "these credentials sign in to " + session.did() +
                                   ", not to the connected account " + target.identity.external_id,
                               std::nullopt, 200, "identifier"};
    }

    // Each handle once, with com.atproto.identity.resolveHandle. A handle the PDS cannot resolve
    // (400 "Unable to resolve handle") stays plain text; a PDS that does not answer fails the
    // publish, to be tried again, rather than drop the mention for good.
    static MentionedDids resolve_mentions(PlatformApi& pds, std::string_view text) {
        MentionedDids out;
        std::set<std::string> asked;
        for (const auto& mention : find_mentions(text)) {
            if (!asked.insert(mention.handle).second) continue;
            auto answer = read(pds.send(
                "GET", "/xrpc/com.atproto.identity.resolveHandle?handle=" + mention.handle, {}));
            if (answer.failure && answer.failure->kind != FailureKind::refused) {
                out.failure = nothing_published(std::move(*answer.failure));
                return out;
            }
            const auto did = answer.failure ? std::string() : json_text(answer.body, "did");
            if (did.starts_with("did:")) out.dids.emplace(mention.handle, did);
        }
        return out;
    }

    // The card of the text's first link, when its page gives one (link_card.hpp) and the
    // caller gave a way to check where links lead.
    std::optional<json> card_of(const Message& message) const {
        if (!message.check_url) return std::nullopt;
        const auto links = link_facets(message.text);
        if (links.empty()) return std::nullopt;
        const auto timeout = std::min<std::chrono::milliseconds>(
            std::chrono::milliseconds(settings_.timeout_ms), kMaxCardWait);
        return link_card(http_, links[0]["features"][0]["uri"].get<std::string>(), timeout,
                         message.check_url);
    }

    // app.bsky.embed.images of the message's images, each uploaded as a blob first, with its
    // alt_texts entry as alt (empty without one: the lexicon requires the member). The media plan
    // downloads every image for Bluesky, which takes none by URL.
    static Answer embed_images(PdsSession& session, const Message& message) {
        Answer out;
        json images = json::array();
        for (size_t i = 0; i < message.image_urls.size(); ++i) {
            const Upload* file = message.upload_of(i);
            if (!file) {
                out.failure = PlatformFailure{FailureKind::refused,
                                              "Bluesky takes images only as uploads, and " +
                                                  message.image_urls[i] + " was not downloaded",
                                              std::nullopt, 0, ""};
                return out;
            }
            auto blob = session.call("POST", "/xrpc/com.atproto.repo.uploadBlob",
                                     file->content_type, file->bytes);
            if (blob.failure) {
                out.failure = nothing_published(std::move(*blob.failure));
                return out;
            }
            if (object_at(blob.body, "blob").empty()) {
                out.failure = unreadable("Bluesky's uploadBlob answer has no blob");
                return out;
            }
            images.push_back(
                {{"alt", alt_text_of(message.options, i)}, {"image", blob.body["blob"]}});
        }
        out.body = {{"$type", "app.bsky.embed.images"}, {"images", std::move(images)}};
        return out;
    }

    // app.bsky.embed.video of the message's video, processed by the video service first, with
    // its frame's aspect ratio (the app sizes the player before the video loads) and alt text.
    Answer embed_video(PdsSession& session, const std::string& pds_url, const Message& message) {
        auto blob = videos_.upload(session, pds_url, *message.video);
        if (blob.failure) return blob;
        json embed{{"$type", "app.bsky.embed.video"}, {"video", std::move(blob.body)}};
        const auto& video = *message.video;
        if (video.width > 0 && video.height > 0)
            embed["aspectRatio"] = {{"width", video.width}, {"height", video.height}};
        if (auto alt = alt_text_of(message.options, 0); !alt.empty()) embed["alt"] = std::move(alt);
        return {std::move(embed), std::nullopt};
    }

    config::PlatformSettings settings_;
    http::Client& http_;
    VideoService videos_;
};

}  // namespace

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http) {
    return std::make_unique<BlueskyConnector>(settings, http);
}

}  // namespace squawk::social::bluesky
