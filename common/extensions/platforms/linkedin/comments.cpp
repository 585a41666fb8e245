#include "common/extensions/platforms/linkedin/comments.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/post_validation.hpp"
#include "common/extensions/platforms/linkedin/rest.hpp"

namespace squawk::social::linkedin {
namespace {

using nlohmann::json;

constexpr int kCommentsPage = 50;
// Replies read under one comment: LinkedIn pages them too, and the first page is what an inbox
// shows beside its comment.
constexpr int kRepliesRead = 100;
constexpr size_t kMaxCommentChars = 1250;

// urn:li:comment:(<activity URN>,<digits>): the activity and the comment's id.
struct CommentUrn {
    std::string activity;
    std::string id;
};

std::optional<CommentUrn> parse_comment_urn(std::string_view urn) {
    constexpr std::string_view kPrefix = "urn:li:comment:(";
    if (!urn.starts_with(kPrefix) || !urn.ends_with(")")) return std::nullopt;
    const auto inner = urn.substr(kPrefix.size(), urn.size() - kPrefix.size() - 1);
    const auto comma = inner.rfind(',');
    if (comma == std::string_view::npos) return std::nullopt;
    const auto activity = inner.substr(0, comma);
    const auto id = inner.substr(comma + 1);
    if (!is_number(id, 20) || !activity.starts_with("urn:li:") ||
        activity.find_first_of("(),") != std::string_view::npos)
        return std::nullopt;
    return CommentUrn{std::string(activity), std::string(id)};
}

PlatformFailure not_a_comment(const std::string& urn) {
    return refusal("'" + urn + "' is not the URN of a LinkedIn comment");
}

std::string comments_path(const std::string& urn) {
    return "/rest/socialActions/" + urn_segment(urn) + "/comments";
}

// A listed comment: its URN, parent, author (their URN: LinkedIn names no one in comments),
// text and time; nothing for an element without them.
std::optional<RemoteComment> comment_of(const json& element) {
    RemoteComment comment;
    comment.external_id = json_text(element, "commentUrn");
    const auto created = from_epoch_ms(element.value("created", json::object()), "time");
    if (!parse_comment_urn(comment.external_id) || !created) return std::nullopt;
    comment.parent_id = json_text(element, "parentComment");
    comment.author_id = json_text(element, "actor");
    comment.text = json_text(element.value("message", json::object()), "text");
    comment.created_at = *created;
    return comment;
}

bool has_replies(const json& element) {
    const auto replies =
        json_integer(element.value("commentsSummary", json::object()), "aggregatedTotalComments");
    return replies && *replies > 0;
}

}  // namespace

CommentListing list_post_comments(PlatformApi& api, const Target& target,
                                  const std::string& post_urn, const std::string& cursor) {
    CommentListing listing;
    if (!is_post_urn(post_urn)) {
        listing.failure = not_a_post(post_urn);
        return listing;
    }
    if (!cursor.empty() && !is_number(cursor, 9)) {
        listing.failure = refusal("'" + cursor + "' is not a LinkedIn comments cursor");
        return listing;
    }
    const int start = cursor.empty() ? 0 : std::stoi(cursor);
    auto page = read_resource(api.send("GET",
                                       comments_path(post_urn) + "?start=" + std::to_string(start) +
                                           "&count=" + std::to_string(kCommentsPage),
                                       rest_headers(target.credentials)),
                              kReadPermission);
    if (page.failure) {
        listing.failure = std::move(page.failure);
        return listing;
    }
    const auto elements = page.body.value("elements", json::array());
    for (const auto& element : elements) {
        auto comment = comment_of(element);
        if (!comment) continue;
        const auto urn = comment->external_id;
        listing.comments.push_back(std::move(*comment));
        if (!has_replies(element)) continue;
        auto replies = read_resource(
            api.send("GET", comments_path(urn) + "?start=0&count=" + std::to_string(kRepliesRead),
                     rest_headers(target.credentials)),
            kReadPermission);
        if (replies.failure) {
            listing.failure = std::move(replies.failure);
            return listing;
        }
        for (const auto& reply : replies.body.value("elements", json::array()))
            if (auto answer = comment_of(reply)) {
                if (answer->parent_id.empty()) answer->parent_id = urn;
                listing.comments.push_back(std::move(*answer));
            }
    }
    const auto total = json_integer(page.body.value("paging", json::object()), "total");
    const long long next = start + static_cast<long long>(elements.size());
    if (!elements.empty() && total && next < *total) listing.next_cursor = std::to_string(next);
    return listing;
}

Publication reply_to(PlatformApi& api, const Target& target, const std::string& comment_urn,
                     const Message& message) {
    Publication p;
    const auto urn = parse_comment_urn(comment_urn);
    if (!urn) {
        p.failure = not_a_comment(comment_urn);
        return p;
    }
    if (!message.image_urls.empty() || message.video) {
        p.failure = refusal("a reply to a LinkedIn comment carries text only");
        return p;
    }
    if (message.text.empty() || utf8_length(message.text) > kMaxCommentChars) {
        p.failure = refusal("a LinkedIn comment has 1 to 1250 characters");
        p.failure->field = "text";
        return p;
    }
    const json body = {{"actor", person_urn(target.identity.external_id)},
                       {"object", urn->activity},
                       {"parentComment", comment_urn},
                       {"message", {{"text", message.text}}}};
    auto created = read_created(
        api.send("POST", comments_path(comment_urn), rest_headers(target.credentials), body),
        kMemberPostPermission);
    if (created.failure) {
        p.failure = std::move(created.failure);
        return p;
    }
    p.message_id = json_text(created.body, "commentUrn");
    if (!parse_comment_urn(p.message_id)) {
        p.failure = refusal("LinkedIn created the comment without naming it", 201);
        p.failure->kind = FailureKind::unknown_outcome;
        return p;
    }
    p.url = "https://www.linkedin.com/feed/update/" + urn->activity +
            "?commentUrn=" + http::percent_encode(p.message_id);
    return p;
}

MessageChange like(PlatformApi& api, const Target& target, const std::string& comment_urn) {
    if (!parse_comment_urn(comment_urn)) return {not_a_comment(comment_urn)};
    const json body = {{"root", comment_urn}, {"reactionType", "LIKE"}};
    const auto response = api.send(
        "POST", "/rest/reactions?actor=" + urn_segment(person_urn(target.identity.external_id)),
        rest_headers(target.credentials), body);
    // 409: the member's reaction is there already.
    if (response.status == 409) return {};
    return {read_created(response, kMemberPostPermission).failure};
}

MessageChange delete_comment(PlatformApi& api, const Target& target,
                             const std::string& comment_urn) {
    const auto urn = parse_comment_urn(comment_urn);
    if (!urn) return {not_a_comment(comment_urn)};
    const auto response = api.send("DELETE",
                                   comments_path(urn->activity) + "/" + urn->id + "?actor=" +
                                       urn_segment(person_urn(target.identity.external_id)),
                                   rest_headers(target.credentials, "DELETE"));
    if (response.status == 404) return {};
    return {read_done(response, kMemberPostPermission).failure};
}

}  // namespace squawk::social::linkedin
