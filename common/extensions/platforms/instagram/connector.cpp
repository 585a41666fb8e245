#include "common/extensions/platforms/instagram/connector.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/domain/social/platform_api.hpp"
#include "common/extensions/platforms/instagram/containers.hpp"
#include "common/extensions/platforms/instagram/facebook_login.hpp"
#include "common/extensions/platforms/instagram/factory.hpp"
#include "common/extensions/platforms/instagram/graph.hpp"
#include "common/extensions/platforms/instagram/media_comments.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace squawk::social::instagram {
namespace {

using nlohmann::json;

constexpr std::string_view kBasic = "instagram_basic";
constexpr std::string_view kComments = "instagram_manage_comments";
constexpr std::string_view kInsights = "instagram_manage_insights";

bool is_access_token(std::string_view text) {
    return std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
               c == '|';
    });
}

std::string credential(const Credentials& credentials, const char* name) {
    const auto found = credentials.find(name);
    return found == credentials.end() ? std::string() : found->second;
}

class InstagramConnector final : public Connector {
  public:
    InstagramConnector(const config::PlatformSettings& settings, http::Client& http)
        : Connector(kFactory), api_(settings, http) {}

    // The grant's credentials, as the consent flow stores them: there are no connect fields.
    std::vector<FieldProblem> check(Credentials& credentials) const override {
        const auto token = credential(credentials, "access_token");
        if (token.empty())
            return {{"access_token",
                     "Instagram accounts connect through Facebook Login: GET "
                     "/v1/social/connect/instagram/authorize"}};
        if (!is_access_token(token)) return {{"access_token", "is not a Facebook access token"}};
        if (!meta_graph::is_graph_id(credential(credentials, "user_id")))
            return {{"user_id", "is not the id of an Instagram professional account"}};
        return {};
    }

    Verification verify(const Credentials& credentials) override {
        Verification v;
        const auto user = credential(credentials, "user_id");
        if (!meta_graph::is_graph_id(user)) {
            v.failure = refusal("the grant names no Instagram professional account; reconnect it");
            v.failure->field = "access_token";
            return v;
        }
        auto account = read_object(
            get(user + "?fields=id,username,name", credential(credentials, "access_token")),
            kBasic);
        if (account.failure) {
            v.failure = std::move(account.failure);
            if (v.failure->kind == FailureKind::refused) v.failure->field = "access_token";
            return v;
        }
        Identity identity;
        identity.external_id = meta_graph::graph_id(account.body, "id");
        identity.handle = json_text(account.body, "username");
        identity.display_name = json_text(account.body, "name");
        if (identity.display_name.empty()) identity.display_name = identity.handle;
        if (identity.external_id != user) {
            v.failure = refusal("Instagram answered for another account than the one connected");
            v.failure->field = "access_token";
            return v;
        }
        v.identity = std::move(identity);
        return v;
    }

    // The post's container made and published once ready, then its first comment. A post Instagram
    // would refuse (no media, too many hashtags) is refused before any call.
    Publication publish(const Target& target, const Message& message) override {
        Publication p;
        if (auto problem = post_problem(message)) {
            p.failure = refusal(std::move(*problem));
            return p;
        }
        const auto token = credential(target.credentials, "access_token");
        Containers containers(api_, token, target.identity.external_id);
        auto container = containers.prepare(message);
        if (container.failure) {
            p.failure = std::move(container.failure);
            return p;
        }
        p = containers.publish(container.id);
        if (p.failure) return p;
        if (!p.url) p.url = permalink(p.message_id, token);
        if (!message.first_comments.empty())
            if (auto refused = comment(p.message_id, token, message.first_comments.front()))
                p.warnings.push_back(std::move(*refused));
        return p;
    }

    // The account's feed media and reels, newest first as Instagram lists them; stories are
    // not listed (they last a day).
    std::optional<RemoteListing> list_recent(const Target& target) override {
        RemoteListing listing;
        auto answer = read_list(get(target.identity.external_id +
                                        "/media?fields=id,caption,permalink,timestamp&limit=100",
                                    credential(target.credentials, "access_token")),
                                kBasic);
        if (answer.failure) {
            listing.failure = std::move(answer.failure);
            return listing;
        }
        for (const auto& item : answer.body["data"]) {
            const auto id = meta_graph::graph_id(item, "id");
            const auto at = meta_graph::parse_graph_time(json_text(item, "timestamp"));
            if (id.empty() || !at) continue;
            RemotePost post;
            post.external_id = id;
            post.text = json_text(item, "caption");
            if (auto link = json_text(item, "permalink"); !link.empty()) post.url = std::move(link);
            post.published_at = *at;
            listing.posts.push_back(std::move(post));
        }
        return listing;
    }

    // Followers and follows from the account, and the day's reach and views (as impressions) from
    // its insights. Insights Instagram refuses (an account under 100 followers has none) leave
    // those counts empty; insights not answered make the reading fail, to be read again.
    std::optional<MetricsReading> account_metrics(const Target& target) override {
        MetricsReading reading;
        const auto& user = target.identity.external_id;
        const auto token = credential(target.credentials, "access_token");
        auto account = read_object(
            get(user + "?fields=followers_count,follows_count,media_count", token), kBasic);
        if (account.failure) {
            reading.failure = std::move(account.failure);
            return reading;
        }
        reading.metrics.followers = count_of(account.body, "followers_count");
        reading.metrics.following = count_of(account.body, "follows_count");
        auto insights = read_list(
            get(user + "/insights?metric=reach,views&period=day&metric_type=total_value", token),
            kInsights);
        if (insights.failure) {
            if (insights.failure->kind != FailureKind::refused)
                reading.failure = std::move(insights.failure);
            return reading;
        }
        reading.metrics.reach = meta_graph::insight_value(insights.body["data"], "reach");
        reading.metrics.impressions = meta_graph::insight_value(insights.body["data"], "views");
        return reading;
    }

    // Likes and comments from the media; reach, saves, shares and views from its insights (a
    // story has no saves; a reel's views are its video views).
    std::optional<MetricsReading> post_metrics(const Target& target,
                                               const std::string& external_id) override {
        MetricsReading reading;
        if (!meta_graph::is_graph_id(external_id)) {
            reading.failure = refusal("'" + external_id + "' is not the id of Instagram media");
            return reading;
        }
        const auto token = credential(target.credentials, "access_token");
        auto media = read_object(
            get(external_id + "?fields=like_count,comments_count,media_product_type", token),
            kBasic);
        if (media.failure) {
            reading.failure = std::move(media.failure);
            return reading;
        }
        auto& m = reading.metrics;
        m.likes = count_of(media.body, "like_count");
        m.comments = count_of(media.body, "comments_count");
        const auto product = json_text(media.body, "media_product_type");
        auto insights = read_list(
            get(external_id + "/insights?metric=" +
                    (product == "STORY" ? "reach,shares,views" : "reach,saved,shares,views"),
                token),
            kInsights);
        if (insights.failure) {
            if (insights.failure->kind != FailureKind::refused)
                reading.failure = std::move(insights.failure);
            return reading;
        }
        const auto& data = insights.body["data"];
        m.reach = meta_graph::insight_value(data, "reach");
        m.saves = meta_graph::insight_value(data, "saved");
        m.shares = meta_graph::insight_value(data, "shares");
        m.impressions = meta_graph::insight_value(data, "views");
        if (product == "REELS") m.video_views = m.impressions;
        return reading;
    }

    // Facebook's consent page takes the permissions comma-separated, and the PKCE challenge.
    std::string authorize_url(const OAuthClient& client, const std::string& state,
                              const std::string& code_challenge) const override {
        return consent_url(client, kFactory.oauth_scopes, ",", state, code_challenge);
    }

    TokenGrant exchange_code(const OAuthClient& client, const std::string& code,
                             const std::string& code_verifier) override {
        return long_lived_grant(api_, client, code, code_verifier);
    }

    TokenGrant refresh(const OAuthClient& client, const Credentials& current) override {
        return refreshed_grant(api_, client, current);
    }

    std::optional<CommentListing> list_comments(const Target& target,
                                                const std::string& external_id,
                                                const std::string& cursor) override {
        return comments_of(target).list(external_id, cursor);
    }

    std::optional<Publication> reply_to_comment(const Target& target, const std::string& comment_id,
                                                const Message& message) override {
        return comments_of(target).reply(comment_id, message.text);
    }

    std::optional<MessageChange> moderate_comment(const Target& target,
                                                  const std::string& comment_id,
                                                  Moderation moderation) override {
        return comments_of(target).moderate(comment_id, moderation);
    }

  private:
    MediaComments comments_of(const Target& target) {
        return MediaComments(api_, credential(target.credentials, "access_token"));
    }

    http::Response get(const std::string& rest, const std::string& token) {
        return api_.send("GET", graph_path(rest), meta_graph::bearer(token));
    }

    // The media's address when the publish did not answer it: Instagram builds it from a
    // shortcode the id does not give, so it is read back. The media is published whatever this
    // answers; without it the post has no url.
    std::optional<std::string> permalink(const std::string& id, const std::string& token) {
        const auto answer = read_object(get(id + "?fields=permalink", token), kBasic);
        if (answer.failure) return std::nullopt;
        auto link = json_text(answer.body, "permalink");
        if (link.empty()) return std::nullopt;
        return link;
    }

    // The post's first comment; the post stays published whatever this answers. A refusal is
    // the warning to show beside the post, in the platform's words.
    std::optional<std::string> comment(const std::string& media_id, const std::string& token,
                                       const std::string& text) {
        const auto answer = read_object(
            api_.send("POST", graph_path(media_id + "/comments"), meta_graph::bearer(token),
                      "application/x-www-form-urlencoded", http::form_encode({{"message", text}})),
            kComments);
        if (!answer.failure) return std::nullopt;
        return "Instagram did not take the first comment: " + answer.failure->reason;
    }

    PlatformApi api_;
};

}  // namespace

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http) {
    return std::make_unique<InstagramConnector>(settings, http);
}

}  // namespace squawk::social::instagram
