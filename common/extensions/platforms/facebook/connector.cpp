#include "common/extensions/platforms/facebook/connector.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/domain/social/platform_api.hpp"
#include "common/extensions/platforms/facebook/factory.hpp"
#include "common/extensions/platforms/facebook/graph.hpp"
#include "common/extensions/platforms/facebook/login.hpp"
#include "common/extensions/platforms/facebook/page_inbox.hpp"
#include "common/extensions/platforms/facebook/video_upload.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace squawk::social::facebook {
namespace {

using nlohmann::json;

const std::string kSite = "https://www.facebook.com/";

bool is_access_token(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
               c == '|';
    });
}

std::string credential(const Credentials& credentials, const char* name) {
    const auto found = credentials.find(name);
    return found == credentials.end() ? std::string() : found->second;
}

// A Page post's id is {page}_{post}; a video's (reels, videos) is plain digits and its text is its
// description rather than a message.
bool is_video_id(const std::string& id) {
    return id.find('_') == std::string::npos;
}

std::optional<long long> count_of(const json& value) {
    if (value.is_number_integer()) return value.get<long long>();
    return std::nullopt;
}

// {data: [{name, values: [{value}]}]} of an insights edge: metric name -> its latest value.
std::map<std::string, long long> insight_values(const json& body) {
    std::map<std::string, long long> out;
    for (const auto& metric : body.value("data", json::array())) {
        if (!metric.is_object() || !metric.contains("values") || !metric["values"].is_array() ||
            metric["values"].empty())
            continue;
        const json& last = metric["values"].back();
        if (last.is_object() && last.contains("value") && last["value"].is_number_integer())
            out[json_text(metric, "name")] = last["value"].get<long long>();
    }
    return out;
}

std::optional<long long> summary_count(const json& object, const char* edge) {
    if (!object.contains(edge) || !object[edge].is_object()) return std::nullopt;
    const json& summary = object[edge].value("summary", json::object());
    return summary.is_object() ? count_of(summary.value("total_count", json())) : std::nullopt;
}

class FacebookConnector final : public Connector {
  public:
    FacebookConnector(const config::PlatformSettings& settings, http::Client& http)
        : Connector(kFactory), api_(settings, http) {}

    // The grant's credentials, as the consent flow stores them: there are no connect fields.
    std::vector<FieldProblem> check(Credentials& credentials) const override {
        const auto token = credential(credentials, "access_token");
        if (token.empty())
            return {{"access_token",
                     "Facebook Pages connect through OAuth: GET "
                     "/v1/social/connect/facebook/authorize"}};
        if (!is_access_token(token)) return {{"access_token", "is not a Facebook access token"}};
        if (!is_graph_id(credential(credentials, "page_id")))
            return {{"page_id", "is not the id of a Facebook Page"}};
        return {};
    }

    Verification verify(const Credentials& credentials) override {
        Verification v;
        auto page = read_object(get(credential(credentials, "page_id") + "?fields=id,name,username",
                                    credential(credentials, "access_token")));
        if (page.failure) {
            v.failure = std::move(page.failure);
            if (v.failure->kind == FailureKind::refused) v.failure->field = "access_token";
            return v;
        }
        Identity identity;
        identity.external_id = graph_id(page.body, "id");
        identity.display_name = json_text(page.body, "name");
        identity.handle = json_text(page.body, "username");
        if (identity.external_id.empty()) {
            v.failure = refusal("Facebook's Page answer has no id", 200);
            v.failure->field = "access_token";
            return v;
        }
        v.identity = std::move(identity);
        return v;
    }

    Publication publish(const Target& target, const Message& message) override {
        Publication p;
        if (auto problem = post_problem(message)) {
            p.failure = refusal(*problem);
            return p;
        }
        const std::string page = target.identity.external_id;
        const std::string token = credential(target.credentials, "access_token");
        Answer published;
        if (message.post_type == "reel")
            published = publish_reel(page, token, message);
        else if (message.post_type == "story")
            published = publish_story(page, token, message);
        else if (message.video)
            published = publish_page_video(page, token, message);
        else
            published = publish_post(page, token, message);
        if (published.failure) {
            p.failure = std::move(published.failure);
            return p;
        }
        p.message_id = published.body.value("id", "");
        if (p.message_id.empty()) {
            p.failure = PlatformFailure{FailureKind::unknown_outcome,
                                        "Facebook published the post without naming it",
                                        std::nullopt, 200, ""};
            return p;
        }
        p.url = published.body.value("url", kSite + p.message_id);
        return p;
    }

    // Setting the text it already has succeeds as any edit does.
    MessageChange edit(const Target& target, const std::string& external_id,
                       const Message& message) override {
        if (!is_graph_id(external_id))
            return {refusal("'" + external_id + "' is not the id of a Facebook post")};
        const char* field = is_video_id(external_id) ? "description" : "message";
        auto answer = read_object(api_.send(
            "POST", graph_path(external_id),
            meta_graph::bearer(credential(target.credentials, "access_token")),
            "application/x-www-form-urlencoded", http::form_encode({{field, message.text}})));
        if (!answer.failure && !answer.body.value("success", false))
            return {refusal("Facebook did not change the post", 200)};
        return {std::move(answer.failure)};
    }

    // A post already gone counts as deleted, so that removing may be repeated.
    MessageChange remove(const Target& target, const std::string& external_id) override {
        if (!is_graph_id(external_id))
            return {refusal("'" + external_id + "' is not the id of a Facebook post")};
        auto answer = read_object(
            api_.send("DELETE", graph_path(external_id),
                      meta_graph::bearer(credential(target.credentials, "access_token"))));
        if (answer.failure && meta_graph::names_missing_object(answer.body)) return {};
        if (!answer.failure && !answer.body.value("success", false))
            return {refusal("Facebook did not delete the post", 200)};
        return {std::move(answer.failure)};
    }

    // The Page's own posts, newest first.
    std::optional<RemoteListing> list_recent(const Target& target) override {
        RemoteListing listing;
        auto answer = read_object(
            get(target.identity.external_id +
                    "/posts?fields=id,message,permalink_url,created_time,updated_time&limit=100",
                credential(target.credentials, "access_token")));
        if (answer.failure) {
            listing.failure = std::move(answer.failure);
            return listing;
        }
        if (!answer.body.contains("data") || !answer.body["data"].is_array()) {
            listing.failure =
                PlatformFailure{FailureKind::not_accepted,
                                "Facebook's answer is not a list of posts", std::nullopt, 200, ""};
            return listing;
        }
        for (const auto& item : answer.body["data"]) {
            const auto id = graph_id(item, "id");
            const auto at = meta_graph::parse_graph_time(json_text(item, "created_time"));
            if (id.empty() || !at) continue;
            RemotePost post;
            post.external_id = id;
            post.text = json_text(item, "message");
            if (auto link = json_text(item, "permalink_url"); !link.empty())
                post.url = std::move(link);
            post.published_at = *at;
            const auto edited = meta_graph::parse_graph_time(json_text(item, "updated_time"));
            if (edited && *edited > *at) post.edited_at = *edited;
            listing.posts.push_back(std::move(post));
        }
        return listing;
    }

    // Followers of the Page (followers_count; fan_count, the likes, for Pages that give no
    // followers).
    std::optional<MetricsReading> account_metrics(const Target& target) override {
        MetricsReading reading;
        auto answer =
            read_object(get(target.identity.external_id + "?fields=followers_count,fan_count",
                            credential(target.credentials, "access_token")));
        if (answer.failure) {
            reading.failure = std::move(answer.failure);
            return reading;
        }
        reading.metrics.followers = count_of(answer.body.value("followers_count", json()));
        if (!reading.metrics.followers)
            reading.metrics.followers = count_of(answer.body.value("fan_count", json()));
        return reading;
    }

    // A post's impressions and reach (insights) with its reactions, comments and shares; a
    // video's impressions and views (video_insights).
    std::optional<MetricsReading> post_metrics(const Target& target,
                                               const std::string& external_id) override {
        MetricsReading reading;
        if (!is_graph_id(external_id)) {
            reading.failure = refusal("'" + external_id + "' is not the id of a Facebook post");
            return reading;
        }
        const std::string token = credential(target.credentials, "access_token");
        if (is_video_id(external_id)) {
            auto insights = read_object(get(
                external_id + "/video_insights?metric=total_video_impressions,total_video_views",
                token));
            if (insights.failure) {
                reading.failure = std::move(insights.failure);
                return reading;
            }
            const auto values = insight_values(insights.body);
            if (values.contains("total_video_impressions"))
                reading.metrics.impressions = values.at("total_video_impressions");
            if (values.contains("total_video_views"))
                reading.metrics.video_views = values.at("total_video_views");
            return reading;
        }
        auto insights = read_object(
            get(external_id + "/insights?metric=post_impressions,post_impressions_unique", token));
        if (insights.failure) {
            reading.failure = std::move(insights.failure);
            return reading;
        }
        const auto values = insight_values(insights.body);
        if (values.contains("post_impressions"))
            reading.metrics.impressions = values.at("post_impressions");
        if (values.contains("post_impressions_unique"))
            reading.metrics.reach = values.at("post_impressions_unique");
        auto counts =
            read_object(get(external_id + "?fields=shares,comments.limit(0).summary(true),"
                                          "reactions.limit(0).summary(true)",
                            token));
        if (counts.failure) {
            reading.failure = std::move(counts.failure);
            return reading;
        }
        reading.metrics.likes = summary_count(counts.body, "reactions");
        reading.metrics.comments = summary_count(counts.body, "comments");
        if (counts.body.contains("shares") && counts.body["shares"].is_object())
            reading.metrics.shares = count_of(counts.body["shares"].value("count", json()));
        else
            reading.metrics.shares = 0;
        return reading;
    }

    std::optional<CommentListing> list_comments(const Target& target,
                                                const std::string& external_id,
                                                const std::string& cursor) override {
        return PageInbox(api_, target).comments(external_id, cursor);
    }

    std::optional<Publication> reply_to_comment(const Target& target, const std::string& comment_id,
                                                const Message& message) override {
        return PageInbox(api_, target).reply(comment_id, message.text);
    }

    std::optional<Publication> reply_privately(const Target& target, const std::string& comment_id,
                                               const std::string& text) override {
        return PageInbox(api_, target).reply_privately(comment_id, text);
    }

    std::optional<MessageChange> like_comment(const Target& target,
                                              const std::string& comment_id) override {
        return PageInbox(api_, target).like(comment_id);
    }

    std::optional<MessageChange> moderate_comment(const Target& target,
                                                  const std::string& comment_id,
                                                  Moderation moderation) override {
        return PageInbox(api_, target).moderate(comment_id, moderation);
    }

    std::optional<Publication> send_direct_message(const Target& target,
                                                   const DirectMessage& message) override {
        return PageInbox(api_, target).send(message);
    }

    std::optional<MessageChange> send_typing(const Target& target,
                                             const std::string& recipient_id) override {
        return PageInbox(api_, target).typing(recipient_id);
    }

    // Facebook's consent page takes the scopes comma-separated and ignores the PKCE challenge.
    std::string authorize_url(const OAuthClient& client, const std::string& state,
                              const std::string& code_challenge) const override {
        return consent_url(client, kFactory.oauth_scopes, ",", state, code_challenge);
    }

    // Facebook takes no PKCE verifier: the client secret proves the application.
    TokenGrant exchange_code(const OAuthClient& client, const std::string& code,
                             const std::string&) override {
        return page_grant(api_, client, code);
    }

    // A Page token does not expire, so there is no refresh token: the Page token is read again
    // with the kept long-lived user token.
    TokenGrant refresh(const OAuthClient&, const Credentials& current) override {
        return renewed_page_grant(api_, current);
    }

  private:
    http::Response get(const std::string& rest, const std::string& token) {
        return api_.send("GET", graph_path(rest), meta_graph::bearer(token));
    }

    Answer post_form(const std::string& rest, const std::string& token,
                     const http::FormFields& fields) {
        return read_object(api_.send("POST", graph_path(rest), meta_graph::bearer(token),
                                     "application/x-www-form-urlencoded",
                                     http::form_encode(fields)));
    }

    // A photo uploaded by its URL but not shown on the Page (to be attached or made a story):
    // its id.
    Answer unpublished_photo(const std::string& page, const std::string& token,
                             const std::string& url) {
        auto answer = post_form(page + "/photos", token, {{"url", url}, {"published", "false"}});
        if (answer.failure) {
            answer.failure = nothing_published(std::move(*answer.failure));
            return answer;
        }
        const auto id = graph_id(answer.body, "id");
        if (id.empty()) return {json(), refusal("Facebook stored the photo without an id", 200)};
        return {json{{"id", id}}, std::nullopt};
    }

    // Text (with the link card Facebook makes of a link in it), one photo with the text as its
    // message, or several photos attached to one feed post.
    Answer publish_post(const std::string& page, const std::string& token, const Message& message) {
        const auto& images = message.image_urls;
        if (images.size() == 1) {
            auto answer = post_form(page + "/photos", token,
                                    {{"url", images.front()}, {"message", message.text}});
            if (answer.failure) return answer;
            return {json{{"id", graph_id(answer.body, "post_id")}}, std::nullopt};
        }
        http::FormFields fields;
        if (!message.text.empty()) fields.emplace_back("message", message.text);
        for (size_t i = 0; i < images.size(); ++i) {
            auto photo = unpublished_photo(page, token, images[i]);
            if (photo.failure) return photo;
            fields.emplace_back("attached_media[" + std::to_string(i) + "]",
                                json{{"media_fbid", photo.body["id"]}}.dump());
        }
        auto answer = post_form(page + "/feed", token, fields);
        if (answer.failure) return answer;
        return {json{{"id", graph_id(answer.body, "id")}}, std::nullopt};
    }

    Answer publish_page_video(const std::string& page, const std::string& token,
                              const Message& message) {
        http::FormFields finish;
        if (!message.text.empty()) finish.emplace_back("description", message.text);
        auto answer = publish_video(api_, {page, token, "videos", finish}, *message.video);
        if (answer.failure) return answer;
        const std::string id = answer.body["video_id"];
        return {json{{"id", id}, {"url", kSite + page + "/videos/" + id}}, std::nullopt};
    }

    Answer publish_reel(const std::string& page, const std::string& token, const Message& message) {
        http::FormFields finish = {{"video_state", "PUBLISHED"}};
        if (!message.text.empty()) finish.emplace_back("description", message.text);
        auto answer = publish_video(api_, {page, token, "video_reels", finish}, *message.video);
        if (answer.failure) return answer;
        const std::string id = answer.body["video_id"];
        return {json{{"id", id}, {"url", kSite + "reel/" + id}}, std::nullopt};
    }

    // A story shows no text. Its id is the story post's, when Facebook names it.
    Answer publish_story(const std::string& page, const std::string& token,
                         const Message& message) {
        Answer answer;
        if (message.video) {
            answer = publish_video(api_, {page, token, "video_stories", {}}, *message.video);
        } else {
            auto photo = unpublished_photo(page, token, message.image_urls.front());
            if (photo.failure) return photo;
            const std::string photo_id = photo.body["id"];
            answer = post_form(page + "/photo_stories", token, {{"photo_id", photo_id}});
            if (!answer.failure && !answer.body.value("success", false))
                answer.failure = refusal("Facebook did not publish the story", 200);
            if (!answer.failure) answer.body["video_id"] = photo_id;
        }
        if (answer.failure) return answer;
        auto id = graph_id(answer.body, "post_id");
        if (id.empty()) id = answer.body.value("video_id", "");
        return {json{{"id", id}, {"url", kSite + "stories/" + page}}, std::nullopt};
    }

    PlatformApi api_;
};

}  // namespace

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http) {
    return std::make_unique<FacebookConnector>(settings, http);
}

}  // namespace squawk::social::facebook
