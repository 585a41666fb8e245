#include "common/extensions/platforms/linkedin/connector.hpp"
#include "common/extensions/platforms/linkedin/comments.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/domain/social/platform_api.hpp"
#include "common/extensions/platforms/linkedin/factory.hpp"
#include "common/extensions/platforms/linkedin/little_text.hpp"
#include "common/extensions/platforms/linkedin/media.hpp"
#include "common/extensions/platforms/linkedin/organizations.hpp"
#include "common/extensions/platforms/linkedin/rest.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>

namespace squawk::social::linkedin {
namespace {

using nlohmann::json;

// The application authenticates with its id and secret among the form fields; refusals are
// RFC 6749's {error, error_description}. The path serves only when no token_url is configured:
// LinkedIn's endpoint is on www.linkedin.com (the factory's default_token_url).
constexpr TokenEndpoint kTokenEndpoint{"/oauth/v2/accessToken", ClientAuthentication::body};

constexpr std::string_view kFollowersPermission = "r_member_profileAnalytics";

constexpr int kListedPosts = 50;

// LinkedIn names scopes comma-separated; grants keep them space-separated.
TokenGrant with_spaced_scopes(TokenGrant grant) {
    auto scope = grant.credentials.find("scope");
    if (scope != grant.credentials.end())
        std::replace(scope->second.begin(), scope->second.end(), ',', ' ');
    return grant;
}

std::string post_url(const std::string& urn) {
    return "https://www.linkedin.com/feed/update/" + urn;
}

// The first http(s) link of the text, which a post without media shows as an article; closing
// punctuation after it belongs to the sentence.
std::string first_link(std::string_view text) {
    const size_t at = std::min(text.find("https://"), text.find("http://"));
    if (at == std::string_view::npos) return {};
    size_t end = at;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
    while (end > at &&
           std::string_view(".,;:!?'\")]").find(text[end - 1]) != std::string_view::npos)
        --end;
    return std::string(text.substr(at, end - at));
}

std::optional<long long> count_of(const json& object, const char* summary, const char* name) {
    return json_integer(object.value(summary, json::object()), name);
}

class LinkedInConnector final : public Connector {
  public:
    LinkedInConnector(const config::PlatformSettings& settings, http::Client& http)
        : Connector(kFactory),
          api_(settings, http),
          organization_pages_(settings.organization_pages) {}

    // The credentials are a token grant (exchange_code), never typed by a client.
    std::vector<FieldProblem> check(Credentials& credentials) const override {
        const auto token = credentials.find("access_token");
        if (token != credentials.end() && !token->second.empty()) return {};
        return {{"access_token",
                 "LinkedIn accounts connect through OAuth: GET "
                 "/v1/social/connect/linkedin/authorize"}};
    }

    // The OpenID userinfo names the member: sub (the id in their person URN) and name.
    Verification verify(const Credentials& credentials) override {
        Verification v;
        auto me = read_resource(api_.send("GET", "/v2/userinfo", bearer(credentials)),
                                "openid and profile");
        if (me.failure) {
            v.failure = std::move(me.failure);
            return v;
        }
        const auto sub = json_text(me.body, "sub");
        if (sub.empty()) {
            v.failure = refusal("LinkedIn's userinfo names no member", 200);
            v.failure->field = "access_token";
            return v;
        }
        v.identity = Identity{sub, json_text(me.body, "name"), ""};
        return v;
    }

    Publication publish(const Target& target, const Message& message) override {
        Publication p;
        const bool document = message.post_type == "document";
        if (document != message.images_as_documents) {
            p.failure = refusal(document ? "a LinkedIn document post needs one PDF, PowerPoint "
                                           "or Word file as its media"
                                         : "LinkedIn shows this media only as a document: give "
                                           "the post the post_type document");
            return p;
        }
        const auto organization = organization_of(message.options);
        if (organization)
            if (auto refused = check_administrator(api_, target, *organization)) {
                p.failure = std::move(refused);
                return p;
            }
        const std::string author = organization.value_or(person_urn(target.identity.external_id));
        json post = {{"author", author},
                     {"commentary", escape_little_text(message.text)},
                     {"visibility", visibility_of(message.options)},
                     {"distribution",
                      {{"feedDistribution", "MAIN_FEED"},
                       {"targetEntities", json::array()},
                       {"thirdPartyDistributionChannels", json::array()}}},
                     {"lifecycleState", "PUBLISHED"},
                     {"isReshareDisabledByAuthor", false}};
        auto content = post_content(target, author, message);
        if (content.failure) {
            p.failure = std::move(content.failure);
            return p;
        }
        if (!content.body.is_null()) post["content"] = std::move(content.body);
        const auto response =
            api_.send("POST", "/rest/posts", rest_headers(target.credentials), post);
        auto created = read_created(
            response, organization ? kOrganizationPostPermission : kMemberPostPermission);
        if (created.failure) {
            p.failure = std::move(created.failure);
            return p;
        }
        p.message_id = response.header("x-restli-id").value_or("");
        if (p.message_id.empty()) {
            p.failure = refusal("LinkedIn created the post without naming it", response.status);
            p.failure->kind = FailureKind::unknown_outcome;
            return p;
        }
        p.url = post_url(p.message_id);
        return p;
    }

    // A PARTIAL_UPDATE setting the commentary, the one part of a post LinkedIn lets change.
    MessageChange edit(const Target& target, const std::string& external_id,
                       const Message& message) override {
        if (!is_post_urn(external_id)) return {not_a_post(external_id)};
        const json patch = {
            {"patch", {{"$set", {{"commentary", escape_little_text(message.text)}}}}}};
        return {read_done(api_.send("POST", "/rest/posts/" + urn_segment(external_id),
                                    rest_headers(target.credentials, "PARTIAL_UPDATE"), patch),
                          kMemberPostPermission)
                    .failure};
    }

    // A post already gone answers 404 (410 once purged), which counts as deleted: removing may
    // be repeated.
    MessageChange remove(const Target& target, const std::string& external_id) override {
        if (!is_post_urn(external_id)) return {not_a_post(external_id)};
        const auto response = api_.send("DELETE", "/rest/posts/" + urn_segment(external_id),
                                        rest_headers(target.credentials, "DELETE"));
        if (response.status == 404 || response.status == 410) return {};
        return {read_done(response, kMemberPostPermission).failure};
    }

    // The member's published posts, newest first (the author finder, sorted by creation).
    std::optional<RemoteListing> list_recent(const Target& target) override {
        RemoteListing listing;
        const auto author = person_urn(target.identity.external_id);
        auto answer = read_resource(
            api_.send("GET",
                      "/rest/posts?author=" + urn_segment(author) +
                          "&q=author&count=" + std::to_string(kListedPosts) + "&sortBy=CREATED",
                      rest_headers(target.credentials, "FINDER")),
            kReadPermission);
        if (answer.failure) {
            listing.failure = std::move(answer.failure);
            return listing;
        }
        for (const auto& element : answer.body.value("elements", json::array())) {
            const auto id = json_text(element, "id");
            auto published = from_epoch_ms(element, "publishedAt");
            if (!published) published = from_epoch_ms(element, "createdAt");
            if (!is_post_urn(id) || !published ||
                json_text(element, "lifecycleState") != "PUBLISHED")
                continue;
            RemotePost post;
            post.external_id = id;
            post.text = plain_text(json_text(element, "commentary"));
            post.url = post_url(id);
            post.published_at = *published;
            if (const auto modified = from_epoch_ms(element, "lastModifiedAt");
                modified && *modified > *published)
                post.edited_at = *modified;
            listing.posts.push_back(std::move(post));
        }
        return listing;
    }

    std::optional<MetricsReading> account_metrics(const Target& target) override {
        MetricsReading reading;
        auto answer = read_resource(api_.send("GET", "/rest/memberFollowersCount?q=me",
                                              rest_headers(target.credentials, "FINDER")),
                                    kFollowersPermission);
        if (answer.failure) {
            reading.failure = std::move(answer.failure);
            return reading;
        }
        for (const auto& element : answer.body.value("elements", json::array()))
            if (element.contains("memberFollowersCount") &&
                element["memberFollowersCount"].is_number_integer())
                reading.metrics.followers = element["memberFollowersCount"].get<long long>();
        return reading;
    }

    // Likes (reactions of every kind) and comments of a post, from its social actions; a page's
    // post adds its impressions, reach and reshares where organization pages are on.
    std::optional<MetricsReading> post_metrics(const Target& target,
                                               const std::string& external_id) override {
        MetricsReading reading;
        if (!is_post_urn(external_id)) {
            reading.failure = not_a_post(external_id);
            return reading;
        }
        auto answer =
            read_resource(api_.send("GET", "/rest/socialActions/" + urn_segment(external_id),
                                    rest_headers(target.credentials)),
                          kReadPermission);
        if (answer.failure) {
            reading.failure = std::move(answer.failure);
            return reading;
        }
        reading.metrics.likes = count_of(answer.body, "likesSummary", "totalLikes");
        reading.metrics.comments =
            count_of(answer.body, "commentsSummary", "aggregatedTotalComments");
        if (organization_pages_)
            reading.failure = read_page_statistics(api_, target, external_id, reading.metrics);
        return reading;
    }

    std::optional<CommentListing> list_comments(const Target& target,
                                                const std::string& external_id,
                                                const std::string& cursor) override {
        return list_post_comments(api_, target, external_id, cursor);
    }

    std::optional<Publication> reply_to_comment(const Target& target, const std::string& comment_id,
                                                const Message& message) override {
        return reply_to(api_, target, comment_id, message);
    }

    std::optional<MessageChange> like_comment(const Target& target,
                                              const std::string& comment_id) override {
        return like(api_, target, comment_id);
    }

    // LinkedIn offers no hiding of a comment.
    std::optional<MessageChange> moderate_comment(const Target& target,
                                                  const std::string& comment_id,
                                                  Moderation moderation) override {
        if (moderation != Moderation::remove) return std::nullopt;
        return delete_comment(api_, target, comment_id);
    }

    std::string authorize_url(const OAuthClient& client, const std::string& state,
                              const std::string& code_challenge) const override {
        return consent_url(client,
                           organization_pages_
                               ? std::span<const std::string_view>(kOrganizationScopes)
                               : std::span<const std::string_view>(kScopes),
                           " ", state, code_challenge);
    }

    TokenGrant exchange_code(const OAuthClient& client, const std::string& code,
                             const std::string& code_verifier) override {
        return with_spaced_scopes(
            exchange_authorization_code(api_, kTokenEndpoint, client, code, code_verifier));
    }

    // LinkedIn keeps the refresh token (its own year running) and issues a new access token.
    TokenGrant refresh(const OAuthClient& client, const Credentials& current) override {
        return with_spaced_scopes(refresh_access_token(api_, kTokenEndpoint, client, current));
    }

  private:
    // The post's content: a video, a document, one image or several (multiImage), else an
    // article for the text's first link; null for text alone.
    Answer post_content(const Target& target, const std::string& author, const Message& message) {
        Answer out;
        MediaUploads uploads(api_, target.credentials, author);
        if (message.video) {
            auto video = uploads.video(*message.video);
            if (video.failure)
                out.failure = std::move(video.failure);
            else
                out.body = {{"media", {{"id", video.urn}}}};
            return out;
        }
        const auto& urls = message.image_urls;
        for (size_t i = 0; i < urls.size(); ++i)
            if (!message.upload_of(i)) {
                out.failure = refusal("LinkedIn takes media only as uploads, and " + urls[i] +
                                      " was not downloaded");
                return out;
            }
        if (message.images_as_documents) {
            if (urls.size() != 1) {
                out.failure = refusal("a LinkedIn document post has exactly one document");
                return out;
            }
            const Upload& file = *message.upload_of(0);
            auto document = uploads.document(file);
            if (document.failure)
                out.failure = std::move(document.failure);
            else
                out.body = {
                    {"media",
                     {{"id", document.urn}, {"title", title_of(message.options, file.filename)}}}};
            return out;
        }
        json images = json::array();
        for (size_t i = 0; i < urls.size(); ++i) {
            auto image = uploads.image(*message.upload_of(i));
            if (image.failure) {
                out.failure = std::move(image.failure);
                return out;
            }
            images.push_back({{"id", image.urn}});
        }
        if (images.size() == 1)
            out.body = {{"media", images[0]}};
        else if (images.size() > 1)
            out.body = {{"multiImage", {{"images", images}}}};
        else if (const auto link = first_link(message.text); !link.empty())
            out.body = {
                {"article", {{"source", link}, {"title", title_of(message.options, link)}}}};
        return out;
    }

    PlatformApi api_;
    bool organization_pages_;
};

}  // namespace

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http) {
    return std::make_unique<LinkedInConnector>(settings, http);
}

}  // namespace squawk::social::linkedin
