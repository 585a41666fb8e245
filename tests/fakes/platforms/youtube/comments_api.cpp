// The fake YouTube Data API's comments: commentThreads.list of a video (top-level comments newest
// first with up to 5 replies each, paged), comments.list by parentId or id, comments.insert of a
// reply to a top-level comment, comments.setModerationStatus by the video's channel and
// comments.delete by the comment's author.
#include "tests/fakes/platforms/fake_clock.hpp"
#include "tests/fakes/platforms/youtube/youtube_fake.hpp"

#include <algorithm>
#include <cstdlib>

namespace squawk::fakes::platforms::youtube {
namespace {

using nlohmann::json;

// Replies commentThreads.list carries under each thread; comments.list gives the rest.
constexpr size_t kRepliesInThread = 5;

std::string query_param(const HttpRequest& request, const std::string& name) {
    const auto params = request.parameters();
    const auto found = params.find(name);
    return found == params.end() ? "" : found->second;
}

HttpAnswer comment_not_found() {
    return google_error(404, "commentNotFound", "The comment could not be found.",
                        "youtube.comment");
}

json comment_resource(const json& comment) {
    const auto& videos = state().videos;
    const std::string video = comment["video_id"];
    json snippet = {
        {"channelId", videos.contains(video) ? videos[video]["snippet"]["channelId"] : json("")},
        {"videoId", video},
        {"textDisplay", comment["text"]},
        {"textOriginal", comment["text"]},
        {"authorDisplayName", comment["author_name"]},
        {"authorChannelId", {{"value", comment["author_channel_id"]}}},
        {"canRate", true},
        {"viewerRating", "none"},
        {"likeCount", 0},
        {"moderationStatus", comment["moderation"]},
        {"publishedAt", comment["published_at"]},
        {"updatedAt", comment["published_at"]}};
    if (!comment["parent_id"].get<std::string>().empty())
        snippet["parentId"] = comment["parent_id"];
    return {{"kind", "youtube#comment"},
            {"etag", random_text(27)},
            {"id", comment["id"]},
            {"snippet", snippet}};
}

// The comments matching `keep` in the order they were made.
template <typename Keep>
std::vector<json> comments_where(Keep keep) {
    std::vector<json> out;
    for (const auto& id : state().comment_order) {
        const json& comment = state().comments[id];
        if (keep(comment)) out.push_back(comment);
    }
    return out;
}

// One page of `items` from pageToken (the position, as "CDIQAA<n>"), maxResults long (1 to 100).
std::variant<json, HttpAnswer> page_of(const HttpRequest& request, const char* kind,
                                       const std::vector<json>& items) {
    long long max_results = 20;
    if (const auto text = query_param(request, "maxResults"); !text.empty())
        max_results = std::atoll(text.c_str());
    if (max_results < 1 || max_results > 100)
        return google_error(400, "invalidParameter", "maxResults must be between 1 and 100.");
    const std::string token = query_param(request, "pageToken");
    const size_t from = token.starts_with("CDIQAA") ? std::stoull(token.substr(6)) : 0;
    json page = json::array();
    for (size_t i = from; i < items.size() && static_cast<long long>(page.size()) < max_results;
         ++i)
        page.push_back(items[i]);
    json out = {{"kind", kind},
                {"etag", random_text(27)},
                {"pageInfo", {{"totalResults", page.size()}, {"resultsPerPage", max_results}}},
                {"items", page}};
    if (from + page.size() < items.size())
        out["nextPageToken"] = "CDIQAA" + std::to_string(from + page.size());
    return out;
}

HttpAnswer answer_page(const HttpRequest& request, const char* kind,
                       const std::vector<json>& items) {
    auto page = page_of(request, kind, items);
    if (auto* refusal = std::get_if<HttpAnswer>(&page)) return *refusal;
    return json_answer(200, std::get<json>(page));
}

// The video `id`'s channel is the grant's.
bool owns_video(const std::string& video_id, const Grant& grant) {
    const auto& videos = state().videos;
    return videos.contains(video_id) && videos[video_id]["user_id"] == grant.user_id;
}

std::string channel_of(const Grant& grant) {
    const auto& channels = state().channels;
    return channels.contains(grant.user_id) ? channels[grant.user_id]["id"].get<std::string>() : "";
}

}  // namespace

std::string store_comment(const std::string& video_id, const std::string& parent_id,
                          const std::string& author_channel_id, const std::string& author_name,
                          const std::string& text) {
    const std::string id =
        parent_id.empty() ? "Ugz" + random_text(23) : parent_id + "." + random_text(22);
    state().comments[id] = {{"id", id},
                            {"video_id", video_id},
                            {"parent_id", parent_id},
                            {"author_channel_id", author_channel_id},
                            {"author_name", author_name},
                            {"text", text},
                            {"published_at", utc_now(0, "Z")},
                            {"moderation", "published"}};
    state().comment_order.push_back(id);
    return id;
}

// Top-level comments of videoId, newest first (order=time), of one moderationStatus (published
// by default).
HttpAnswer comment_threads(const HttpRequest& request) {
    const std::string video = query_param(request, "videoId");
    if (video.empty()) return google_error(400, "missingRequiredParameter", "No filter selected.");
    if (!state().videos.contains(video))
        return google_error(404, "videoNotFound",
                            "The video identified by the videoId parameter "
                            "could not be found.",
                            "youtube.commentThread");
    std::string status = query_param(request, "moderationStatus");
    if (status.empty()) status = "published";
    auto tops = comments_where([&](const json& c) {
        return c["video_id"] == video && c["parent_id"] == "" && c["moderation"] == status;
    });
    std::reverse(tops.begin(), tops.end());
    const bool with_replies =
        ("," + query_param(request, "part") + ",").find(",replies,") != std::string::npos;
    std::vector<json> threads;
    for (const auto& top : tops) {
        const auto replies = comments_where([&](const json& c) {
            return c["parent_id"] == top["id"] && c["moderation"] == "published";
        });
        json thread = {{"kind", "youtube#commentThread"},
                       {"etag", random_text(27)},
                       {"id", top["id"]},
                       {"snippet",
                        {{"videoId", video},
                         {"topLevelComment", comment_resource(top)},
                         {"canReply", true},
                         {"totalReplyCount", replies.size()},
                         {"isPublic", true}}}};
        if (with_replies && !replies.empty()) {
            json shown = json::array();
            for (size_t i = 0; i < replies.size() && i < kRepliesInThread; ++i)
                shown.push_back(comment_resource(replies[i]));
            thread["replies"] = {{"comments", shown}};
        }
        threads.push_back(thread);
    }
    return answer_page(request, "youtube#commentThreadListResponse", threads);
}

// comments.list by parentId (its published replies, oldest first) or by id (comma-separated,
// whatever their moderation).
HttpAnswer list_comments(const HttpRequest& request) {
    const std::string parent = query_param(request, "parentId");
    const std::string ids = "," + query_param(request, "id") + ",";
    if (parent.empty() && ids == ",,")
        return google_error(400, "missingRequiredParameter", "No filter selected.");
    std::vector<json> items;
    for (const auto& comment : comments_where([&](const json& c) {
             return parent.empty()
                        ? ids.find("," + c["id"].get<std::string>() + ",") != std::string::npos
                        : c["parent_id"] == parent && c["moderation"] == "published";
         }))
        items.push_back(comment_resource(comment));
    return answer_page(request, "youtube#commentListResponse", items);
}

// A reply: snippet.parentId must be a top-level comment, as YouTube's threads are one deep.
HttpAnswer insert_comment(const HttpRequest& request, const Grant& grant) {
    const json body = json::parse(request.body, nullptr, false);
    const json snippet = body.is_object() ? body.value("snippet", json::object()) : json::object();
    const std::string parent = snippet.value("parentId", "");
    const std::string text = snippet.value("textOriginal", "");
    auto& comments = state().comments;
    if (parent.empty() || !comments.contains(parent)) return comment_not_found();
    if (comments[parent]["parent_id"] != "")
        return google_error(400, "operationNotSupported",
                            "The parentId must be the ID of a top-level comment.",
                            "youtube.comment");
    if (text.empty())
        return google_error(400, "commentTextRequired", "The comment must have text.",
                            "youtube.comment");
    const auto& channel = state().channels[grant.user_id];
    const std::string id = store_comment(comments[parent]["video_id"], parent, channel_of(grant),
                                         channel.value("title", ""), text);
    publish_log("youtube", text);
    return json_answer(200, comment_resource(comments[id]));
}

// Only the channel of the comment's video moderates it; the answer has no body.
HttpAnswer moderate_comment(const HttpRequest& request, const Grant& grant) {
    const std::string status = query_param(request, "moderationStatus");
    if (status != "heldForReview" && status != "published" && status != "rejected")
        return google_error(400, "invalidModerationStatus",
                            "The moderationStatus parameter value is not valid.",
                            "youtube.comment");
    auto& comments = state().comments;
    const std::string id = query_param(request, "id");
    if (!comments.contains(id)) return comment_not_found();
    if (!owns_video(comments[id]["video_id"], grant))
        return google_error(403, "forbidden", "The comment could not be moderated by this channel.",
                            "youtube.comment");
    comments[id]["moderation"] = status;
    HttpAnswer done;
    done.status = 204;
    return done;
}

// Only the comment's author deletes it; a comment already gone is not found.
HttpAnswer delete_comment(const HttpRequest& request, const Grant& grant) {
    auto& s = state();
    const std::string id = query_param(request, "id");
    if (!s.comments.contains(id)) return comment_not_found();
    if (s.comments[id]["author_channel_id"] != channel_of(grant))
        return google_error(403, "forbidden", "The comment could not be deleted by this channel.",
                            "youtube.comment");
    s.comments.erase(id);
    std::erase(s.comment_order, id);
    HttpAnswer done;
    done.status = 204;
    return done;
}

}  // namespace squawk::fakes::platforms::youtube
