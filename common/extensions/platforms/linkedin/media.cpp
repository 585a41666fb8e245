#include "common/extensions/platforms/linkedin/media.hpp"

#include "common/extensions/platforms/linkedin/organizations.hpp"
#include "common/extensions/platforms/linkedin/rest.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <iterator>

namespace squawk::social::linkedin {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// Pauses between status reads of a video or document LinkedIn is still processing: about half a
// minute in all, as long as a publish should hold its worker. Media still processing after them
// is not accepted, to be tried again later.
constexpr std::chrono::milliseconds kStatusPauses[] = {500ms,  1000ms, 2000ms,
                                                       4000ms, 8000ms, 15000ms};
constexpr std::chrono::seconds kProcessingRetry{60};

UploadedMedia failed(PlatformFailure failure) {
    return {"", nothing_published(std::move(failure))};
}

// {value: {...}} of an action, or the failure of its answer.
Answer action_value(const http::Response& response, std::string_view permission) {
    auto answer = read_resource(response, permission);
    if (answer.failure) return answer;
    if (!answer.body.contains("value") || !answer.body["value"].is_object()) {
        answer.failure = refusal("LinkedIn's answer to an upload has no value", 200);
        answer.failure->kind = FailureKind::not_accepted;
        return answer;
    }
    answer.body = json(answer.body["value"]);
    return answer;
}

}  // namespace

MediaUploads::MediaUploads(PlatformApi& api, const Credentials& credentials, std::string owner)
    : api_(api),
      credentials_(credentials),
      owner_(std::move(owner)),
      permission_(owner_.starts_with("urn:li:organization:") ? kOrganizationPostPermission
                                                             : kMemberPostPermission) {}

UploadedMedia MediaUploads::single_upload(const std::string& resource, const char* urn_member,
                                          const Upload& file) {
    const json request = {{"initializeUploadRequest", {{"owner", owner_}}}};
    auto started = action_value(api_.send("POST", "/rest/" + resource + "?action=initializeUpload",
                                          rest_headers(credentials_), request),
                                permission_);
    if (started.failure) return failed(std::move(*started.failure));
    const auto upload_url = json_text(started.body, "uploadUrl");
    const auto urn = json_text(started.body, urn_member);
    if (upload_url.empty() || urn.empty())
        return failed(refusal("LinkedIn gave no upload address for the " + resource, 200));
    auto put = read_done(
        api_.send("PUT", upload_url, bearer(credentials_), "application/octet-stream", file.bytes),
        permission_);
    if (put.failure) return failed(std::move(*put.failure));
    return {urn, std::nullopt};
}

UploadedMedia MediaUploads::image(const Upload& file) {
    return single_upload("images", "image", file);
}

UploadedMedia MediaUploads::document(const Upload& file) {
    auto uploaded = single_upload("documents", "document", file);
    if (!uploaded.failure) uploaded.failure = wait_until_available("documents", uploaded.urn);
    return uploaded;
}

// initializeUpload with the file's size hands out the parts (byte ranges, 4 MB as a rule) and
// their signed addresses; each part goes up from the file and its ETag proves it to
// finalizeUpload.
UploadedMedia MediaUploads::video(const Video& video) {
    const json request = {{"initializeUploadRequest",
                           {{"owner", owner_},
                            {"fileSizeBytes", video.bytes},
                            {"uploadCaptions", false},
                            {"uploadThumbnail", false}}}};
    auto started = action_value(api_.send("POST", "/rest/videos?action=initializeUpload",
                                          rest_headers(credentials_), request),
                                permission_);
    if (started.failure) return failed(std::move(*started.failure));
    const auto urn = json_text(started.body, "video");
    const auto parts = started.body.value("uploadInstructions", json::array());
    if (urn.empty() || !parts.is_array() || parts.empty())
        return failed(refusal("LinkedIn gave no upload instructions for the video", 200));
    json etags = json::array();
    for (const auto& part : parts) {
        const auto url = json_text(part, "uploadUrl");
        const long long first = part.value("firstByte", -1LL);
        const long long last = part.value("lastByte", -1LL);
        if (url.empty() || first < 0 || last < first || last >= video.bytes)
            return failed(refusal("LinkedIn's upload instructions for the video do not fit it"));
        const auto length = static_cast<size_t>(last - first + 1);
        // A part is sent whole; one larger than the chunk bound would hold more of the file in
        // memory than any connector may.
        if (length > kVideoChunkBytes)
            return failed(refusal("LinkedIn asked for a video part of " + std::to_string(length) +
                                  " bytes, more than Squawk sends at once"));
        auto bytes = video.read_chunk(first, length);
        if (bytes.size() != length)
            return failed(refusal("the video file is shorter than its announced size"));
        // The part's address is signed: it takes no token.
        const auto response =
            api_.send("PUT", url, {}, "application/octet-stream", std::move(bytes));
        auto put = read_done(response, permission_);
        if (put.failure) return failed(std::move(*put.failure));
        const auto etag = response.header("etag");
        if (!etag || etag->empty()) {
            auto missing = refusal("LinkedIn took a video part without an ETag", response.status);
            missing.kind = FailureKind::not_accepted;
            return failed(std::move(missing));
        }
        etags.push_back(*etag);
    }
    const json finalize = {{"finalizeUploadRequest",
                            {{"video", urn},
                             {"uploadToken", started.body.value("uploadToken", "")},
                             {"uploadedPartIds", etags}}}};
    auto finished = read_done(api_.send("POST", "/rest/videos?action=finalizeUpload",
                                        rest_headers(credentials_), finalize),
                              permission_);
    if (finished.failure) return failed(std::move(*finished.failure));
    if (auto waiting = wait_until_available("videos", urn)) return failed(std::move(*waiting));
    return {urn, std::nullopt};
}

std::optional<PlatformFailure> MediaUploads::wait_until_available(const std::string& resource,
                                                                  const std::string& urn) {
    for (size_t read = 0;; ++read) {
        auto answer = read_resource(api_.send("GET", "/rest/" + resource + "/" + urn_segment(urn),
                                              rest_headers(credentials_)),
                                    permission_);
        if (answer.failure) return nothing_published(std::move(*answer.failure));
        const auto status = json_text(answer.body, "status");
        if (status == "AVAILABLE") return std::nullopt;
        if (status == "PROCESSING_FAILED") {
            const auto why = json_text(answer.body, "processingFailureReason");
            return refusal("LinkedIn could not process the " +
                               resource.substr(0, resource.size() - 1) +
                               (why.empty() ? std::string() : ": " + why),
                           200);
        }
        if (read == std::size(kStatusPauses)) {
            auto busy = refusal(
                "LinkedIn was still processing the " + resource.substr(0, resource.size() - 1),
                200);
            busy.kind = FailureKind::not_accepted;
            busy.retry_after = kProcessingRetry;
            return busy;
        }
        time::pause(time::scaled(kStatusPauses[read]));
    }
}

}  // namespace squawk::social::linkedin
