#include "common/extensions/platforms/x/replies.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/extensions/platforms/x/answers.hpp"
#include "common/extensions/platforms/x/options.hpp"

#include <algorithm>

namespace squawk::social::x {
namespace {

using nlohmann::json;

// A like's and a hide's answer: {data: {liked}} or {data: {hidden}}.
constexpr AnswerShape kChange{
    .speaker = "X",
    .accepted =
        [](long status, const json& body) {
            return status == 200 && body.is_object() && body.contains("data") &&
                   body["data"].is_object();
        },
    .reason = reason_of,
};

// A post as the lookup answers it, with its author.
constexpr AnswerShape kPost{
    .speaker = "X",
    .accepted =
        [](long status, const json& body) {
            return status == 200 && body.is_object() && body.contains("data") &&
                   body["data"].is_object() && !json_text(body["data"], "author_id").empty();
        },
    .reason = reason_of,
};

constexpr int kSearchPage = 100;

std::string replied_to(const json& post) {
    for (const auto& reference : post.value("referenced_tweets", json::array()))
        if (json_text(reference, "type") == "replied_to") return json_text(reference, "id");
    return "";
}

std::string name_of(const json& users, const std::string& id) {
    for (const auto& user : users)
        if (json_text(user, "id") == id) {
            auto name = json_text(user, "name");
            return name.empty() ? json_text(user, "username") : name;
        }
    return id;
}

MessageChange not_a_post(const std::string& id) {
    return {refusal("'" + id + "' is not the id of an X post")};
}

}  // namespace

CommentListing conversation(PlatformApi& api, const Credentials& credentials,
                            const std::string& post_id, const std::string& cursor) {
    CommentListing listing;
    if (!is_post_id(post_id)) {
        listing.failure = not_a_post(post_id).failure;
        return listing;
    }
    std::string path =
        "/2/tweets/search/recent?query=" + http::percent_encode("conversation_id:" + post_id) +
        "&max_results=" + std::to_string(kSearchPage) +
        "&tweet.fields=author_id,created_at,referenced_tweets&expansions=author_id"
        "&user.fields=name,username";
    if (!cursor.empty()) path += "&next_token=" + http::percent_encode(cursor);
    auto answer = read(api.send("GET", path, bearer(credentials)), kTimeline);
    if (answer.failure) {
        listing.failure = std::move(answer.failure);
        return listing;
    }
    const json users = answer.body.value("includes", json::object()).value("users", json::array());
    for (const auto& post : answer.body.value("data", json::array())) {
        const auto id = json_text(post, "id");
        const auto at = time::parse_iso8601(json_text(post, "created_at"));
        if (!is_post_id(id) || !at || id == post_id) continue;
        RemoteComment comment;
        comment.external_id = id;
        if (auto parent = replied_to(post); parent != post_id)
            comment.parent_id = std::move(parent);
        comment.author_id = json_text(post, "author_id");
        comment.author_name = name_of(users, comment.author_id);
        comment.text = json_text(post, "text");
        comment.created_at = *at;
        listing.comments.push_back(std::move(comment));
    }
    std::reverse(listing.comments.begin(), listing.comments.end());
    if (auto next = json_text(answer.body.value("meta", json::object()), "next_token");
        !next.empty())
        listing.next_cursor = std::move(next);
    return listing;
}

MessageChange like(PlatformApi& api, const Target& target, const std::string& post_id) {
    if (!is_post_id(post_id)) return not_a_post(post_id);
    auto answer = read(
        api.send("POST", "/2/users/" + http::percent_encode(target.identity.external_id) + "/likes",
                 bearer(target.credentials), json{{"tweet_id", post_id}}),
        kChange);
    if (answer.failure) return {std::move(answer.failure)};
    if (answer.body["data"].value("liked", false) != true)
        return {failure_of(FailureKind::not_accepted, "X did not confirm the like", 200)};
    return {};
}

MessageChange set_hidden(PlatformApi& api, const Credentials& credentials,
                         const std::string& reply_id, bool hidden) {
    if (!is_post_id(reply_id)) return not_a_post(reply_id);
    auto answer = read(api.send("PUT", "/2/tweets/" + reply_id + "/hidden", bearer(credentials),
                                json{{"hidden", hidden}}),
                       kChange);
    if (answer.failure) return {std::move(answer.failure)};
    if (answer.body["data"].value("hidden", !hidden) != hidden)
        return {failure_of(FailureKind::not_accepted, "X did not confirm the change", 200)};
    return {};
}

MessageChange own_post(PlatformApi& api, const Target& target, const std::string& post_id) {
    if (!is_post_id(post_id)) return not_a_post(post_id);
    auto answer = read(api.send("GET", "/2/tweets/" + post_id + "?tweet.fields=author_id",
                                bearer(target.credentials)),
                       kPost);
    if (answer.failure) return {std::move(answer.failure)};
    if (json_text(answer.body["data"], "author_id") != target.identity.external_id)
        return {refusal("X lets an account delete only its own posts; hide the reply instead")};
    return {};
}

}  // namespace squawk::social::x
