#include "common/extensions/platforms/threads/replies.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/meta_graph.hpp"

namespace squawk::social::threads {
namespace {

using nlohmann::json;

constexpr AnswerShape kReplyAnswer = meta_graph::object_answer("Threads");
// The most replies Threads gives in one page.
constexpr int kRepliesPage = 100;

std::optional<RemoteComment> comment_of(const json& item, const std::string& post_id) {
    const auto id = meta_graph::graph_id(item, "id");
    const auto at = meta_graph::parse_graph_time(json_text(item, "timestamp"));
    if (id.empty() || !at) return std::nullopt;
    RemoteComment comment;
    comment.external_id = id;
    const auto replied_to = item.contains("replied_to")
                                ? meta_graph::graph_id(item["replied_to"], "id")
                                : std::string();
    if (replied_to != post_id) comment.parent_id = replied_to;
    // Threads names a reply's author by username only.
    comment.author_id = json_text(item, "username");
    comment.author_name = comment.author_id;
    comment.text = json_text(item, "text");
    comment.created_at = *at;
    comment.hidden = json_text(item, "hide_status") == "HIDDEN";
    return comment;
}

}  // namespace

CommentListing conversation(PlatformApi& api, const std::string& token, const std::string& post_id,
                            const std::string& cursor) {
    CommentListing listing;
    if (!meta_graph::is_graph_id(post_id)) {
        listing.failure = refusal("'" + post_id + "' is not the id of a Threads post");
        return listing;
    }
    std::string path = "/v1.0/" + post_id +
                       "/conversation?fields=id,text,username,timestamp,replied_to,hide_status"
                       "&reverse=false&limit=" +
                       std::to_string(kRepliesPage);
    if (!cursor.empty()) path += "&after=" + http::percent_encode(cursor);
    auto answer = meta_graph::read(api.send("GET", path, meta_graph::bearer(token)), kReplyAnswer);
    if (answer.failure) {
        listing.failure = std::move(answer.failure);
        return listing;
    }
    if (!answer.body.contains("data") || !answer.body["data"].is_array()) {
        listing.failure =
            failure_of(FailureKind::not_accepted, "Threads' answer is not a list of replies", 200);
        return listing;
    }
    for (const auto& item : answer.body["data"])
        if (auto comment = comment_of(item, post_id))
            listing.comments.push_back(std::move(*comment));
    // Threads names a following page by `next`; the cursors are there on the last page too.
    const json paging = answer.body.value("paging", json::object());
    if (paging.is_object() && paging.contains("next")) {
        auto after = json_text(paging.value("cursors", json::object()), "after");
        if (!after.empty()) listing.next_cursor = std::move(after);
    }
    return listing;
}

MessageChange own_reply(PlatformApi& api, const std::string& token, const std::string& reply_id) {
    if (!meta_graph::is_graph_id(reply_id))
        return {refusal("'" + reply_id + "' is not the id of a Threads reply")};
    auto answer =
        meta_graph::read(api.send("GET", "/v1.0/" + reply_id + "?fields=id,is_reply_owned_by_me",
                                  meta_graph::bearer(token)),
                         kReplyAnswer);
    if (answer.failure) return {std::move(answer.failure)};
    if (answer.body.value("is_reply_owned_by_me", false) != true)
        return {
            refusal("Threads lets an account delete only its own replies; hide the reply "
                    "instead")};
    return {};
}

MessageChange set_hidden(PlatformApi& api, const std::string& token, const std::string& reply_id,
                         bool hidden) {
    if (!meta_graph::is_graph_id(reply_id))
        return {refusal("'" + reply_id + "' is not the id of a Threads reply")};
    auto answer =
        meta_graph::read(api.send("POST", "/v1.0/" + reply_id + "/manage_reply",
                                  meta_graph::bearer(token), "application/x-www-form-urlencoded",
                                  http::form_encode({{"hide", hidden ? "true" : "false"}})),
                         kReplyAnswer);
    if (answer.failure) return {std::move(answer.failure)};
    if (answer.body.value("success", false) != true)
        return {failure_of(FailureKind::not_accepted, "Threads did not confirm the change", 200)};
    return {};
}

}  // namespace squawk::social::threads
