#include "common/extensions/platforms/facebook/page_inbox.hpp"

#include "common/domain/social/post_validation.hpp"
#include "common/extensions/platforms/facebook/graph.hpp"

namespace squawk::social::facebook {
namespace {

using nlohmann::json;

std::string token_of(const Target& page) {
    const auto found = page.credentials.find("access_token");
    return found == page.credentials.end() ? std::string() : found->second;
}

std::optional<PlatformFailure> not_a_comment(const std::string& id) {
    if (is_graph_id(id)) return std::nullopt;
    return refusal("'" + id + "' is not the id of a Facebook comment");
}

std::optional<PlatformFailure> unless_success(Answer answer, const char* what) {
    if (!answer.failure && !answer.body.value("success", false))
        return refusal(std::string("Facebook did not ") + what, 200);
    return std::move(answer.failure);
}

Publication published(Answer answer, const char* id_member) {
    Publication p;
    if (answer.failure) {
        p.failure = std::move(answer.failure);
        return p;
    }
    p.message_id = json_text(answer.body, id_member);
    if (p.message_id.empty())
        p.failure = failure_of(FailureKind::unknown_outcome,
                               "Facebook accepted the message without naming it", 200);
    return p;
}

std::optional<PlatformFailure> choice_problem(const std::vector<std::string>& titles) {
    for (const auto& title : titles)
        if (title.empty() || utf8_length(title) > kMaxChoiceTitleChars)
            return refusal("Messenger takes quick replies and buttons of 1 to " +
                           std::to_string(kMaxChoiceTitleChars) + " characters");
    return std::nullopt;
}

// The first message of a DirectMessage: its text with quick replies, or a button template.
json text_message(const DirectMessage& message) {
    if (!message.buttons.empty()) {
        json buttons = json::array();
        for (const auto& title : message.buttons)
            buttons.push_back({{"type", "postback"}, {"title", title}, {"payload", title}});
        return {{"attachment",
                 {{"type", "template"},
                  {"payload",
                   {{"template_type", "button"}, {"text", message.text}, {"buttons", buttons}}}}}};
    }
    json out = {{"text", message.text}};
    if (!message.quick_replies.empty()) {
        out["quick_replies"] = json::array();
        for (const auto& title : message.quick_replies)
            out["quick_replies"].push_back(
                {{"content_type", "text"}, {"title", title}, {"payload", title}});
    }
    return out;
}

}  // namespace

Answer PageInbox::post_form(const std::string& rest, const http::FormFields& fields) {
    return read_object(api_.send("POST", graph_path(rest), meta_graph::bearer(token_of(page_)),
                                 "application/x-www-form-urlencoded", http::form_encode(fields)));
}

Answer PageInbox::message_to(const json& recipient, const json& message) {
    http::FormFields fields = {{"recipient", recipient.dump()}};
    if (message.contains("sender_action")) {
        fields.emplace_back("sender_action", message["sender_action"].get<std::string>());
    } else {
        fields.emplace_back("messaging_type", "RESPONSE");
        fields.emplace_back("message", message.dump());
    }
    return post_form(page_.identity.external_id + "/messages", fields);
}

CommentListing PageInbox::comments(const std::string& post_id, const std::string& cursor) {
    CommentListing listing;
    if (!is_graph_id(post_id)) {
        listing.failure = refusal("'" + post_id + "' is not the id of a Facebook post");
        return listing;
    }
    std::string rest = post_id +
                       "/comments?fields=id,message,from,created_time,parent,is_hidden"
                       "&filter=stream&order=chronological&limit=100";
    if (!cursor.empty()) rest += "&after=" + http::percent_encode(cursor);
    auto answer =
        read_object(api_.send("GET", graph_path(rest), meta_graph::bearer(token_of(page_))));
    if (answer.failure) {
        listing.failure = std::move(answer.failure);
        return listing;
    }
    if (!answer.body.contains("data") || !answer.body["data"].is_array()) {
        listing.failure = failure_of(FailureKind::not_accepted,
                                     "Facebook's answer is not a list of comments", 200);
        return listing;
    }
    for (const auto& item : answer.body["data"]) {
        const auto id = graph_id(item, "id");
        const auto at = meta_graph::parse_graph_time(json_text(item, "created_time"));
        if (id.empty() || !at) continue;
        RemoteComment comment;
        comment.external_id = id;
        if (item.contains("parent") && item["parent"].is_object())
            comment.parent_id = graph_id(item["parent"], "id");
        if (item.contains("from") && item["from"].is_object()) {
            comment.author_id = graph_id(item["from"], "id");
            comment.author_name = json_text(item["from"], "name");
        }
        comment.text = json_text(item, "message");
        comment.created_at = *at;
        comment.hidden = item.value("is_hidden", false);
        listing.comments.push_back(std::move(comment));
    }
    listing.next_cursor = meta_graph::next_cursor(answer.body);
    return listing;
}

Publication PageInbox::reply(const std::string& comment_id, const std::string& text) {
    if (auto problem = not_a_comment(comment_id)) return {{}, {}, std::move(problem), {}};
    return published(post_form(comment_id + "/comments", {{"message", text}}), "id");
}

Publication PageInbox::reply_privately(const std::string& comment_id, const std::string& text) {
    if (auto problem = not_a_comment(comment_id)) return {{}, {}, std::move(problem), {}};
    return published(message_to({{"comment_id", comment_id}}, {{"text", text}}), "message_id");
}

MessageChange PageInbox::like(const std::string& comment_id) {
    if (auto problem = not_a_comment(comment_id)) return {std::move(problem)};
    return {unless_success(post_form(comment_id + "/likes", {}), "like the comment")};
}

// A comment already deleted counts as removed, so that moderating may be repeated.
MessageChange PageInbox::moderate(const std::string& comment_id, Moderation moderation) {
    if (auto problem = not_a_comment(comment_id)) return {std::move(problem)};
    if (moderation != Moderation::remove)
        return {unless_success(
            post_form(comment_id,
                      {{"is_hidden", moderation == Moderation::hide ? "true" : "false"}}),
            "change the comment's visibility")};
    auto answer = read_object(
        api_.send("DELETE", graph_path(comment_id), meta_graph::bearer(token_of(page_))));
    if (answer.failure && meta_graph::names_missing_object(answer.body)) return {};
    return {unless_success(std::move(answer), "delete the comment")};
}

Publication PageInbox::send(const DirectMessage& message) {
    if (auto problem = choice_problem(message.buttons)) return {{}, {}, std::move(problem), {}};
    if (auto problem = choice_problem(message.quick_replies))
        return {{}, {}, std::move(problem), {}};
    if (!message.buttons.empty() && utf8_length(message.text) > kMaxButtonTextChars)
        return {{},
                {},
                refusal("Messenger takes a button message's text of at most " +
                        std::to_string(kMaxButtonTextChars) + " characters"),
                {}};
    const json recipient = {{"id", message.recipient_id}};
    Publication last;
    if (!message.text.empty())
        last = published(message_to(recipient, text_message(message)), "message_id");
    for (size_t i = 0; i < message.image_urls.size() && !last.failure; ++i) {
        last = published(
            message_to(recipient,
                       {{"attachment",
                         {{"type", "image"},
                          {"payload", {{"url", message.image_urls[i]}, {"is_reusable", false}}}}}}),
            "message_id");
        // What went out before a refused image stays sent; the reason says how much.
        if (last.failure && (i > 0 || !message.text.empty()))
            last.failure->reason +=
                " (the text and " + std::to_string(i) + " image(s) before it were sent)";
    }
    return last;
}

MessageChange PageInbox::typing(const std::string& recipient_id) {
    auto answer = message_to({{"id", recipient_id}}, {{"sender_action", "typing_on"}});
    return {std::move(answer.failure)};
}

}  // namespace squawk::social::facebook
