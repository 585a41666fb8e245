#include "common/extensions/platforms/pinterest/video_upload.hpp"

#include "common/core/http/file_transfer.hpp"
#include "common/core/http/multipart.hpp"
#include "common/extensions/platforms/pinterest/answers.hpp"
#include "common/extensions/platforms/pinterest/options.hpp"

#include <filesystem>
#include <iterator>

namespace squawk::social::pinterest {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

// Pinterest gives no polling advice; these add up to about two minutes, which a short video
// needs at most. Media still processing after them is not accepted, to be tried again later.
constexpr std::chrono::milliseconds kStatusPauses[] = {1s, 2s, 3s, 5s, 8s, 13s, 21s, 34s, 34s};
constexpr std::chrono::seconds kProcessingRetry{120};

std::string megabytes(long long bytes) {
    return std::to_string((bytes + 1024 * 1024 - 1) / (1024 * 1024)) + " MB";
}

// The upload host is Amazon S3, whose refusals are XML: <Error><Code/><Message/></Error>.
std::string upload_refusal(const http::Response& response) {
    const auto& body = response.body;
    const auto open = body.find("<Message>");
    const auto close = body.find("</Message>");
    std::string reason = "Pinterest's upload host answered HTTP " + std::to_string(response.status);
    if (open != std::string::npos && close != std::string::npos && close > open)
        reason += ": " + body.substr(open + 9, close - open - 9);
    return reason;
}

// The upload form: every upload parameter as handed out, then the file, last as S3 wants it. The
// file streams from disk into the request, so a video of any size costs the same memory; the
// transfer blocks the worker's thread as the media stage's downloads do, for as long as bytes
// keep moving.
std::optional<PlatformFailure> send_file(const std::string& upload_url, const json& parameters,
                                         const Video& video, std::chrono::milliseconds stall) {
    http::Multipart form;
    for (const auto& [name, value] : parameters.items())
        if (value.is_string()) form.field(name, value.get<std::string>());
    auto filename = std::filesystem::path(video.path).filename().string();
    if (filename.empty()) filename = "video.mp4";
    http::Request request;
    request.method = "POST";
    request.url = upload_url;
    request.headers = {{"Content-Type", form.content_type()}};
    request.timeout = stall;
    auto around = std::move(form).finish_around_file("file", filename, video.content_type);
    http::FileBodies files;
    files.upload_from = video.path;
    files.upload_head = std::move(around.head);
    files.upload_tail = std::move(around.tail);
    const auto response = http::send_with_files(request, files);
    if (response.status / 100 == 2) return std::nullopt;
    if (response.status == 0) return nothing_published(transport_failure(response));
    return failure_of(failure_kind_for_status(response.status), upload_refusal(response),
                      response.status);
}

// Nothing once Pinterest processed the media; why not otherwise.
std::optional<PlatformFailure> wait_until_processed(PlatformApi& api, const http::HeaderList& auth,
                                                    const std::string& media_id) {
    for (size_t read = 0;; ++read) {
        auto answer = read_object(api.send("GET", "/v5/media/" + media_id, auth));
        if (answer.failure) return nothing_published(std::move(*answer.failure));
        const auto status = json_text(answer.body, "status");
        if (status == "succeeded") return std::nullopt;
        if (status == "failed")
            return failure_of(FailureKind::refused, "Pinterest could not process the video", 200);
        if (status != "registered" && status != "processing")
            return failure_of(FailureKind::not_accepted,
                              "Pinterest's media upload is " +
                                  (status.empty() ? std::string("of no status") : status),
                              200);
        if (read == std::size(kStatusPauses)) {
            auto busy = failure_of(FailureKind::not_accepted,
                                   "Pinterest was still processing the video", 200);
            busy.retry_after = kProcessingRetry;
            return busy;
        }
        time::pause(time::scaled(kStatusPauses[read]));
    }
}

}  // namespace

MediaUpload upload_video(PlatformApi& api, const http::HeaderList& auth, const Video& video,
                         std::chrono::milliseconds stall_timeout) {
    MediaUpload out;
    if (video.bytes > kMaxVideoUploadBytes) {
        out.failure =
            failure_of(FailureKind::refused, "Pinterest takes videos of at most " +
                                                 megabytes(kMaxVideoUploadBytes) +
                                                 "; this one has " + megabytes(video.bytes));
        return out;
    }
    auto registered =
        read_object(api.send("POST", "/v5/media", auth, json{{"media_type", "video"}}));
    if (registered.failure) {
        out.failure = nothing_published(std::move(*registered.failure));
        return out;
    }
    const auto media_id = json_text(registered.body, "media_id");
    const auto upload_url = json_text(registered.body, "upload_url");
    const json parameters = registered.body.value("upload_parameters", json::object());
    if (!is_pinterest_id(media_id) || upload_url.empty() || !parameters.is_object()) {
        out.failure = failure_of(FailureKind::not_accepted,
                                 "Pinterest registered the video without an upload address", 201);
        return out;
    }
    if (auto failed = send_file(upload_url, parameters, video, stall_timeout)) {
        out.failure = nothing_published(std::move(*failed));
        return out;
    }
    if (auto failed = wait_until_processed(api, auth, media_id)) {
        out.failure = std::move(failed);
        return out;
    }
    out.media_id = media_id;
    return out;
}

}  // namespace squawk::social::pinterest
