#include "common/extensions/platforms/bluesky/replies.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/extensions/platforms/bluesky/records.hpp"
#include "common/extensions/platforms/bluesky/xrpc.hpp"

#include <algorithm>
#include <vector>

namespace squawk::social::bluesky {
namespace {

using nlohmann::json;

constexpr std::string_view kThreadgates = "app.bsky.feed.threadgate";
constexpr std::string_view kThreadView = "app.bsky.feed.defs#threadViewPost";
// How deep getPostThread reads a thread's replies (the AppView takes up to 1,000).
constexpr int kThreadDepth = 100;
// app.bsky.feed.threadgate holds at most this many hidden replies.
constexpr size_t kMaxHiddenReplies = 300;

// The post (or reply) `uri` as the AppView shows it: {uri, cid, author, record}.
Answer post_view(PdsSession& session, const std::string& uri) {
    auto answer =
        session.call("GET", "/xrpc/app.bsky.feed.getPosts?uris=" + http::percent_encode(uri));
    if (answer.failure) return {json(), nothing_published(std::move(*answer.failure))};
    for (const auto& post : answer.body.value("posts", json::array()))
        if (json_text(post, "uri") == uri && !json_text(post, "cid").empty()) return {post, {}};
    return {json(), refusal("Bluesky has no post '" + uri + "'")};
}

RemoteComment comment_of(const json& post, const std::string& thread_uri,
                         const json& hidden_replies) {
    const json author = object_at(post, "author");
    const json record = object_at(post, "record");
    RemoteComment comment;
    comment.external_id = json_text(post, "uri");
    const auto parent = json_text(object_at(object_at(record, "reply"), "parent"), "uri");
    if (parent != thread_uri) comment.parent_id = parent;
    comment.author_id = json_text(author, "did");
    comment.author_name = json_text(author, "displayName");
    if (comment.author_name.empty()) comment.author_name = json_text(author, "handle");
    comment.text = json_text(record, "text");
    auto at = time::parse_iso8601(json_text(record, "createdAt"));
    if (!at) at = time::parse_iso8601(json_text(post, "indexedAt"));
    comment.created_at = at.value_or(time::TimePoint{});
    comment.hidden = std::find(hidden_replies.begin(), hidden_replies.end(),
                               json(comment.external_id)) != hidden_replies.end();
    return comment;
}

}  // namespace

CommentListing list_replies(PdsSession& session, const std::string& uri) {
    CommentListing listing;
    auto answer =
        session.call("GET", "/xrpc/app.bsky.feed.getPostThread?uri=" + http::percent_encode(uri) +
                                "&depth=" + std::to_string(kThreadDepth) + "&parentHeight=0");
    if (answer.failure) {
        listing.failure = std::move(answer.failure);
        return listing;
    }
    const json thread = object_at(answer.body, "thread");
    if (json_text(thread, "$type") != kThreadView) {
        listing.failure = refusal("Bluesky shows no thread of '" + uri + "'");
        return listing;
    }
    const json hidden = object_at(object_at(object_at(thread, "post"), "threadgate"), "record")
                            .value("hiddenReplies", json::array());
    // Depth first without recursion: the AppView bounds the depth, the stack does not have to.
    std::vector<const json*> pending{&thread};
    while (!pending.empty()) {
        const json* node = pending.back();
        pending.pop_back();
        const auto replies = node->find("replies");
        if (replies == node->end() || !replies->is_array()) continue;
        for (const auto& reply : *replies) {
            // Deleted and blocked replies are notFoundPost and blockedPost views, without text.
            if (json_text(reply, "$type") != kThreadView) continue;
            listing.comments.push_back(comment_of(object_at(reply, "post"), uri, hidden));
            pending.push_back(&reply);
        }
    }
    std::stable_sort(
        listing.comments.begin(), listing.comments.end(),
        [](const RemoteComment& a, const RemoteComment& b) { return a.created_at < b.created_at; });
    return listing;
}

Answer reply_refs(PdsSession& session, const std::string& uri) {
    auto view = post_view(session, uri);
    if (view.failure) return view;
    const json parent{{"uri", json_text(view.body, "uri")}, {"cid", json_text(view.body, "cid")}};
    json root = object_at(object_at(object_at(view.body, "record"), "reply"), "root");
    if (json_text(root, "uri").empty() || json_text(root, "cid").empty()) root = parent;
    return {json{{"root", {{"uri", root["uri"]}, {"cid", root["cid"]}}}, {"parent", parent}}, {}};
}

MessageChange like(PdsSession& session, const std::string& uri) {
    auto view = post_view(session, uri);
    if (view.failure) return {std::move(view.failure)};
    const json record{
        {"$type", "app.bsky.feed.like"},
        {"subject", {{"uri", json_text(view.body, "uri")}, {"cid", json_text(view.body, "cid")}}},
        {"createdAt", time::format_iso8601(time::now())}};
    return {session
                .call("POST", "/xrpc/com.atproto.repo.createRecord",
                      json{{"repo", session.did()},
                           {"collection", "app.bsky.feed.like"},
                           {"record", record}})
                .failure};
}

MessageChange set_hidden(PdsSession& session, const std::string& uri, bool hidden) {
    if (!parse_post_uri(uri))
        return {refusal("'" + uri + "' is not the address of a Bluesky post")};
    auto view = post_view(session, uri);
    if (view.failure) return {std::move(view.failure)};
    const auto root_uri =
        json_text(object_at(object_at(object_at(view.body, "record"), "reply"), "root"), "uri");
    const auto root = parse_post_uri(root_uri);
    if (!root) return {refusal("'" + uri + "' is not a reply")};
    if (root->repo != session.did())
        return {refusal("only the author of a thread's first post can hide its replies")};

    const std::string gate_path =
        "/xrpc/com.atproto.repo.getRecord?repo=" + http::percent_encode(session.did()) +
        "&collection=" + std::string(kThreadgates) + "&rkey=" + root->rkey;
    auto gate = session.call("GET", gate_path);
    json record;
    if (!gate.failure) {
        record = object_at(gate.body, "value");
    } else if (gate.failure->http_status == 400 &&
               gate.failure->reason.starts_with("RecordNotFound")) {
        // No threadgate yet: one without `allow` leaves replying open to everyone.
        record = {{"$type", kThreadgates},
                  {"post", root_uri},
                  {"createdAt", time::format_iso8601(time::now())}};
    } else {
        return {std::move(gate.failure)};
    }
    json listed = record.value("hiddenReplies", json::array());
    listed.erase(std::remove(listed.begin(), listed.end(), json(uri)), listed.end());
    if (hidden) listed.push_back(uri);
    if (listed.size() > kMaxHiddenReplies)
        return {refusal("Bluesky hides at most " + std::to_string(kMaxHiddenReplies) +
                        " replies in a thread")};
    record["hiddenReplies"] = std::move(listed);
    return {session
                .call("POST", "/xrpc/com.atproto.repo.putRecord",
                      json{{"repo", session.did()},
                           {"collection", kThreadgates},
                           {"rkey", root->rkey},
                           {"record", std::move(record)}})
                .failure};
}

}  // namespace squawk::social::bluesky
