#include "common/extensions/platforms/youtube/comments.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/extensions/platforms/youtube/google_api.hpp"

#include <algorithm>

namespace squawk::social::youtube {
namespace {

using nlohmann::json;

const std::string kComments = "/youtube/v3/comments";
// The most items Google gives in one page.
constexpr int kCommentsPage = 100;

RemoteComment comment_of(const json& resource) {
    const json snippet = resource.value("snippet", json::object());
    RemoteComment comment;
    comment.external_id = json_text(resource, "id");
    comment.parent_id = json_text(snippet, "parentId");
    comment.author_id = json_text(snippet.value("authorChannelId", json::object()), "value");
    comment.author_name = json_text(snippet, "authorDisplayName");
    comment.text = json_text(snippet, "textOriginal");
    if (comment.text.empty()) comment.text = json_text(snippet, "textDisplay");
    comment.created_at =
        time::parse_iso8601(json_text(snippet, "publishedAt")).value_or(time::TimePoint{});
    const auto status = json_text(snippet, "moderationStatus");
    comment.hidden = status == "heldForReview" || status == "rejected";
    return comment;
}

json items_of(const json& list) {
    return list.contains("items") && list["items"].is_array() ? list["items"] : json::array();
}

// The comment `id` (comments.list by id): its resource, null when YouTube has none.
Answer find_comment(PlatformApi& api, const Credentials& credentials, const std::string& id) {
    auto answer = read_resource(
        api.send("GET",
                 kComments + "?part=snippet&textFormat=plainText&id=" + http::percent_encode(id),
                 bearer(credentials)),
        kReadScope);
    if (answer.failure) return answer;
    const json items = items_of(answer.body);
    return {items.empty() ? json() : items[0], std::nullopt};
}

// A change answered 204 without a body.
MessageChange no_content(const http::Response& response) {
    if (response.status == 204) return {};
    return {read_resource(response, kManageScope).failure};
}

MessageChange set_status(PlatformApi& api, const Credentials& credentials, const std::string& id,
                         const char* status) {
    return no_content(api.send("POST",
                               kComments + "/setModerationStatus?id=" + http::percent_encode(id) +
                                   "&moderationStatus=" + status,
                               bearer(credentials)));
}

}  // namespace

namespace {

// The cursor of a page of threads held for review: this, then YouTube's page token.
constexpr std::string_view kHeldPages = "held:";

// One page of the video's threads of `status` (published, heldForReview), with every reply.
CommentListing thread_page(PlatformApi& api, const Credentials& credentials,
                           const std::string& video_id, const char* status,
                           const std::string& page_token) {
    CommentListing listing;
    std::string path =
        "/youtube/v3/commentThreads?part=snippet,replies&order=time"
        "&textFormat=plainText&maxResults=" +
        std::to_string(kCommentsPage) + "&moderationStatus=" + status +
        "&videoId=" + http::percent_encode(video_id);
    if (!page_token.empty()) path += "&pageToken=" + http::percent_encode(page_token);
    auto threads = read_resource(api.send("GET", path, bearer(credentials)), kReadScope);
    if (threads.failure) {
        listing.failure = std::move(threads.failure);
        return listing;
    }
    for (const auto& thread : items_of(threads.body)) {
        const json snippet = thread.value("snippet", json::object());
        const json top = snippet.value("topLevelComment", json::object());
        listing.comments.push_back(comment_of(top));
        json replies = thread.value("replies", json::object()).value("comments", json::array());
        if (snippet.value("totalReplyCount", 0LL) > static_cast<long long>(replies.size())) {
            auto all = read_resource(
                api.send("GET",
                         kComments + "?part=snippet&textFormat=plainText&maxResults=" +
                             std::to_string(kCommentsPage) +
                             "&parentId=" + http::percent_encode(json_text(top, "id")),
                         bearer(credentials)),
                kReadScope);
            if (all.failure) {
                listing.failure = std::move(all.failure);
                return listing;
            }
            replies = items_of(all.body);
        }
        for (const auto& reply : replies) listing.comments.push_back(comment_of(reply));
    }
    if (auto next = json_text(threads.body, "nextPageToken"); !next.empty())
        listing.next_cursor = std::move(next);
    return listing;
}

}  // namespace

CommentListing comment_threads(PlatformApi& api, const Credentials& credentials,
                               const std::string& video_id, const std::string& cursor) {
    const bool held = cursor.starts_with(kHeldPages);
    auto listing = thread_page(api, credentials, video_id, held ? "heldForReview" : "published",
                               held ? cursor.substr(kHeldPages.size()) : cursor);
    if (listing.failure) return listing;
    if (held) {
        if (listing.next_cursor)
            listing.next_cursor = std::string(kHeldPages) + *listing.next_cursor;
    } else if (!listing.next_cursor) {
        // The last page of published threads brings the first of those held.
        auto first_held = thread_page(api, credentials, video_id, "heldForReview", "");
        if (first_held.failure) {
            listing.failure = std::move(first_held.failure);
            return listing;
        }
        listing.comments.insert(listing.comments.end(), first_held.comments.begin(),
                                first_held.comments.end());
        if (first_held.next_cursor)
            listing.next_cursor = std::string(kHeldPages) + *first_held.next_cursor;
    }
    std::stable_sort(
        listing.comments.begin(), listing.comments.end(),
        [](const RemoteComment& a, const RemoteComment& b) { return a.created_at < b.created_at; });
    return listing;
}

Publication reply_to(PlatformApi& api, const Credentials& credentials,
                     const std::string& comment_id, const std::string& text) {
    Publication p;
    auto answered = find_comment(api, credentials, comment_id);
    if (answered.failure || answered.body.is_null()) {
        p.failure = answered.failure ? nothing_published(std::move(*answered.failure))
                                     : refusal("YouTube has no comment '" + comment_id + "'");
        return p;
    }
    auto top = json_text(answered.body.value("snippet", json::object()), "parentId");
    if (top.empty()) top = comment_id;
    auto made =
        read_resource(api.send("POST", kComments + "?part=snippet", bearer(credentials),
                               json{{"snippet", {{"parentId", top}, {"textOriginal", text}}}}),
                      kManageScope);
    if (made.failure) {
        p.failure = std::move(made.failure);
        return p;
    }
    p.message_id = json_text(made.body, "id");
    const auto video = json_text(made.body.value("snippet", json::object()), "videoId");
    if (!video.empty()) p.url = "https://www.youtube.com/watch?v=" + video + "&lc=" + p.message_id;
    return p;
}

MessageChange moderate(PlatformApi& api, const Target& target, const std::string& comment_id,
                       Moderation moderation) {
    const auto& credentials = target.credentials;
    if (moderation == Moderation::hide)
        return set_status(api, credentials, comment_id, "heldForReview");
    if (moderation == Moderation::unhide)
        return set_status(api, credentials, comment_id, "published");
    auto found = find_comment(api, credentials, comment_id);
    if (found.failure) return {std::move(found.failure)};
    if (found.body.is_null()) return {};  // already gone
    const auto author = json_text(
        found.body.value("snippet", json::object()).value("authorChannelId", json::object()),
        "value");
    if (author != target.identity.external_id)
        return set_status(api, credentials, comment_id, "rejected");
    return no_content(api.send("DELETE", kComments + "?id=" + http::percent_encode(comment_id),
                               bearer(credentials)));
}

}  // namespace squawk::social::youtube
