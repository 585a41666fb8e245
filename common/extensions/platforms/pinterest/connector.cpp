#include "common/extensions/platforms/pinterest/connector.hpp"

#include "common/domain/social/oauth_grant.hpp"
#include "common/domain/social/platform_api.hpp"
#include "common/extensions/platforms/pinterest/answers.hpp"
#include "common/extensions/platforms/pinterest/factory.hpp"
#include "common/extensions/platforms/pinterest/metrics.hpp"
#include "common/extensions/platforms/pinterest/pin_body.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>

namespace squawk::social::pinterest {
namespace {

using nlohmann::json;

std::string pin_url(const std::string& id) {
    return "https://www.pinterest.com/pin/" + id + "/";
}

// Pinterest writes created_at in UTC, with or without the zone.
std::optional<time::TimePoint> pin_time(const std::string& text) {
    if (auto at = time::parse_iso8601(text)) return at;
    return time::parse_iso8601(text + "Z");
}

// Why a message cannot be a pin, before any call; "" when it can.
std::string unpinnable(const Message& message) {
    if (!message.video && message.image_urls.empty())
        return "a Pinterest pin needs an image or a video, and this post has only text";
    if (message.image_urls.size() > kFactory.limits.max_images)
        return "a Pinterest carousel has at most " + std::to_string(kFactory.limits.max_images) +
               " images";
    for (size_t i = 0; i < message.image_urls.size(); ++i)
        if (message.upload_of(i))
            return "Pinterest takes images only by public URL, and " + message.image_urls[i] +
                   " was to be uploaded";
    return "";
}

class PinterestConnector final : public Connector {
  public:
    PinterestConnector(const config::PlatformSettings& settings, http::Client& http)
        : Connector(kFactory), api_(settings, http), timeout_(settings.timeout_ms) {}

    // The credentials are a token grant (exchange_code), never typed by a client.
    std::vector<FieldProblem> check(Credentials& credentials) const override {
        const auto token = credentials.find("access_token");
        if (token != credentials.end() && !token->second.empty()) return {};
        return {{"access_token",
                 "Pinterest accounts connect through OAuth: GET "
                 "/v1/social/connect/pinterest/authorize"}};
    }

    Verification verify(const Credentials& credentials) override {
        Verification v;
        auto account = read_object(api_.send("GET", "/v5/user_account", bearer(credentials)));
        if (account.failure) {
            v.failure = std::move(account.failure);
            return v;
        }
        Identity identity;
        identity.external_id = json_text(account.body, "id");
        identity.handle = json_text(account.body, "username");
        identity.display_name = json_text(account.body, "business_name");
        if (identity.display_name.empty()) identity.display_name = identity.handle;
        if (!is_pinterest_id(identity.external_id)) {
            v.failure = refusal("Pinterest's account answer has no user id", 0, "access_token");
            v.failure->http_status = 200;
            return v;
        }
        v.identity = std::move(identity);
        return v;
    }

    // A video pin reads its board first, so that a pin for a board that cannot take it uploads
    // nothing; an image pin names its board in the one call that makes it, and Pinterest's
    // refusal of the board is read from that call's answer.
    Publication publish(const Target& target, const Message& message) override {
        Publication p;
        if (auto reason = unpinnable(message); !reason.empty()) {
            p.failure = refusal(std::move(reason));
            return p;
        }
        const auto board_id = json_text(message.options, "board_id");
        if (!is_pinterest_id(board_id)) {
            p.failure =
                refusal("a Pinterest pin needs the board_id of a board to go to", 0, "board_id");
            return p;
        }
        const auto auth = bearer(target.credentials);
        json pin = pin_fields(message);
        pin["board_id"] = board_id;
        if (message.video) {
            if (auto failure = check_board(target, board_id, auth)) {
                p.failure = std::move(failure);
                return p;
            }
            const auto upload = upload_video(api_, auth, *message.video, timeout_);
            if (upload.failure) {
                p.failure = upload.failure;
                return p;
            }
            pin["media_source"] = video_source(message, upload.media_id);
        } else {
            pin["media_source"] = image_source(message);
        }
        auto created = read_object(api_.send("POST", "/v5/pins", auth, pin));
        if (created.failure) {
            p.failure = board_refusal(std::move(*created.failure), board_id, target.credentials);
            return p;
        }
        p.message_id = json_text(created.body, "id");
        if (!is_pinterest_id(p.message_id)) {
            p.failure = PlatformFailure{FailureKind::unknown_outcome,
                                        "Pinterest created the pin without naming it", std::nullopt,
                                        201, ""};
            return p;
        }
        p.url = pin_url(p.message_id);
        return p;
    }

    // The description (the text), the link and the options' title and alt text; the board and
    // the media stay as they are.
    MessageChange edit(const Target& target, const std::string& external_id,
                       const Message& message) override {
        if (!is_pinterest_id(external_id))
            return {refusal("'" + external_id + "' is not the id of a Pinterest pin")};
        json fields = pin_fields(message);
        fields.erase("board_section_id");
        auto answer = read_object(
            api_.send("PATCH", "/v5/pins/" + external_id, bearer(target.credentials), fields));
        return {std::move(answer.failure)};
    }

    // Pinterest answers a pin already gone with 404, which counts as deleted.
    MessageChange remove(const Target& target, const std::string& external_id) override {
        if (!is_pinterest_id(external_id))
            return {refusal("'" + external_id + "' is not the id of a Pinterest pin")};
        const auto response =
            api_.send("DELETE", "/v5/pins/" + external_id, bearer(target.credentials));
        if (response.status == 404 || response.status / 100 == 2) return {};
        return {read_object(response).failure};
    }

    // The account's pins, newest first.
    std::optional<RemoteListing> list_recent(const Target& target) override {
        RemoteListing listing;
        auto answer =
            read_object(api_.send("GET", "/v5/pins?page_size=100", bearer(target.credentials)));
        if (answer.failure) {
            listing.failure = std::move(answer.failure);
            return listing;
        }
        if (!answer.body.contains("items") || !answer.body["items"].is_array()) {
            listing.failure =
                PlatformFailure{FailureKind::not_accepted,
                                "Pinterest's answer is not a list of pins", std::nullopt, 200, ""};
            return listing;
        }
        for (const auto& item : answer.body["items"]) {
            const auto id = json_text(item, "id");
            const auto at = pin_time(json_text(item, "created_at"));
            if (!is_pinterest_id(id) || !at) continue;
            RemotePost post;
            post.external_id = id;
            post.text = json_text(item, "description");
            post.url = pin_url(id);
            post.published_at = *at;
            listing.posts.push_back(std::move(post));
        }
        std::stable_sort(listing.posts.begin(), listing.posts.end(),
                         [](const RemotePost& a, const RemotePost& b) {
                             return a.published_at > b.published_at;
                         });
        return listing;
    }

    std::optional<MetricsReading> account_metrics(const Target& target) override {
        MetricsReading reading;
        auto account =
            read_object(api_.send("GET", "/v5/user_account", bearer(target.credentials)));
        if (account.failure)
            reading.failure = std::move(account.failure);
        else
            reading.metrics = account_counts(account.body);
        return reading;
    }

    std::optional<MetricsReading> post_metrics(const Target& target,
                                               const std::string& external_id) override {
        MetricsReading reading;
        if (!is_pinterest_id(external_id)) {
            reading.failure = refusal("'" + external_id + "' is not the id of a Pinterest pin");
            return reading;
        }
        auto analytics = read_object(api_.send("GET", pin_analytics_path(external_id, time::now()),
                                               bearer(target.credentials)));
        if (analytics.failure)
            reading.failure = std::move(analytics.failure);
        else
            reading.metrics = pin_counts(analytics.body);
        return reading;
    }

    // Pinterest's consent page takes the scopes comma-separated; it ignores the PKCE challenge.
    std::string authorize_url(const OAuthClient& client, const std::string& state,
                              const std::string& code_challenge) const override {
        return consent_url(client, kFactory.oauth_scopes, ",", state, code_challenge);
    }

    // Pinterest takes no PKCE verifier: the application's Basic credentials prove it. Apps made
    // before continuous refresh became the default must ask for it, and others may.
    TokenGrant exchange_code(const OAuthClient& client, const std::string& code,
                             const std::string&) override {
        return request_tokens(api_, kTokenEndpoint, client,
                              {{"grant_type", "authorization_code"},
                               {"code", code},
                               {"redirect_uri", client.redirect_uri},
                               {"continuous_refresh", "true"}});
    }

    // A continuous refresh token is replaced by the one each refresh answers with.
    TokenGrant refresh(const OAuthClient& client, const Credentials& current) override {
        return refresh_access_token(api_, kTokenEndpoint, client, current);
    }

  private:
    // Nothing when the board exists and is the account's own; a refusal naming board_id when
    // not, or why Pinterest did not say.
    std::optional<PlatformFailure> check_board(const Target& target, const std::string& board_id,
                                               const http::HeaderList& auth) {
        auto board = read_object(api_.send("GET", "/v5/boards/" + board_id, auth));
        if (board.failure && board.failure->http_status == 404)
            return board_refusal(std::move(*board.failure), board_id, target.credentials);
        if (board.failure) {
            // Reading a board publishes nothing: no answer is a sure non-acceptance.
            if (board.failure->kind == FailureKind::unknown_outcome)
                board.failure->kind = FailureKind::not_accepted;
            return board.failure;
        }
        const auto owner = json_text(board.body.value("owner", json::object()), "username");
        const auto& handle = target.identity.handle;
        if (!handle.empty() && owner != handle)
            return refusal("Pinterest board " + board_id + " (board_id) belongs to " +
                               (owner.empty() ? std::string("another account") : owner) +
                               ", not to " + handle,
                           0, "board_id");
        return std::nullopt;
    }

    // Pinterest refuses a pin's board with 404 "Board not found", and with 403 one the account
    // may not pin on; a 403 is the board's only when every scope was granted, as a scope not
    // granted is the other reason for it. Such a refusal names board_id; others stay as they are.
    static PlatformFailure board_refusal(PlatformFailure failure, const std::string& board_id,
                                         const Credentials& credentials) {
        if (failure.kind != FailureKind::refused) return failure;
        if (failure.http_status == 404)
            failure.reason =
                "Pinterest has no board " + board_id + " (board_id): " + failure.reason;
        else if (failure.http_status == 403 &&
                 missing_scopes(credentials, kFactory.oauth_scopes).empty())
            failure.reason = "Pinterest board " + board_id +
                             " (board_id) is not the account's to pin on: " + failure.reason;
        else
            return failure;
        failure.field = "board_id";
        return failure;
    }

    PlatformApi api_;
    std::chrono::milliseconds timeout_;
};

}  // namespace

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http) {
    return std::make_unique<PinterestConnector>(settings, http);
}

}  // namespace squawk::social::pinterest
