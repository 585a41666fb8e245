#include "common/extensions/platforms/bluesky/connector.hpp"

#include "common/core/net/target_url.hpp"
#include "common/domain/social/platform_api.hpp"
#include "common/extensions/platforms/bluesky/facets.hpp"
#include "common/extensions/platforms/bluesky/factory.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>

namespace squawk::social::bluesky {
namespace {

using nlohmann::json;

constexpr std::string_view kPosts = "app.bsky.feed.post";

// XRPC answers its output object, or {error, message} (atproto.com/specs/xrpc).
constexpr AnswerShape kAnswers{
    .speaker = "Bluesky",
    .accepted = [](long status, const json& body) { return status == 200 && body.is_object(); },
    .reason =
        [](const json& body) {
            const auto error = json_text(body, "error");
            const auto message = json_text(body, "message");
            return error.empty() || message.empty() ? error + message : error + ": " + message;
        },
};

// Bluesky tells when a rate limit's window resets as Unix seconds (ratelimit-reset), not as a
// Retry-After delay.
std::optional<std::chrono::seconds> until_reset(const http::Response& response) {
    const auto value = response.header("ratelimit-reset");
    if (!value) return std::nullopt;
    long long reset = 0;
    const char* end = value->data() + value->size();
    if (std::from_chars(value->data(), end, reset).ptr != end) return std::nullopt;
    const long long now = time::to_unix_ms(time::now()) / 1000;
    return std::chrono::seconds(std::max(0LL, reset - now));
}

Answer read(const http::Response& response) {
    auto answer = read_answer(response, kAnswers);
    if (answer.failure && response.status == 429 && !answer.failure->retry_after)
        answer.failure->retry_after = until_reset(response);
    return answer;
}

// The failure of a step that publishes nothing by itself (a session; a blob, which the PDS drops
// unless a record names it within minutes): whatever happened, the post surely was not published.
PlatformFailure nothing_published(PlatformFailure failure) {
    if (failure.kind == FailureKind::unknown_outcome) failure.kind = FailureKind::not_accepted;
    return failure;
}

PlatformFailure unreadable(std::string reason, FailureKind kind = FailureKind::not_accepted) {
    return PlatformFailure{kind, std::move(reason), std::nullopt, 200, ""};
}

// The object member `name` of `object`; an empty object when there is none.
json object_at(const json& object, const char* name) {
    return object.is_object() && object.contains(name) && object[name].is_object() ? object[name]
                                                                                   : json::object();
}

// A handle, DID or e-mail address as typed: no whitespace or control characters.
bool is_identifier(std::string_view text) {
    return text.size() <= 256 && std::none_of(text.begin(), text.end(), [](char c) {
               return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f;
           });
}

// Where a post lives: "at://<did>/app.bsky.feed.post/<rkey>", as publish() returns it.
struct PostAddress {
    std::string repo;
    std::string rkey;
};

std::optional<PostAddress> parse_post_uri(std::string_view uri) {
    constexpr std::string_view kScheme = "at://";
    if (!uri.starts_with(kScheme)) return std::nullopt;
    uri.remove_prefix(kScheme.size());
    const auto slash = uri.find('/');
    if (slash == std::string_view::npos || slash == 0) return std::nullopt;
    const auto repo = uri.substr(0, slash);
    auto path = uri.substr(slash + 1);
    if (!path.starts_with(kPosts) || path.substr(kPosts.size()).size() < 2 ||
        path[kPosts.size()] != '/')
        return std::nullopt;
    const auto rkey = path.substr(kPosts.size() + 1);
    if (rkey.size() > 512 || rkey.find('/') != std::string_view::npos) return std::nullopt;
    return PostAddress{std::string(repo), std::string(rkey)};
}

std::string post_url(const std::string& handle, const std::string& rkey) {
    return "https://bsky.app/profile/" + handle + "/post/" + rkey;
}

PlatformFailure bad_id(const std::string& external_id) {
    return PlatformFailure{FailureKind::refused,
                           "'" + external_id + "' is not a post of this Bluesky account",
                           std::nullopt, 0, ""};
}

// An authenticated session on the account's PDS.
struct Session {
    std::string did;
    std::string handle;
    http::HeaderList bearer;                 // the Authorization header with its access token
    std::optional<PlatformFailure> failure;  // set when no session was opened
};

class BlueskyConnector final : public Connector {
  public:
    BlueskyConnector(const config::PlatformSettings& settings, http::Client& http)
        : Connector(kFactory), settings_(settings), http_(http) {}

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

    Verification verify(const Credentials& credentials) override {
        Verification v;
        auto pds = pds_of(credentials);
        auto session = open_session(pds, credentials);
        if (session.failure) {
            v.failure = std::move(session.failure);
            return v;
        }
        v.identity = Identity{session.did, session.handle, session.handle};
        return v;
    }

    // One session per publish (createSession is limited to 30 per 5 minutes and 300 a day per
    // account): tokens are not kept between operations.
    Publication publish(const Target& target, const Message& message) override {
        Publication p;
        auto pds = pds_of(target.credentials);
        auto session = open_target_session(pds, target);
        if (session.failure) {
            p.failure = std::move(session.failure);
            return p;
        }
        json post{{"$type", kPosts},
                  {"text", message.text},
                  {"createdAt", time::format_iso8601(time::now())}};
        if (auto facets = link_facets(message.text); !facets.empty())
            post["facets"] = std::move(facets);
        if (!message.image_urls.empty()) {
            auto embed = embed_images(pds, session, message);
            if (embed.failure) {
                p.failure = std::move(embed.failure);
                return p;
            }
            post["embed"] = std::move(embed.body);
        }
        auto created =
            read(pds.send("POST", "/xrpc/com.atproto.repo.createRecord", session.bearer,
                          {{"repo", session.did}, {"collection", kPosts}, {"record", post}}));
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
        p.url = post_url(session.handle, address->rkey);
        return p;
    }

    // The PDS answers a record already gone like a deletion, so removing may be repeated.
    MessageChange remove(const Target& target, const std::string& external_id) override {
        const auto address = parse_post_uri(external_id);
        if (!address || address->repo != target.identity.external_id) return {bad_id(external_id)};
        auto pds = pds_of(target.credentials);
        auto session = open_target_session(pds, target);
        if (session.failure) return {std::move(session.failure)};
        return {
            read(pds.send("POST", "/xrpc/com.atproto.repo.deleteRecord", session.bearer,
                          {{"repo", session.did}, {"collection", kPosts}, {"rkey", address->rkey}}))
                .failure};
    }

    // The account's own posts (no replies, no reposts), newest first.
    std::optional<RemoteListing> list_recent(const Target& target) override {
        RemoteListing listing;
        auto pds = pds_of(target.credentials);
        auto session = open_target_session(pds, target);
        if (session.failure) {
            listing.failure = std::move(session.failure);
            return listing;
        }
        auto answer = read(pds.send("GET",
                                    "/xrpc/app.bsky.feed.getAuthorFeed?actor=" + session.did +
                                        "&limit=100&filter=posts_no_replies",
                                    session.bearer));
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
            if (!address || address->repo != session.did || !at) continue;
            RemotePost remote;
            remote.external_id = json_text(post, "uri");
            remote.text = json_text(record, "text");
            remote.url = post_url(session.handle, address->rkey);
            remote.published_at = *at;
            listing.posts.push_back(std::move(remote));
        }
        return listing;
    }

  private:
    // The PDS a `service` names: an http(s) URL with no query or credentials, without the final
    // slash (XRPC paths follow it). Plain http only where the configured PDS is plain http itself
    // (a loopback fake in development and tests): connectors do not see
    // security.allow_private_targets.
    std::optional<std::string> pds_address(std::string_view text) const {
        try {
            const auto url = net::parse_url(text);
            if (url.target.find('?') != std::string::npos) return std::nullopt;
            if (url.scheme != "https" && !settings_.api_base_url.starts_with("http://"))
                return std::nullopt;
        } catch (const net::TargetRefused&) {
            return std::nullopt;
        }
        if (text.ends_with('/')) text.remove_suffix(1);
        return std::string(text);
    }

    // The account's PDS: its `service`, or the configured one.
    PlatformApi pds_of(const Credentials& credentials) const {
        config::PlatformSettings pds = settings_;
        const auto service = credentials.find("service");
        if (service != credentials.end() && !service->second.empty())
            pds.api_base_url = service->second;
        return PlatformApi(pds, http_);
    }

    static Session open_session(PlatformApi& pds, const Credentials& credentials) {
        Session session;
        auto answer = read(pds.send("POST", "/xrpc/com.atproto.server.createSession", {},
                                    {{"identifier", credentials.at("identifier")},
                                     {"password", credentials.at("app_password")}}));
        if (answer.failure) {
            session.failure = nothing_published(std::move(*answer.failure));
            session.failure->field = "app_password";
            return session;
        }
        session.did = json_text(answer.body, "did");
        session.handle = json_text(answer.body, "handle");
        const auto token = json_text(answer.body, "accessJwt");
        if (session.did.empty() || session.handle.empty() || token.empty()) {
            session.failure = unreadable("Bluesky's session names no account or token");
            return session;
        }
        session.bearer = {{"Authorization", "Bearer " + token}};
        return session;
    }

    // A session of the connected account: a handle can move to another account, whose
    // credentials must not post in its name.
    static Session open_target_session(PlatformApi& pds, const Target& target) {
        auto session = open_session(pds, target.credentials);
        if (!session.failure && session.did != target.identity.external_id)
            session.failure =
                PlatformFailure{FailureKind::refused,
                                "these credentials sign in to " + session.did +
                                    ", not to the connected account " + target.identity.external_id,
                                std::nullopt, 200, "identifier"};
        return session;
    }

    // app.bsky.embed.images of the message's images, each uploaded as a blob first (empty alt
    // text). The media plan downloads every image for Bluesky, which takes none by URL.
    static Answer embed_images(PlatformApi& pds, const Session& session, const Message& message) {
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
            auto blob = read(pds.send("POST", "/xrpc/com.atproto.repo.uploadBlob", session.bearer,
                                      file->content_type, file->bytes));
            if (blob.failure) {
                out.failure = nothing_published(std::move(*blob.failure));
                return out;
            }
            if (object_at(blob.body, "blob").empty()) {
                out.failure = unreadable("Bluesky's uploadBlob answer has no blob");
                return out;
            }
            images.push_back({{"alt", ""}, {"image", blob.body["blob"]}});
        }
        out.body = {{"$type", "app.bsky.embed.images"}, {"images", std::move(images)}};
        return out;
    }

    config::PlatformSettings settings_;
    http::Client& http_;
};

}  // namespace

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http) {
    return std::make_unique<BlueskyConnector>(settings, http);
}

}  // namespace squawk::social::bluesky
