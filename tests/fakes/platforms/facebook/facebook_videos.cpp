// The fake's Page videos: the resumable upload of /{page}/videos (start answers the first byte
// range wanted, each transfer of a video_file_chunk the next, finish publishes once every byte
// arrived) and reels and stories (/{page}/video_reels and video_stories: start hands out an
// upload address on the rupload host, which takes the file in pieces at the offsets it has,
// finish publishes). Reels count against Facebook's 30 per Page in a moving 24 hours.
#include "tests/fakes/platforms/facebook/facebook_fake.hpp"
#include "tests/fakes/platforms/fake_clock.hpp"

#include <algorithm>
#include <cstdlib>

namespace squawk::fakes::platforms::facebook {
namespace {

using nlohmann::json;

// The byte range Facebook asks for at once; small, so that tests see several transfers.
constexpr long long kRangeBytes = 128 * 1024;
constexpr size_t kMaxReelsPerDay = 30;
constexpr long long kDaySeconds = 24 * 3600;

bool is_digits(const std::string& text) {
    return !text.empty() && text.size() < 19 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

json range(long long start, long long size) {
    return {{"start_offset", std::to_string(start)},
            {"end_offset", std::to_string(std::min(size, start + kRangeBytes))}};
}

HttpAnswer resumable_start(const Caller& caller, const Params& params) {
    const std::string size = param(params, "file_size");
    if (!is_digits(size) || std::atoll(size.c_str()) <= 0)
        return invalid_parameter("(#100) Param file_size must be a positive integer");
    const std::string session = new_id();
    const std::string video_id = new_id();
    state().sessions[session] = {{"video_id", video_id},
                                 {"page_id", caller.page_id()},
                                 {"file_size", std::atoll(size.c_str())},
                                 {"received", 0}};
    json out = range(0, std::atoll(size.c_str()));
    out["upload_session_id"] = session;
    out["video_id"] = video_id;
    return json_answer(200, out);
}

json* session_of(const Caller& caller, const std::string& id) {
    auto& sessions = state().sessions;
    if (!sessions.contains(id) || sessions[id]["page_id"] != caller.page_id()) return nullptr;
    return &sessions[id];
}

HttpAnswer resumable_transfer(const HttpRequest& request, const Caller& caller) {
    const auto form = parse_form(request);
    if (!form || !form->files.contains("video_file_chunk"))
        return invalid_parameter("(#100) video_file_chunk must be sent as a file");
    json* session = session_of(caller, param(form->fields, "upload_session_id"));
    if (!session) return invalid_parameter("(#100) Invalid upload_session_id");
    const long long received = (*session)["received"];
    const long long size = (*session)["file_size"];
    const long long bytes = form->files["video_file_chunk"]["bytes"];
    if (param(form->fields, "start_offset") != std::to_string(received))
        return graph_error(400, "(#6001) Start offset does not match the bytes received", 6001,
                           1363037);
    if (bytes <= 0 || received + bytes > size)
        return graph_error(400, "(#6001) The chunk does not fit the announced file size", 6001,
                           1363019);
    (*session)["received"] = received + bytes;
    return json_answer(200, range(received + bytes, size));
}

HttpAnswer resumable_finish(const Caller& caller, const Params& params) {
    json* session = session_of(caller, param(params, "upload_session_id"));
    if (!session) return invalid_parameter("(#100) Invalid upload_session_id");
    if ((*session)["received"] != (*session)["file_size"])
        return graph_error(400, "(#6001) The video file was not uploaded completely", 6001,
                           1363030);
    const std::string video_id = (*session)["video_id"];
    state().sessions.erase(param(params, "upload_session_id"));
    json media = {{"type", "video"}, {"video_id", video_id}};
    json post = store_post(caller.page_id(), "video", param(params, "description"), media);
    post["id"] = video_id;
    state().posts[caller.page_id()].back() = post;
    publish_log("facebook", param(params, "description"));
    return json_answer(200, {{"success", true}});
}

// Reels published by the Page in the last 24 hours.
size_t reels_today(const std::string& page_id) {
    size_t count = 0;
    for (const auto& [id, video] : state().videos.items())
        if (video["page_id"] == page_id && video["edge"] == "video_reels" &&
            video.value("published_at", 0LL) > unix_now() - kDaySeconds)
            ++count;
    return count;
}

HttpAnswer hosted_start(const HttpRequest& request, const Caller& caller, const std::string& edge) {
    const std::string video_id = new_id();
    state().videos[video_id] = {
        {"page_id", caller.page_id()}, {"edge", edge}, {"file_size", 0}, {"received", 0}};
    const auto host = request.headers.find("host");
    const std::string base =
        "http://" + (host == request.headers.end() ? std::string("127.0.0.1") : host->second);
    return json_answer(200,
                       {{"video_id", video_id},
                        {"upload_url", base + "/facebook/rupload/video-upload/v19.0/" + video_id}});
}

HttpAnswer hosted_finish(const Caller& caller, const std::string& edge, const Params& params) {
    auto& videos = state().videos;
    const std::string id = param(params, "video_id");
    if (!videos.contains(id) || videos[id]["page_id"] != caller.page_id() ||
        videos[id]["edge"] != edge)
        return invalid_parameter("(#100) Invalid video_id");
    json& video = videos[id];
    if (video["received"].get<long long>() == 0 || video["received"] != video["file_size"])
        return graph_error(400, "(#6001) The video file was not uploaded completely", 6001,
                           1363030);
    if (video.contains("published_at"))
        return invalid_parameter("(#100) The video has already been published");
    if (edge == "video_stories") {
        video["published_at"] = unix_now();
        const json story =
            store_post(caller.page_id(), "story", "", {{"type", "video"}, {"video_id", id}});
        return json_answer(200, {{"success", true}, {"post_id", story["id"]}});
    }
    const std::string video_state = param(params, "video_state");
    if (video_state != "PUBLISHED" && video_state != "DRAFT" && video_state != "SCHEDULED")
        return invalid_parameter(
            "(#100) Param video_state must be one of {DRAFT, PUBLISHED, "
            "SCHEDULED}");
    if (reels_today(caller.page_id()) >= kMaxReelsPerDay)
        return graph_error(400,
                           "(#4) The Page has reached its limit of 30 reels published through "
                           "the API in 24 hours",
                           4, 2207042);
    video["published_at"] = unix_now();
    json post = store_post(caller.page_id(), "reel", param(params, "description"),
                           {{"type", "video"}, {"video_id", id}});
    post["id"] = id;
    post["permalink_url"] = "https://www.facebook.com/reel/" + id;
    state().posts[caller.page_id()].back() = post;
    publish_log("facebook", param(params, "description"));
    return json_answer(200, {{"success", true}});
}

}  // namespace

HttpAnswer videos_edge(const HttpRequest& request, const Caller& caller, const std::string& edge,
                       const Params& params) {
    if (!caller.has("pages_manage_posts")) return missing_permission("pages_manage_posts");
    std::string phase = param(params, "upload_phase");
    if (edge == "videos") {
        if (phase.empty())
            if (const auto form = parse_form(request)) phase = param(form->fields, "upload_phase");
        if (phase == "start") return resumable_start(caller, params);
        if (phase == "transfer") return resumable_transfer(request, caller);
        if (phase == "finish") return resumable_finish(caller, params);
    } else {
        if (phase == "start") return hosted_start(request, caller, edge);
        if (phase == "finish") return hosted_finish(caller, edge, params);
    }
    return invalid_parameter("(#100) Param upload_phase must be one of {start, transfer, finish}");
}

HttpAnswer upload_host(const HttpRequest& request, const std::string& video_id) {
    auto& videos = state().videos;
    const auto header = [&](const std::string& name) {
        const auto found = request.headers.find(name);
        return found == request.headers.end() ? std::string() : found->second;
    };
    const auto refuse = [](int status, const std::string& message) {
        return json_answer(
            status,
            {{"debug_info",
              {{"retriable", false}, {"type", "ProcessingFailedError"}, {"message", message}}}});
    };
    const std::string auth = header("authorization");
    const std::string token = auth.starts_with("OAuth ") ? auth.substr(6) : "";
    const auto& tokens = state().tokens;
    if (!tokens.contains(token) || tokens[token]["expired"].get<bool>())
        return refuse(401, "Invalid OAuth access token");
    if (!videos.contains(video_id) ||
        videos[video_id]["page_id"] != tokens[token].value("page_id", ""))
        return refuse(400, "Invalid video id");
    json& video = videos[video_id];
    if (!is_digits(header("offset")) || !is_digits(header("file_size")))
        return refuse(400, "The offset and file_size headers are required");
    const long long offset = std::atoll(header("offset").c_str());
    const long long size = std::atoll(header("file_size").c_str());
    const long long received = video["received"];
    if (offset != received) return refuse(400, "The offset does not match the bytes received");
    if (request.body.empty() || received + static_cast<long long>(request.body.size()) > size)
        return refuse(400, "The piece does not fit the announced file size");
    video["file_size"] = size;
    video["received"] = received + static_cast<long long>(request.body.size());
    return json_answer(200, {{"success", true}});
}

}  // namespace squawk::fakes::platforms::facebook
