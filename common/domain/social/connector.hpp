// The one interface every social platform implements (verify credentials, publish, limits) and
// the registry of platforms as data. Platforms live in common/extensions/platforms/<name>/.
#pragma once

#include "common/core/http/http_client.hpp"
#include "common/core/net/target_url.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/social/social_settings.hpp"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace squawk::db {
class Session;
}

namespace squawk::social {

// Resolves a URL the platform's work fetches on a user's behalf (a media file, a linked page) and
// checks where it leads (net::check_target with security.allow_private_targets).
using TargetCheck = std::function<net::CheckedTarget(const std::string& url)>;

// The connect fields as the client sent them (bot_token, chat, ...); sealed at rest as a whole.
using Credentials = std::map<std::string, std::string>;

// One problem with one connect field, found before or by the platform.
struct FieldProblem {
    std::string field;
    std::string reason;
};

// How a platform call failed. The publish worker decides on it: only a sure non-acceptance may
// be sent again; an unknown outcome must never be resent blindly.
enum class FailureKind {
    not_accepted,     // refused connection, 429, 5xx answered: nothing happened, retry later
    unknown_outcome,  // the request went out and no answer came: it may have been acted on
    refused,          // the platform said no for good (bad token, chat not found, too long)
};

// What a refusal says about the account's access beyond the one call.
enum class AccessLoss {
    none,
    token_refused,       // the access token is invalid, expired or revoked
    permission_missing,  // the token lacks a permission the call needs: only a reconnect mends it
};

struct PlatformFailure {
    FailureKind kind = FailureKind::refused;
    std::string reason;                               // the platform's words, never a token
    std::optional<std::chrono::seconds> retry_after;  // from 429 retry_after / Retry-After
    long http_status = 0;                             // 0 when no answer arrived
    std::string field;                                // the connect field a refusal is about
    bool rate_limited = false;  // the platform said to slow down (a 429 or its own words for it)
    AccessLoss access = AccessLoss::none;
};

// Who the credentials speak for, as the platform names it.
struct Identity {
    std::string external_id;   // Telegram chat id, Discord channel id, WhatsApp phone number id
    std::string display_name;  // chat title, channel or webhook name, verified phone name
    std::string handle;        // public handle for links (Telegram @username), may be empty
};

struct Verification {
    std::optional<Identity> identity;        // set when the platform accepted the credentials
    std::optional<PlatformFailure> failure;  // set otherwise
};

// An image's bytes, downloaded because the platform takes it only as an upload.
struct Upload {
    std::string filename;
    std::string content_type;
    std::string bytes;
};

// A post's video, downloaded (and transcoded where the platform's rules asked) to a local file
// the connector uploads from in chunks (read_chunk), so that it is never held in memory whole.
struct Video {
    std::string url;           // the post's media URL
    std::string path;          // the local file to upload
    std::string content_type;  // after any transcode: video/mp4 as a rule
    long long bytes = 0;
    double duration_seconds = 0;
    int width = 0;
    int height = 0;
    // The file is Squawk's transcode, not the media URL's bytes: a platform that fetches videos
    // by URL itself (Threads) cannot be given it.
    bool transcoded = false;
    // Bytes [offset, offset + length) of the file, fewer at its end; throws std::runtime_error
    // when the file cannot be read.
    std::string read_chunk(long long offset, size_t length) const;
};

// The most a connector reads of a video at once: chunked upload protocols send pieces of this
// size or smaller, which bounds the worker's memory per publish.
inline constexpr size_t kVideoChunkBytes = 8 * 1024 * 1024;

// What one publish sends: text and images by public URL, some of them uploaded instead.
struct Message {
    std::string text;
    std::vector<std::string> image_urls;
    // Every image goes as a file (a document) rather than a photo: the media plan decided so for
    // images over the photo limit or of a type the platform shows only as a file. All or none,
    // because platforms that take documents do not mix them with photos in one album.
    bool images_as_documents = false;
    // Parallel to image_urls (or empty): an image with an upload is sent as that file rather than
    // by its URL.
    std::vector<std::optional<Upload>> uploads;
    // The upload of image `index`; nullptr when it goes by its URL.
    const Upload* upload_of(size_t index) const {
        return index < uploads.size() && uploads[index] ? &*uploads[index] : nullptr;
    }
    // Stable across attempts of one publish (at most 25 characters): platforms that take one
    // answer a repeated send with the message already created instead of a second one.
    std::string idempotency_key;
    // For fetching what the text links to (a link card's page); null: nothing is fetched.
    TargetCheck check_url;
    // The post's first_comments, for platforms that post them under the published message
    // (PlatformLimits::posts_first_comments); the others never read them.
    std::vector<std::string> first_comments;
    // The post's video, when its media is one; image_urls is empty then.
    std::optional<Video> video;
    // One of the factory's post_types (the first when the post named none).
    std::string post_type;
    // The post's platform_options.<platform> as its factory's check_options accepted them,
    // without scheduled_time and post_type (an object, maybe empty).
    nlohmann::json options = nlohmann::json::object();
};

// The account a message goes to: its identity and credentials as stored.
struct Target {
    Identity identity;
    Credentials credentials;
};

struct Publication {
    std::string message_id;                  // the platform's id of the sent message
    std::optional<std::string> url;          // where derivable
    std::optional<PlatformFailure> failure;  // set when nothing (certain) was published
    // What was asked and did not go out while the message itself did (the rest of a thread, a
    // first comment): the target stands published, and these sentences show beside it.
    std::vector<std::string> warnings;
};

// The outcome of changing a message already published (edit or delete): nothing on success.
struct MessageChange {
    std::optional<PlatformFailure> failure;
};

// A message already on the platform, as the account's listing shows it.
struct RemotePost {
    std::string external_id;
    std::string text;
    std::optional<std::string> url;
    time::TimePoint published_at;
    std::optional<time::TimePoint> edited_at;
};

struct RemoteListing {
    std::vector<RemotePost> posts;           // newest first
    std::optional<PlatformFailure> failure;  // set when the platform did not answer the listing
};

// Counts a platform exposes for an account or a post, read by the sync pool and stored for
// analytics; a count the platform does not give stays empty.
struct Metrics {
    std::optional<long long> followers;
    std::optional<long long> following;
    std::optional<long long> impressions;
    std::optional<long long> reach;
    std::optional<long long> likes;
    std::optional<long long> comments;
    std::optional<long long> shares;
    std::optional<long long> saves;
    std::optional<long long> video_views;
};

struct MetricsReading {
    Metrics metrics;
    std::optional<PlatformFailure> failure;  // set when the platform did not answer
};

// A comment under a published message (or a reply to one), as the platform lists it.
struct RemoteComment {
    std::string external_id;
    std::string parent_id;  // the comment it answers; empty under the message itself
    std::string author_id;
    std::string author_name;
    std::string text;
    time::TimePoint created_at;
    bool hidden = false;
};

struct CommentListing {
    std::vector<RemoteComment> comments;     // oldest first
    std::optional<std::string> next_cursor;  // the platform's cursor for the following page
    std::optional<PlatformFailure> failure;  // set when the platform did not answer
};

// What a comment moderation does to a comment.
enum class Moderation { hide, unhide, remove };

// A direct message to one person in a conversation the account takes part in.
struct DirectMessage {
    std::string recipient_id;  // the platform's id of the person (or of the conversation)
    std::string text;
    std::vector<std::string> image_urls;
    // Buttons and quick replies as the inbox validated them (at most 3 and 13), for platforms that
    // show them; the others send the text alone.
    std::vector<std::string> buttons;
    std::vector<std::string> quick_replies;
};

// What a platform takes as media, by public URL or uploaded, as data for the media plan. Sizes
// are bytes.
struct MediaRules {
    std::span<const std::string_view> photo_types;  // content types shown as photos or embeds
    long long max_photo_bytes = 0;  // by URL; larger photos are uploaded, or fail; 0: no limit
    // False for a platform that takes photos only as uploads (Bluesky's blobs): every photo is
    // downloaded and uploaded, up to max_photo_upload_bytes, as the normal way rather than a fix.
    bool photos_by_url = true;
    // Content types sent only as documents, and the only ones a document sent by URL may have.
    std::span<const std::string_view> document_types;
    long long max_document_bytes = 0;         // by URL; 0: the platform takes no documents by URL
    long long max_photo_upload_bytes = 0;     // 0: the platform takes no uploaded photos
    long long max_document_upload_bytes = 0;  // 0: the platform takes no uploaded documents
    // Videos: the container types taken as they are (others are transcoded to H.264/AAC MP4),
    // the largest file and the longest duration; no video_types: the platform takes no video.
    std::span<const std::string_view> video_types = {};
    long long max_video_bytes = 0;
    double max_video_seconds = 0;  // 0: no limit
    // The frames taken: width / height within [min_video_aspect, max_video_aspect] and the longer
    // side at most max_video_long_side pixels (0: no bound). Another video is transcoded: padded
    // to the nearest aspect taken (nothing of the picture is cut), then scaled down.
    double min_video_aspect = 0;
    double max_video_aspect = 0;
    int max_video_long_side = 0;
};

// Validation limits of a platform as data, for the posts validator.
struct PlatformLimits {
    size_t max_text_chars = 0;
    // How the platform counts a text's characters against those limits (X weighs links and
    // heavy scripts); null: one per code point.
    size_t (*text_length)(std::string_view text) = nullptr;
    // A rule of the platform on a post's text beyond its length (Instagram's 30 hashtags), checked
    // when the post is created: the problem in a sentence naming the platform, or nothing.
    std::optional<std::string> (*text_problem)(std::string_view text) = nullptr;
    size_t max_caption_chars = 0;  // text sent with media, when the platform bounds it apart
    size_t min_album_items = 0;    // 0 when albums are not supported
    size_t max_album_items = 0;
    size_t max_images = 0;
    bool can_publish = true;  // false for verify-only platforms
    // Whether a published message can be edited and deleted through the platform's API.
    bool can_edit = false;
    bool can_remove = false;
    // Whether publish() posts Message::first_comments under the message.
    bool posts_first_comments = false;
    // Whether every post needs media (an image or a video): a text-only post is refused when it
    // is created.
    bool requires_media = false;
    MediaRules media;
};

// How an account of a platform is connected. Token and app_password send their credential fields
// in the connect body; oauth sends the user to the platform's consent page and back
// (GET /v1/social/connect/{platform}/authorize, then the callback route).
enum class ConnectStyle { token, oauth, app_password };

// An OAuth 2.0 application registered with the platform ([social.<id>] client_id, client_secret
// and authorize_url) and the address the platform sends the user back to.
struct OAuthClient {
    std::string client_id;
    std::string client_secret;
    std::string authorize_url;  // the platform's consent page
    std::string redirect_uri;   // our callback route, registered with the application
    // The token endpoint's full address for platforms that keep it on another host than their
    // API ([social.<id>] token_url); empty: the connector's endpoint under the API's base URL.
    std::string token_url;
};

// Tokens a platform granted, kept as credential fields and sealed with the rest: access_token,
// refresh_token (when the platform gives one), expires_at (unix seconds, when the access token
// expires) and scope (the granted scopes, space-separated), plus any the platform needs (a page
// token, a user id).
struct TokenGrant {
    Credentials credentials;
    std::optional<PlatformFailure> failure;
};

// The longest value of any connect field a client may send.
inline constexpr size_t kMaxCredentialChars = 2048;

// One field of a platform's connect body, for the request check and the OpenAPI schema.
struct CredentialField {
    std::string_view name;
    std::string_view description;
    bool required = true;
};

class Connector;

// A problem with the post's platform_options.<platform>: `field` inside that object.
using OptionProblems = std::vector<FieldProblem>;

// A post about to be stored (created or edited) with targets on one platform, for the checks
// that need the database (PlatformFactory::admit_post).
struct PostAdmission {
    std::vector<std::pair<std::string, long long>> accounts;  // {public id, row id}
    std::string post_type;
    long long post_id = 0;  // the post being edited; 0 when it is being created
    time::TimePoint now;
};

// How many media items a post of one type carries where that is narrower than the platform's
// limits (a story is one photo or one video): checked when the post is created, since the count is
// known then, while what each item is waits for the publish worker's probe.
struct PostTypeMedia {
    std::string_view post_type;
    size_t min_items = 0;
    size_t max_items = 0;
    std::string_view items;  // what it carries, for the message: "one photo or one video"
};

// A platform as data: everything the API, the configuration and the validators know of it without
// building a connector, and how to build one. Each lives in its extension folder's factory.hpp.
struct PlatformFactory {
    std::string_view id;  // stored on accounts and posts, and the connect path segment
    std::span<const std::string_view> aliases;  // other path segments that mean this platform
    std::string_view display_name;              // in messages: "Telegram refused: ..."
    std::span<const CredentialField> credential_fields;
    std::string_view connect_description;  // what the connect body holds, for the OpenAPI schema
    ConnectStyle connect_style = ConnectStyle::token;
    PlatformLimits limits;
    std::string_view default_base_url;
    // ConnectStyle::oauth: the consent page and the scopes asked for, each of which the account
    // must grant (one missing is CONNECTION_SCOPE_MISSING).
    std::string_view default_authorize_url;
    std::span<const std::string_view> oauth_scopes;
    // The token endpoint when it is on another host than the API (see OAuthClient::token_url).
    std::string_view default_token_url = {};
    // Where media uploads go when not to the API's host (Bluesky's video service).
    std::string_view default_upload_url = {};
    // The post types the platform publishes (platform_options.<id>.post_type), the default
    // first; empty: only "post". Another is 422 POST_TYPE_UNSUPPORTED listing these.
    std::span<const std::string_view> post_types = {};
    std::span<const PostTypeMedia> post_type_media = {};
    // Checks platform_options.<id> apart from scheduled_time and post_type (both removed before
    // the call); null: the platform takes no other option, and any is refused as unknown.
    OptionProblems (*check_options)(const nlohmann::json& options,
                                    std::string_view post_type) = nullptr;
    // Checks of a post going to accounts of this platform that need the database (Facebook's
    // reel limit), run in the transaction that stores it; throws ApiError. null: none.
    void (*admit_post)(db::Session& s, const PostAdmission& post) = nullptr;
    std::string_view settings_section;  // [social.<settings_section>]
    std::unique_ptr<Connector> (*make)(const config::PlatformSettings& settings,
                                       http::Client& http) = nullptr;
};

class Connector {
  public:
    explicit Connector(const PlatformFactory& factory) : factory_(factory) {}
    virtual ~Connector() = default;
    // The platform's id and limits as its factory declares them.
    std::string_view platform() const;
    const PlatformLimits& limits() const;
    // The form of the connect fields, before any platform call; empty when they may be tried.
    // May normalize values (a t.me link becomes @name).
    virtual std::vector<FieldProblem> check(Credentials& credentials) const = 0;
    // Asks the platform who the credentials are; makes no change there.
    virtual Verification verify(const Credentials& credentials) = 0;
    virtual Publication publish(const Target& target, const Message& message) = 0;
    // Replaces the text of the published message `external_id` (as publish() returned it) with
    // `message.text`; `message.image_urls` says whether it went out with media (a caption).
    // Setting the text it already has succeeds: edits may be repeated.
    virtual MessageChange edit(const Target& target, const std::string& external_id,
                               const Message& message);
    // Deletes the published message `external_id`; a message already gone counts as deleted.
    virtual MessageChange remove(const Target& target, const std::string& external_id);
    // Recent messages of the account's chat or channel, for importing posts published natively;
    // nothing when the platform gives this kind of account no way to list them.
    virtual std::optional<RemoteListing> list_recent(const Target&) { return std::nullopt; }
    // Whether publish() to this target may be repeated after an unknown outcome without a
    // second message (the platform deduplicates on Message::idempotency_key).
    virtual bool resends_safely(const Target&) const { return false; }
    // The account's counts now (followers at least, where the platform tells them); nothing
    // when the platform exposes none for this kind of account.
    virtual std::optional<MetricsReading> account_metrics(const Target&) { return std::nullopt; }
    // The counts of the published message `external_id`; nothing when the platform exposes none.
    virtual std::optional<MetricsReading> post_metrics(const Target&, const std::string&) {
        return std::nullopt;
    }

    // The inbox's operations on comments and direct messages (spec: comments, conversations).
    // A platform overrides those its API offers; nothing means it offers no such operation, which
    // the inbox answers as unsupported for the account's platform without calling it.
    // Comments under the published message `external_id`, a page from `cursor` (empty: first).
    virtual std::optional<CommentListing> list_comments(const Target&, const std::string&,
                                                        const std::string&) {
        return std::nullopt;
    }
    // Publishes `message` as a public reply to the comment `comment_id`.
    virtual std::optional<Publication> reply_to_comment(const Target&, const std::string&,
                                                        const Message&) {
        return std::nullopt;
    }
    // Sends the comment's author a private message about it (Meta's private replies).
    virtual std::optional<Publication> reply_privately(const Target&, const std::string&,
                                                       const std::string&) {
        return std::nullopt;
    }
    virtual std::optional<MessageChange> like_comment(const Target&, const std::string&) {
        return std::nullopt;
    }
    virtual std::optional<MessageChange> moderate_comment(const Target&, const std::string&,
                                                          Moderation) {
        return std::nullopt;
    }
    virtual std::optional<Publication> send_direct_message(const Target&, const DirectMessage&) {
        return std::nullopt;
    }
    // Shows the recipient that the account is writing (a typing indicator), where the platform
    // has one.
    virtual std::optional<MessageChange> send_typing(const Target&, const std::string&) {
        return std::nullopt;
    }

    // OAuth platforms (ConnectStyle::oauth) override these three; the others never call them.
    // The consent page's address asking for the factory's oauth_scopes, carrying `state` and the
    // PKCE S256 `code_challenge`.
    virtual std::string authorize_url(const OAuthClient& client, const std::string& state,
                                      const std::string& code_challenge) const;
    // Trades the code the platform's redirect brought (with the PKCE verifier) for tokens.
    virtual TokenGrant exchange_code(const OAuthClient& client, const std::string& code,
                                     const std::string& code_verifier);
    // New tokens for the refresh token in `current`. A grant without a new refresh_token keeps
    // the stored one (the caller merges the grant over `current`).
    virtual TokenGrant refresh(const OAuthClient& client, const Credentials& current);

  private:
    const PlatformFactory& factory_;
};

// Every platform this build can connect, in a fixed order (common/extensions/platforms/
// registered.cpp).
std::span<const PlatformFactory> registered_platforms();
// The platform named by its id or one of its aliases; nullptr when none is.
const PlatformFactory* find_platform(std::string_view id_or_alias);
// The post type a post without one gets on `platform` ("post" when it declares none).
std::string_view default_post_type(const PlatformFactory& platform);
// Whether `platform` publishes posts of `post_type`.
bool takes_post_type(const PlatformFactory& platform, std::string_view post_type);
// "post, reel, story": the accepted types, for the POST_TYPE_UNSUPPORTED message.
std::string accepted_post_types(const PlatformFactory& platform);
// The connector of `platform` configured from config.social; nullptr for an unknown platform.
std::unique_ptr<Connector> make_connector(std::string_view platform,
                                          const config::SocialSettings& settings,
                                          http::Client& http);

}  // namespace squawk::social
