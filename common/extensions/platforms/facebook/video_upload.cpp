#include "common/extensions/platforms/facebook/video_upload.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/core/http/multipart.hpp"
#include "common/extensions/platforms/facebook/graph.hpp"

#include <algorithm>

namespace squawk::social::facebook {
namespace {

using nlohmann::json;

std::string edge_path(const VideoPost& post) {
    return graph_path(post.page_id + "/" + post.edge);
}

Answer send_form(PlatformApi& api, const VideoPost& post, const http::FormFields& fields) {
    return read_object(api.send("POST", edge_path(post), meta_graph::bearer(post.token),
                                "application/x-www-form-urlencoded", http::form_encode(fields)));
}

Answer failed(PlatformFailure failure) {
    Answer answer;
    answer.failure = std::move(failure);
    return answer;
}

// An offset Facebook writes as a string of digits (start_offset, end_offset).
std::optional<long long> offset_of(const json& body, const char* name) {
    const auto text = json_text(body, name);
    if (text.empty() || text.size() > 18 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    return std::stoll(text);
}

std::string read_piece(const Video& video, long long offset, long long length,
                       std::optional<PlatformFailure>& failure) {
    std::string piece;
    try {
        piece = video.read_chunk(offset, static_cast<size_t>(length));
    } catch (const std::exception& e) {
        failure = refusal(std::string("the video file could not be read: ") + e.what());
        return piece;
    }
    if (piece.empty()) failure = refusal("the video file is shorter than its announced size");
    return piece;
}

// /{page}/videos: Facebook names the byte range it wants next (start_offset to end_offset) after
// each transfer, until both are equal; a range wider than kVideoChunkBytes is sent in parts, each
// answered with the next range.
std::optional<PlatformFailure> transfer(PlatformApi& api, const VideoPost& post, const Video& video,
                                        const std::string& session, json range) {
    for (;;) {
        const auto start = offset_of(range, "start_offset");
        const auto end = offset_of(range, "end_offset");
        if (!start || !end || *end < *start || *end > video.bytes)
            return refusal("Facebook asked for a part of the video that is not in it");
        if (*start == *end) return std::nullopt;
        std::optional<PlatformFailure> failure;
        const auto piece = read_piece(
            video, *start, std::min<long long>(*end - *start, kVideoChunkBytes), failure);
        if (failure) return failure;
        http::Multipart form;
        form.field("upload_phase", "transfer");
        form.field("upload_session_id", session);
        form.field("start_offset", std::to_string(*start));
        form.file("video_file_chunk", "chunk", "application/octet-stream", piece);
        const auto content_type = form.content_type();
        auto answer = read_object(api.send("POST", edge_path(post), meta_graph::bearer(post.token),
                                           content_type, std::move(form).finish()));
        if (answer.failure) return nothing_published(std::move(*answer.failure));
        range = std::move(answer.body);
    }
}

Answer resumable_upload(PlatformApi& api, const VideoPost& post, const Video& video) {
    auto started = send_form(
        api, post, {{"upload_phase", "start"}, {"file_size", std::to_string(video.bytes)}});
    if (started.failure) return failed(nothing_published(std::move(*started.failure)));
    const auto session = json_text(started.body, "upload_session_id");
    const auto video_id = graph_id(started.body, "video_id");
    if (session.empty() || video_id.empty())
        return failed(nothing_published(refusal("Facebook opened no video upload session", 200)));
    if (auto failure = transfer(api, post, video, session, started.body)) return failed(*failure);
    http::FormFields finish = {{"upload_phase", "finish"}, {"upload_session_id", session}};
    finish.insert(finish.end(), post.finish.begin(), post.finish.end());
    auto finished = send_form(api, post, finish);
    if (finished.failure) return finished;
    if (!finished.body.value("success", false))
        return failed(refusal("Facebook did not publish the video", 200));
    return {json{{"video_id", video_id}}, std::nullopt};
}

// Reels and stories: the file goes to the upload address in pieces, each saying where it starts
// (offset) and how large the whole is (file_size).
std::optional<PlatformFailure> upload_hosted(PlatformApi& api, const std::string& upload_url,
                                             const std::string& token, const Video& video) {
    for (long long offset = 0; offset < video.bytes;) {
        std::optional<PlatformFailure> failure;
        auto piece = read_piece(
            video, offset, std::min<long long>(video.bytes - offset, kVideoChunkBytes), failure);
        if (failure) return failure;
        const auto size = static_cast<long long>(piece.size());
        auto answer = read_object(api.send("POST", upload_url,
                                           {{"Authorization", "OAuth " + token},
                                            {"offset", std::to_string(offset)},
                                            {"file_size", std::to_string(video.bytes)}},
                                           "application/octet-stream", std::move(piece)));
        if (answer.failure) return nothing_published(std::move(*answer.failure));
        if (!answer.body.value("success", false))
            return nothing_published(refusal("Facebook's upload host did not take the video", 200));
        offset += size;
    }
    return std::nullopt;
}

Answer hosted_upload(PlatformApi& api, const VideoPost& post, const Video& video) {
    auto started = send_form(api, post, {{"upload_phase", "start"}});
    if (started.failure) return failed(nothing_published(std::move(*started.failure)));
    const auto video_id = graph_id(started.body, "video_id");
    const auto upload_url = json_text(started.body, "upload_url");
    if (video_id.empty() ||
        !(upload_url.starts_with("https://") || upload_url.starts_with("http://")))
        return failed(nothing_published(refusal("Facebook handed out no upload address", 200)));
    if (auto failure = upload_hosted(api, upload_url, post.token, video)) return failed(*failure);
    http::FormFields finish = {{"upload_phase", "finish"}, {"video_id", video_id}};
    finish.insert(finish.end(), post.finish.begin(), post.finish.end());
    auto finished = send_form(api, post, finish);
    if (finished.failure) return finished;
    if (!finished.body.value("success", false))
        return failed(refusal("Facebook did not publish the video", 200));
    json out = {{"video_id", video_id}};
    if (auto post_id = graph_id(finished.body, "post_id"); !post_id.empty())
        out["post_id"] = post_id;
    return {out, std::nullopt};
}

}  // namespace

Answer publish_video(PlatformApi& api, const VideoPost& post, const Video& video) {
    return post.edge == "videos" ? resumable_upload(api, post, video)
                                 : hosted_upload(api, post, video);
}

}  // namespace squawk::social::facebook
