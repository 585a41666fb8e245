#include "common/extensions/platforms/youtube/resumable_upload.hpp"

#include "common/extensions/platforms/youtube/google_api.hpp"

#include <charconv>
#include <chrono>

namespace squawk::social::youtube {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

static_assert(kVideoChunkBytes % (256 * 1024) == 0, "YouTube takes chunks of 256 KiB multiples");

const std::string kSessionPath =
    "/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status";
// Lost answers and 5xx an upload outlives by asking where it stands; past them it is given up.
constexpr int kMaxResumes = 3;
// Google advises backing off before resuming after a 5xx.
constexpr std::chrono::milliseconds kResumePause = 500ms;

Answer failed(PlatformFailure failure) {
    Answer answer;
    answer.failure = std::move(failure);
    return answer;
}

// The bytes YouTube holds, from a 308's Range (bytes=0-N); none yet without one; nothing when the
// header does not parse.
std::optional<long long> received_bytes(const http::Response& response) {
    const auto range = response.header("range");
    if (!range) return 0;
    constexpr std::string_view kPrefix = "bytes=0-";
    if (!range->starts_with(kPrefix)) return std::nullopt;
    long long last = 0;
    const char* begin = range->data() + kPrefix.size();
    const char* end = range->data() + range->size();
    if (std::from_chars(begin, end, last).ptr != end || last < 0) return std::nullopt;
    return last + 1;
}

http::HeaderList with(http::HeaderList headers, std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
    return headers;
}

class Upload {
  public:
    Upload(PlatformApi& api, const http::HeaderList& auth, const Video& video)
        : api_(api), auth_(auth), video_(video) {}

    Answer run(const json& resource) {
        auto session = start(resource);
        if (session.failure) return session;
        url_ = session.body.get<std::string>();
        const long long chunks = (video_.bytes + kVideoChunkBytes - 1) / kVideoChunkBytes;
        bool ask = false;
        int resumes = 0;
        // Each request either moves the upload on or spends a resume; a server that keeps
        // acknowledging nothing new cannot hold the worker forever.
        for (long long requests = 0; requests <= 2 * chunks + 2 * kMaxResumes + 2; ++requests) {
            http::Response answer;
            const bool query = ask || offset_ >= video_.bytes;
            if (query) {
                answer = status();
            } else {
                auto chunk = video_.read_chunk(offset_, kVideoChunkBytes);
                if (chunk.empty())
                    return failed(failure_of(FailureKind::refused,
                                             "the video file is shorter than its announced size",
                                             0));
                answer = send_chunk(std::move(chunk));
            }
            ask = false;
            if (answer.status == 308) {
                const auto received = received_bytes(answer);
                if (!received || *received > video_.bytes)
                    return failed(failure_of(FailureKind::not_accepted,
                                             "YouTube acknowledged an upload range it cannot have",
                                             308));
                offset_ = *received;
                final_sent_ = false;
                continue;
            }
            if (answer.status / 100 == 2) return read_resource(answer, kUploadScope);
            if (answer.status == 0 || answer.status >= 500) {
                if (resumes++ < kMaxResumes) {
                    if (answer.status) time::pause(time::scaled(kResumePause * resumes));
                    ask = true;
                    continue;
                }
                auto failure = answer.status ? *read_resource(answer, kUploadScope).failure
                                             : transport_failure(answer);
                return failed(unfinished(std::move(failure)));
            }
            // A refused chunk made no video; a refused status query says nothing of a last chunk
            // whose answer was lost.
            auto refused =
                answer.status == 404
                    ? failure_of(FailureKind::not_accepted, "YouTube's upload session expired", 404)
                    : *read_resource(answer, kUploadScope).failure;
            return failed(query ? unfinished(std::move(refused)) : std::move(refused));
        }
        return failed(unfinished(
            failure_of(FailureKind::not_accepted, "YouTube's upload made no progress", 308)));
    }

  private:
    // The session's upload URL (Location), or why YouTube gave none. Starting a session makes no
    // video, so whatever happened nothing was published. Every chunk carries the account's
    // token, so a session elsewhere than YouTube's own origin is refused, whoever named it.
    Answer start(const json& resource) {
        auto headers = with(with(auth_, "X-Upload-Content-Length", std::to_string(video_.bytes)),
                            "X-Upload-Content-Type", video_.content_type);
        const auto response = api_.send("POST", kSessionPath, std::move(headers),
                                        "application/json; charset=UTF-8", resource.dump());
        const auto location = response.header("location");
        if (response.status == 200 && location && !location->empty()) {
            if (!api_.on_own_origin(*location))
                return failed(failure_of(FailureKind::refused,
                                         "YouTube named an upload address off its API's host; "
                                         "the video was not sent there",
                                         200));
            Answer answer;
            answer.body = *location;
            return answer;
        }
        auto answer = read_resource(response, kUploadScope);
        auto failure = answer.failure.value_or(failure_of(
            FailureKind::not_accepted, "YouTube started no upload session", response.status));
        if (failure.kind == FailureKind::unknown_outcome) failure.kind = FailureKind::not_accepted;
        return failed(std::move(failure));
    }

    // Bytes [offset_, offset_ + chunk's size) of the file, announced with Content-Range.
    http::Response send_chunk(std::string chunk) {
        const long long last = offset_ + static_cast<long long>(chunk.size()) - 1;
        final_sent_ = last + 1 == video_.bytes;
        return api_.send("PUT", url_,
                         with(auth_, "Content-Range",
                              "bytes " + std::to_string(offset_) + "-" + std::to_string(last) +
                                  "/" + std::to_string(video_.bytes)),
                         video_.content_type, std::move(chunk));
    }

    // An empty PUT asking what YouTube holds: 308 with its Range, or the finished video.
    http::Response status() {
        return api_.send("PUT", url_,
                         with(auth_, "Content-Range", "bytes */" + std::to_string(video_.bytes)),
                         video_.content_type, "");
    }

    // An upload given up on without a clear answer: once the last byte went out unanswered
    // YouTube may have made the video; before that it surely has none, and a refusal stays one.
    PlatformFailure unfinished(PlatformFailure failure) const {
        if (final_sent_)
            failure.kind = FailureKind::unknown_outcome;
        else if (failure.kind == FailureKind::unknown_outcome)
            failure.kind = FailureKind::not_accepted;
        return failure;
    }

    PlatformApi& api_;
    const http::HeaderList& auth_;
    const Video& video_;
    std::string url_;
    long long offset_ = 0;
    bool final_sent_ = false;
};

}  // namespace

Answer upload_video(PlatformApi& api, const http::HeaderList& auth, const Video& video,
                    const json& resource) {
    return Upload(api, auth, video).run(resource);
}

}  // namespace squawk::social::youtube
