#include "common/extensions/platforms/bluesky/video_service.hpp"

#include "common/core/http/file_transfer.hpp"
#include "common/core/http/form_encoding.hpp"
#include "common/core/net/target_url.hpp"
#include "common/extensions/platforms/bluesky/xrpc.hpp"

#include <filesystem>
#include <iterator>

namespace squawk::social::bluesky {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

// Bluesky gives no polling advice; these add up to about two minutes, more than its three-minute
// videos take to encode. A job still running after them is not accepted, to be tried again: the
// service then answers the same file with the finished job.
constexpr std::chrono::milliseconds kStatusPauses[] = {250ms, 500ms, 1s,  2s,  4s,
                                                       8s,    15s,   30s, 30s, 30s};
constexpr std::chrono::seconds kProcessingRetry{120};

// How long the service token lets the video service write to the PDS: the upload and the encoding
// both run inside it (Bluesky's tutorial asks for 30 minutes).
constexpr std::chrono::minutes kServiceTokenLife{30};

// The service token's audience: the PDS by its did:web, a port written as %3A.
std::string pds_did(const std::string& pds_url) {
    const auto url = net::parse_url(pds_url);
    const bool default_port = url.port == (url.scheme == "https" ? 443 : 80);
    return "did:web:" + url.host + (default_port ? "" : "%3A" + std::to_string(url.port));
}

// uploadVideo answers the job status itself; getJobStatus wraps it in jobStatus.
json job_of(const json& body) {
    const json wrapped = object_at(body, "jobStatus");
    return wrapped.empty() ? body : wrapped;
}

}  // namespace

VideoService::VideoService(const config::PlatformSettings& settings, http::Client& http)
    : base_url_(settings.upload_url),
      stall_timeout_(settings.timeout_ms),
      api_(
          [&] {
              auto service = settings;
              service.api_base_url = settings.upload_url;
              return service;
          }(),
          http) {}

Answer VideoService::upload(PdsSession& session, const std::string& pds_url, const Video& video) {
    auto token = service_token(session, pds_url);
    if (token.failure) return token;
    auto job = send_file(json_text(token.body, "token"), session.did(), video);
    if (job.failure) return job;
    return wait_for_blob(job_of(job.body));
}

Answer VideoService::service_token(PdsSession& session, const std::string& pds_url) {
    const auto expires = time::to_unix_ms(time::now() + kServiceTokenLife) / 1000;
    auto answer = session.call(
        "GET",
        "/xrpc/com.atproto.server.getServiceAuth?aud=" + http::percent_encode(pds_did(pds_url)) +
            "&lxm=com.atproto.repo.uploadBlob&exp=" + std::to_string(expires));
    if (answer.failure) return {json(), nothing_published(std::move(*answer.failure))};
    if (json_text(answer.body, "token").empty())
        return {json(), unreadable("Bluesky's getServiceAuth answer has no token")};
    return answer;
}

Answer VideoService::send_file(const std::string& token, const std::string& did,
                               const Video& video) {
    auto name = std::filesystem::path(video.path).filename().string();
    if (name.empty()) name = "video.mp4";
    http::Request request;
    request.method = "POST";
    request.url = base_url_ + "/xrpc/app.bsky.video.uploadVideo?did=" + http::percent_encode(did) +
                  "&name=" + http::percent_encode(name);
    request.headers = {{"Authorization", "Bearer " + token}, {"Content-Type", video.content_type}};
    request.timeout = stall_timeout_;
    http::FileBodies files;
    files.upload_from = video.path;
    auto answer = read(http::send_with_files(request, files));
    if (answer.failure) return {json(), nothing_published(std::move(*answer.failure))};
    if (json_text(job_of(answer.body), "jobId").empty())
        return {json(), unreadable("Bluesky's video service answered the upload without a job")};
    return answer;
}

Answer VideoService::wait_for_blob(const json& job_status) {
    json job = job_status;
    const std::string job_id = json_text(job, "jobId");
    for (size_t read_count = 0;; ++read_count) {
        // A file the service encoded before (a publish tried again) ends its new job in an error,
        // already_exists, with the earlier blob: it is not encoded twice.
        if (auto blob = object_at(job, "blob"); !blob.empty()) return {std::move(blob), {}};
        const auto state = json_text(job, "state");
        if (state == "JOB_STATE_FAILED") {
            auto reason = json_text(job, "message");
            if (reason.empty()) reason = json_text(job, "error");
            return {json(),
                    failure_of(FailureKind::refused,
                               "Bluesky's video service refused the video: " +
                                   (reason.empty() ? std::string("no reason given") : reason),
                               200)};
        }
        if (state == "JOB_STATE_COMPLETED")
            return {json(), unreadable("Bluesky's video service finished the job without a blob")};
        if (read_count == std::size(kStatusPauses)) {
            auto busy = failure_of(FailureKind::not_accepted,
                                   "Bluesky's video service was still processing the video", 200);
            busy.retry_after = kProcessingRetry;
            return {json(), std::move(busy)};
        }
        time::pause(time::scaled(kStatusPauses[read_count]));
        auto answer = read(api_.send(
            "GET", "/xrpc/app.bsky.video.getJobStatus?jobId=" + http::percent_encode(job_id), {}));
        if (answer.failure) return {json(), nothing_published(std::move(*answer.failure))};
        job = job_of(answer.body);
    }
}

}  // namespace squawk::social::bluesky
