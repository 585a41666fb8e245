// The fake YouTube Data API's resources: channels?mine=true (snippet, statistics,
// contentDetails with the uploads playlist), videos (list by id, update of the snippet, delete)
// and playlistItems of a channel's uploads playlist, newest first.
#include "tests/fakes/platforms/fake_clock.hpp"
#include "tests/fakes/platforms/youtube/youtube_fake.hpp"

#include <algorithm>
#include <cstdlib>

namespace squawk::fakes::platforms::youtube {
namespace {

using nlohmann::json;

std::string param(const HttpRequest& request, const std::string& name) {
    const auto params = request.parameters();
    const auto found = params.find(name);
    return found == params.end() ? "" : found->second;
}

bool has_part(const std::string& parts, const std::string& part) {
    return ("," + parts + ",").find("," + part + ",") != std::string::npos;
}

HttpAnswer missing_part() {
    return google_error(400, "required", "Required parameter: part", "global");
}

std::string uploads_playlist(const std::string& channel_id) {
    return "UU" + channel_id.substr(2);
}

long long videos_of(const std::string& user_id) {
    const auto& videos = state().videos;
    return std::count_if(videos.begin(), videos.end(),
                         [&](const json& video) { return video["user_id"] == user_id; });
}

json list_response(const char* kind, json items) {
    const auto count = items.size();
    return {{"kind", kind},
            {"etag", random_text(27)},
            {"pageInfo", {{"totalResults", count}, {"resultsPerPage", count}}},
            {"items", std::move(items)}};
}

// The video `id` when it is the grant's account's; nullptr and Google's refusal otherwise.
json* own_video(const std::string& id, const Grant& grant, std::optional<HttpAnswer>& refusal) {
    auto& videos = state().videos;
    if (!videos.contains(id)) {
        refusal =
            google_error(404, "videoNotFound",
                         "The video that you are trying to use cannot be found.", "youtube.video");
        return nullptr;
    }
    if (videos[id]["user_id"] != grant.user_id) {
        refusal = google_error(403, "forbidden", "The video cannot be changed by this account.",
                               "youtube.video");
        return nullptr;
    }
    return &videos[id];
}

}  // namespace

json video_resource(const json& video, const std::string& parts) {
    json out = {{"kind", "youtube#video"}, {"etag", random_text(27)}, {"id", video["id"]}};
    for (const char* part : {"snippet", "status", "statistics"})
        if (parts.empty() ||
            ("," + parts + ",").find(std::string(",") + part + ",") != std::string::npos)
            out[part] = video[part];
    return out;
}

std::string store_video(const UploadSession& session) {
    auto& s = state();
    const json channel = s.channels[session.user_id];
    const json given = session.resource.value("snippet", json::object());
    const json given_status = session.resource.value("status", json::object());
    const std::string id = random_text(11);
    json snippet = {{"publishedAt", utc_now(0, "Z")},
                    {"channelId", channel["id"]},
                    {"title", given["title"]},
                    {"description", given.value("description", "")},
                    {"thumbnails", json::object()},
                    {"channelTitle", channel["title"]},
                    {"categoryId", given.value("categoryId", "22")},
                    {"liveBroadcastContent", "none"}};
    if (given.contains("tags")) snippet["tags"] = given["tags"];
    json status = {{"uploadStatus", "uploaded"},
                   {"privacyStatus", given_status.value("privacyStatus", "public")},
                   {"license", "youtube"},
                   {"embeddable", true},
                   {"publicStatsViewable", true}};
    if (given_status.contains("selfDeclaredMadeForKids")) {
        status["selfDeclaredMadeForKids"] = given_status["selfDeclaredMadeForKids"];
        status["madeForKids"] = given_status["selfDeclaredMadeForKids"];
    }
    s.videos[id] = {
        {"id", id},
        {"user_id", session.user_id},
        {"snippet", snippet},
        {"status", status},
        {"statistics",
         {{"viewCount", "0"}, {"likeCount", "0"}, {"favoriteCount", "0"}, {"commentCount", "0"}}}};
    s.video_order.push_back(id);
    return id;
}

// channels.list with mine=true: the token's account's channel, or no item.
HttpAnswer channels(const HttpRequest& request, const Grant& grant) {
    const auto parts = param(request, "part");
    if (parts.empty()) return missing_part();
    if (param(request, "mine") != "true")
        return google_error(400, "missingRequiredParameter",
                            "No filter selected. Expected one of: mine, id, forHandle, ...",
                            "youtube.parameter");
    json items = json::array();
    if (state().channels.contains(grant.user_id)) {
        const json& c = state().channels[grant.user_id];
        const std::string id = c["id"];
        json channel = {{"kind", "youtube#channel"}, {"etag", random_text(27)}, {"id", id}};
        if (has_part(parts, "snippet"))
            channel["snippet"] = {{"title", c["title"]},
                                  {"description", ""},
                                  {"customUrl", c["customUrl"]},
                                  {"publishedAt", "2020-01-01T00:00:00Z"}};
        if (has_part(parts, "statistics"))
            channel["statistics"] = {{"viewCount", c["viewCount"]},
                                     {"subscriberCount", c["subscriberCount"]},
                                     {"hiddenSubscriberCount", c["hiddenSubscriberCount"]},
                                     {"videoCount", std::to_string(videos_of(grant.user_id))}};
        if (has_part(parts, "contentDetails"))
            channel["contentDetails"] = {
                {"relatedPlaylists", {{"likes", ""}, {"uploads", uploads_playlist(id)}}}};
        items.push_back(channel);
    }
    return json_answer(200, list_response("youtube#channelListResponse", items));
}

// videos.list by id (comma-separated): a private video only for its owner.
HttpAnswer list_videos(const HttpRequest& request, const Grant& grant) {
    const auto parts = param(request, "part");
    if (parts.empty()) return missing_part();
    const auto ids = param(request, "id");
    if (ids.empty())
        return google_error(400, "missingRequiredParameter",
                            "No filter selected. Expected one of: id, myRating, chart",
                            "youtube.parameter");
    json items = json::array();
    size_t at = 0;
    while (at <= ids.size()) {
        const auto end = std::min(ids.find(',', at), ids.size());
        const auto id = ids.substr(at, end - at);
        at = end + 1;
        if (!state().videos.contains(id)) continue;
        const json& video = state().videos[id];
        if (video["status"]["privacyStatus"] == "private" && video["user_id"] != grant.user_id)
            continue;
        items.push_back(video_resource(video, parts));
    }
    return json_answer(200, list_response("youtube#videoListResponse", items));
}

// videos.update with part=snippet: the snippet is replaced whole; title and categoryId are
// required, and a description or tags left out are cleared.
HttpAnswer update_video(const HttpRequest& request, const Grant& grant) {
    const auto parts = param(request, "part");
    if (parts != "snippet") return missing_part();
    const json body = json::parse(request.body, nullptr, false);
    if (!body.is_object() || !body.contains("id") || !body["id"].is_string())
        return google_error(400, "invalidVideoMetadata", "The request metadata is invalid.",
                            "youtube.video");
    std::optional<HttpAnswer> refusal;
    json* video = own_video(body["id"].get<std::string>(), grant, refusal);
    if (!video) return *refusal;
    const json given = body.value("snippet", json::object());
    const std::string title = given.value("title", "");
    if (title.empty() || title.find_first_of("<>") != std::string::npos)
        return google_error(400, "invalidTitle",
                            "The request metadata specifies an invalid video title.",
                            "youtube.video");
    if (given.value("categoryId", "").empty())
        return google_error(400, "invalidCategoryId",
                            "The request metadata does not specify a valid video category.",
                            "youtube.video");
    const std::string description = given.value("description", "");
    if (description.size() > 5000 || description.find_first_of("<>") != std::string::npos)
        return google_error(400, "invalidDescription",
                            "The request metadata specifies an invalid video description.",
                            "youtube.video");
    json& snippet = (*video)["snippet"];
    snippet["title"] = title;
    snippet["description"] = description;
    snippet["categoryId"] = given["categoryId"];
    if (given.contains("tags"))
        snippet["tags"] = given["tags"];
    else
        snippet.erase("tags");
    return json_answer(200, video_resource(*video, "snippet"));
}

HttpAnswer delete_video(const HttpRequest& request, const Grant& grant) {
    std::optional<HttpAnswer> refusal;
    const auto id = param(request, "id");
    if (!own_video(id, grant, refusal)) return *refusal;
    auto& s = state();
    s.videos.erase(id);
    std::erase(s.video_order, id);
    HttpAnswer answer;
    answer.status = 204;
    return answer;
}

// playlistItems.list of a channel's uploads playlist, newest first.
HttpAnswer playlist_items(const HttpRequest& request) {
    const auto parts = param(request, "part");
    if (parts.empty()) return missing_part();
    const auto playlist = param(request, "playlistId");
    const auto max_text = param(request, "maxResults");
    const int max = max_text.empty() ? 5 : std::atoi(max_text.c_str());
    if (max < 0 || max > 50)
        return google_error(400, "invalidValue", "Invalid value for maxResults.", "global");
    std::string user_id;
    for (const auto& [user, channel] : state().channels.items())
        if (uploads_playlist(channel["id"].get<std::string>()) == playlist) user_id = user;
    if (user_id.empty())
        return google_error(404, "playlistNotFound",
                            "The playlist identified with the request's playlistId parameter "
                            "cannot be found.",
                            "youtube.playlistItem");
    json items = json::array();
    const auto& order = state().video_order;
    for (auto it = order.rbegin(); it != order.rend() && static_cast<int>(items.size()) < max;
         ++it) {
        const json& video = state().videos[*it];
        if (video["user_id"] != user_id) continue;
        json item = {{"kind", "youtube#playlistItem"}, {"id", random_text(40)}};
        if (has_part(parts, "snippet"))
            item["snippet"] = {{"publishedAt", video["snippet"]["publishedAt"]},
                               {"channelId", video["snippet"]["channelId"]},
                               {"title", video["snippet"]["title"]},
                               {"description", video["snippet"]["description"]},
                               {"playlistId", playlist},
                               {"position", items.size()},
                               {"resourceId", {{"kind", "youtube#video"}, {"videoId", *it}}}};
        if (has_part(parts, "contentDetails"))
            item["contentDetails"] = {{"videoId", *it},
                                      {"videoPublishedAt", video["snippet"]["publishedAt"]}};
        items.push_back(item);
    }
    return json_answer(200, list_response("youtube#playlistItemListResponse", items));
}

// Google's words for the reasons tests make the API answer (control "fail").
}  // namespace squawk::fakes::platforms::youtube
