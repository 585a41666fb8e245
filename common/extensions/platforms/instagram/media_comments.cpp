#include "common/extensions/platforms/instagram/media_comments.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/extensions/platforms/instagram/graph.hpp"

namespace squawk::social::instagram {
namespace {

using nlohmann::json;

constexpr std::string_view kPermission = "instagram_manage_comments";
constexpr const char* kFields = "id,text,timestamp,from,hidden";

std::optional<PlatformFailure> not_an_id(const std::string& id, const char* what) {
    if (meta_graph::is_graph_id(id)) return std::nullopt;
    return refusal("'" + id + "' is not the id of an Instagram " + what);
}

// A comment as the Graph API gives it; nothing when it lacks an id or a readable time.
std::optional<RemoteComment> comment_of(const json& item, const std::string& parent_id) {
    const auto id = meta_graph::graph_id(item, "id");
    const auto at = meta_graph::parse_graph_time(json_text(item, "timestamp"));
    if (id.empty() || !at) return std::nullopt;
    RemoteComment comment;
    comment.external_id = id;
    comment.parent_id = parent_id;
    if (item.contains("from") && item["from"].is_object()) {
        comment.author_id = meta_graph::graph_id(item["from"], "id");
        comment.author_name = json_text(item["from"], "username");
    }
    comment.text = json_text(item, "text");
    comment.created_at = *at;
    comment.hidden = item.value("hidden", false);
    return comment;
}

}  // namespace

CommentListing MediaComments::list(const std::string& media_id, const std::string& cursor) {
    CommentListing listing;
    if (auto problem = not_an_id(media_id, "media")) {
        listing.failure = std::move(problem);
        return listing;
    }
    std::string rest = media_id + "/comments?fields=" + kFields + ",replies{" + kFields + "}";
    if (!cursor.empty()) rest += "&after=" + http::percent_encode(cursor);
    auto answer =
        read_list(api_.send("GET", graph_path(rest), meta_graph::bearer(token_)), kPermission);
    if (answer.failure) {
        listing.failure = std::move(answer.failure);
        return listing;
    }
    for (const auto& item : answer.body["data"]) {
        auto comment = comment_of(item, "");
        if (!comment) continue;
        const std::string parent = comment->external_id;
        listing.comments.push_back(std::move(*comment));
        const json& replies = item.value("replies", json::object());
        if (!replies.is_object() || !replies.contains("data") || !replies["data"].is_array())
            continue;
        for (const auto& reply : replies["data"])
            if (auto answer_to = comment_of(reply, parent))
                listing.comments.push_back(std::move(*answer_to));
    }
    listing.next_cursor = meta_graph::next_cursor(answer.body);
    return listing;
}

Publication MediaComments::reply(const std::string& comment_id, const std::string& text) {
    Publication p;
    if (auto problem = not_an_id(comment_id, "comment")) {
        p.failure = std::move(problem);
        return p;
    }
    auto answer = read_object(
        api_.send("POST", graph_path(comment_id + "/replies"), meta_graph::bearer(token_),
                  "application/x-www-form-urlencoded", http::form_encode({{"message", text}})),
        kPermission);
    if (answer.failure) {
        p.failure = std::move(answer.failure);
        return p;
    }
    p.message_id = meta_graph::graph_id(answer.body, "id");
    if (p.message_id.empty())
        p.failure = failure_of(FailureKind::unknown_outcome,
                               "Instagram took the reply without naming it", 200);
    return p;
}

MessageChange MediaComments::moderate(const std::string& comment_id, Moderation moderation) {
    if (auto problem = not_an_id(comment_id, "comment")) return {std::move(problem)};
    const bool remove = moderation == Moderation::remove;
    auto answer = read_object(
        remove ? api_.send("DELETE", graph_path(comment_id), meta_graph::bearer(token_))
               : api_.send("POST", graph_path(comment_id), meta_graph::bearer(token_),
                           "application/x-www-form-urlencoded",
                           http::form_encode(
                               {{"hide", moderation == Moderation::hide ? "true" : "false"}})),
        kPermission);
    if (remove && answer.failure && meta_graph::names_missing_object(answer.body)) return {};
    if (!answer.failure && !answer.body.value("success", false))
        return {refusal("Instagram did not change the comment", 200)};
    return {std::move(answer.failure)};
}

}  // namespace squawk::social::instagram
