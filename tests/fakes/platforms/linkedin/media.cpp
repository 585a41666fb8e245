// LinkedIn's media APIs as the fake serves them: initializeUpload on images and documents (one
// address the bytes are PUT to with the member's token), videos initialized with their size and
// uploaded in parts of 4 MiB to signed addresses, each answering an ETag that finalizeUpload
// must list in order; a video or document reads PROCESSING once, then AVAILABLE (or
// PROCESSING_FAILED).
#include "tests/fakes/platforms/linkedin/linkedin_fake.hpp"

#include <algorithm>

namespace squawk::fakes::platforms::linkedin {
namespace {

constexpr long long kPartBytes = 4 * 1024 * 1024;
constexpr long long kMinVideoBytes = 75 * 1000;
constexpr long long kMaxVideoBytes = 500LL * 1000 * 1000;
constexpr long long kMaxDocumentBytes = 100LL * 1000 * 1000;
constexpr std::string_view kUploads = "/dms-uploads/";

const std::string kUploadPermission = "w_member_social";

json parsed(const HttpRequest& request) {
    return json::parse(request.body, nullptr, false);
}

// The initializeUploadRequest of an action's body, when the token's member may act as its owner
// (themself or a page they administer).
std::variant<json, HttpAnswer> upload_request(const HttpRequest& request, const Grant& grant) {
    const json body = parsed(request);
    if (!body.is_object() || !body.contains("initializeUploadRequest") ||
        !body["initializeUploadRequest"].is_object())
        return unprocessable(
            "ERROR :: /initializeUploadRequest :: field is required but not found "
            "and has no default value");
    const json& init = body["initializeUploadRequest"];
    if (!acts_as(init.value("owner", ""), grant))
        return error(403, 100, "ACCESS_DENIED",
                     "Not enough permissions to upload media for " + init.value("owner", ""));
    return init;
}

std::string new_asset_id(const char* prefix) {
    return prefix + random_text(14);
}

HttpAnswer initialize_single(const HttpRequest& request, const Grant& grant,
                             const std::string& kind) {
    auto init = upload_request(request, grant);
    if (auto* refusal = std::get_if<HttpAnswer>(&init)) return *refusal;
    const std::string id = new_asset_id(kind == "image" ? "C4E10AQ" : "D4D10AQ");
    const std::string urn = "urn:li:" + kind + ":" + id;
    state().single_uploads[urn] = {{"owner", std::get<json>(init)["owner"]},
                                   {"kind", kind},
                                   {"uploaded", false},
                                   {"bytes", 0},
                                   {"status", "WAITING_UPLOAD"}};
    return json_answer(200, {{"value",
                              {{"uploadUrlExpiresAt", unix_now_ms() + 86'400'000},
                               {"uploadUrl", origin(request) + "/linkedin/dms-uploads/" + kind +
                                                 "/" + url_encode(urn) + "?ca=vector_feedshare"},
                               {kind, urn}}}});
}

HttpAnswer initialize_video(const HttpRequest& request, const Grant& grant) {
    auto init = upload_request(request, grant);
    if (auto* refusal = std::get_if<HttpAnswer>(&init)) return *refusal;
    const json& request_body = std::get<json>(init);
    if (!request_body.contains("fileSizeBytes") ||
        !request_body["fileSizeBytes"].is_number_integer())
        return unprocessable(
            "ERROR :: /initializeUploadRequest/fileSizeBytes :: field is required "
            "but not found and has no default value");
    const long long size = request_body["fileSizeBytes"].get<long long>();
    if (size < kMinVideoBytes || size > kMaxVideoBytes)
        return unprocessable("Video size " + std::to_string(size) +
                             " bytes is outside the allowed range of 75 KB to 500 MB");
    const std::string urn = "urn:li:video:" + new_asset_id("C5F10AQ");
    const std::string signature = random_text(24);
    json parts = json::array();
    json instructions = json::array();
    for (long long first = 0, n = 0; first < size; first += kPartBytes, ++n) {
        const long long last = std::min(first + kPartBytes, size) - 1;
        parts.push_back({{"first", first}, {"last", last}, {"etag", nullptr}});
        instructions.push_back(
            {{"uploadUrl", origin(request) + "/linkedin/dms-uploads/video/" + url_encode(urn) +
                               "/" + std::to_string(n) + "?sig=" + signature},
             {"firstByte", first},
             {"lastByte", last}});
    }
    const std::string upload_token = parts.size() > 1 ? random_text(32) : "";
    state().videos[urn] = {{"owner", request_body["owner"]},
                           {"bytes", size},
                           {"parts", parts},
                           {"signature", signature},
                           {"upload_token", upload_token},
                           {"status", "WAITING_UPLOAD"},
                           {"fails", false}};
    return json_answer(200, {{"value",
                              {{"uploadUrlsExpireAt", unix_now_ms() + 86'400'000},
                               {"video", urn},
                               {"uploadInstructions", instructions},
                               {"uploadToken", upload_token}}}});
}

// finalizeUpload: every part uploaded, its ETag listed in order, and the upload token given.
HttpAnswer finalize_video(const HttpRequest& request, const Grant& grant) {
    const json body = parsed(request);
    const json finalize = body.is_object() ? body.value("finalizeUploadRequest", json()) : json();
    if (!finalize.is_object())
        return unprocessable(
            "ERROR :: /finalizeUploadRequest :: field is required but not found "
            "and has no default value");
    const std::string urn = finalize.value("video", "");
    auto& videos = state().videos;
    if (!videos.contains(urn) || !acts_as(videos[urn]["owner"].get<std::string>(), grant))
        return error(404, 0, "NOT_FOUND", "Video " + urn + " not found");
    json& video = videos[urn];
    if (finalize.value("uploadToken", "") != video["upload_token"])
        return error(400, 0, "BAD_REQUEST", "The upload token does not match the video's");
    const json ids = finalize.value("uploadedPartIds", json::array());
    const json& parts = video["parts"];
    if (!ids.is_array() || ids.size() != parts.size())
        return error(400, 0, "BAD_REQUEST",
                     "Expected " + std::to_string(parts.size()) + " uploaded part ids, got " +
                         std::to_string(ids.is_array() ? ids.size() : 0));
    for (size_t i = 0; i < parts.size(); ++i)
        if (parts[i]["etag"].is_null() || ids[i] != parts[i]["etag"])
            return error(400, 0, "BAD_REQUEST",
                         "Part " + std::to_string(i) + " was not uploaded or its id is wrong");
    video["status"] = "PROCESSING";
    video["fails"] = std::exchange(state().fail_next_processing, false);
    return json_answer(200, json::object());
}

// PUT of a part: its signed address, and exactly its byte range.
HttpAnswer upload_part(const HttpRequest& request, const std::string& urn, size_t n) {
    auto& videos = state().videos;
    if (!videos.contains(urn)) return error(404, 0, "NOT_FOUND", "Upload not found");
    json& video = videos[urn];
    if (request.query("sig") != video["signature"].get<std::string>())
        return error(403, 0, "ACCESS_DENIED", "The upload signature is not valid");
    if (n >= video["parts"].size() || video["status"] != "WAITING_UPLOAD")
        return error(400, 0, "BAD_REQUEST", "No such part awaits upload");
    json& part = video["parts"][n];
    const long long expected = part["last"].get<long long>() - part["first"].get<long long>() + 1;
    if (static_cast<long long>(request.body.size()) != expected)
        return error(400, 0, "BAD_REQUEST",
                     "Part " + std::to_string(n) + " must have " + std::to_string(expected) +
                         " bytes, got " + std::to_string(request.body.size()));
    part["etag"] = "/ambry-video/signedId/" + random_text(20);
    HttpAnswer answer;
    answer.status = 200;
    answer.headers = {{"ETag", part["etag"].get<std::string>()}};
    return answer;
}

// PUT of an image or a document, with the token of the member who owns it.
HttpAnswer upload_single(const HttpRequest& request, const std::string& urn) {
    auto who = authorized(request, {kUploadPermission}, "mediaUpload.PUT");
    if (auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
    auto& uploads = state().single_uploads;
    if (!uploads.contains(urn)) return error(404, 0, "NOT_FOUND", "Upload not found");
    json& media = uploads[urn];
    if (!acts_as(media["owner"].get<std::string>(), std::get<Grant>(who)))
        return error(403, 100, "ACCESS_DENIED", "The upload belongs to another member");
    const auto size = static_cast<long long>(request.body.size());
    if (size == 0) return error(400, 0, "BAD_REQUEST", "The upload is empty");
    if (media["kind"] == "document" && size > kMaxDocumentBytes)
        return error(400, 0, "BAD_REQUEST", "Documents are at most 100 MB");
    media["uploaded"] = true;
    media["bytes"] = size;
    media["status"] = media["kind"] == "document" ? "PROCESSING" : "AVAILABLE";
    HttpAnswer answer;
    answer.status = 201;
    return answer;
}

// GET /rest/videos/{urn} or /rest/documents/{urn}: PROCESSING moves on at each read.
HttpAnswer read_status(json& media, const std::string& urn) {
    json out = {{"id", urn}, {"owner", media["owner"]}, {"status", media["status"]}};
    if (media["status"] == "PROCESSING")
        media["status"] = media.value("fails", false) ? "PROCESSING_FAILED" : "AVAILABLE";
    else if (media["status"] == "PROCESSING_FAILED")
        out["processingFailureReason"] = "Video is not in a supported format";
    return json_answer(200, out);
}

}  // namespace

std::optional<std::string> ready_media(const std::string& urn, const std::string& owner) {
    const auto& s = state();
    if (s.videos.contains(urn))
        return s.videos[urn]["owner"] == owner && s.videos[urn]["status"] == "AVAILABLE"
                   ? std::optional<std::string>("video")
                   : std::nullopt;
    if (!s.single_uploads.contains(urn)) return std::nullopt;
    const json& media = s.single_uploads[urn];
    if (media["owner"] != owner || media["status"] != "AVAILABLE") return std::nullopt;
    return media["kind"].get<std::string>();
}

std::optional<HttpAnswer> serve_media(const HttpRequest& request, const std::string& path) {
    if (request.method == "PUT" && path.starts_with(kUploads)) {
        const auto rest = path.substr(kUploads.size());
        const auto slash = rest.find('/');
        const auto kind = rest.substr(0, slash);
        if (kind == "video") {
            const auto second = rest.find('/', slash + 1);
            const auto n = second == std::string::npos ? "" : rest.substr(second + 1);
            if (n.empty() || n.size() > 6 ||
                !std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; }))
                return error(404, 0, "NOT_FOUND", "Upload not found");
            return upload_part(request, url_decode(rest.substr(slash + 1, second - slash - 1)),
                               std::stoul(n));
        }
        return upload_single(request, url_decode(rest.substr(slash + 1)));
    }
    for (const std::string kind : {"image", "document", "video"}) {
        const std::string collection = "/rest/" + kind + "s";
        if (path != collection && !path.starts_with(collection + "/")) continue;
        auto who = authorized(request, {kUploadPermission}, kind + "s.ACTION");
        if (auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
        const Grant& grant = std::get<Grant>(who);
        const std::string action = request.query("action");
        if (request.method == "POST" && path == collection && action == "initializeUpload")
            return kind == "video" ? initialize_video(request, grant)
                                   : initialize_single(request, grant, kind);
        if (request.method == "POST" && path == collection && action == "finalizeUpload" &&
            kind == "video")
            return finalize_video(request, grant);
        if (request.method == "GET" && path.size() > collection.size()) {
            const auto urn = url_decode(path.substr(collection.size() + 1));
            auto& store = kind == "video" ? state().videos : state().single_uploads;
            if (!store.contains(urn) || !acts_as(store[urn]["owner"].get<std::string>(), grant))
                return error(404, 0, "NOT_FOUND", "Not Found");
            return read_status(store[urn], urn);
        }
        return error(400, 0, "BAD_REQUEST", "Unsupported method or action on " + collection);
    }
    return std::nullopt;
}

}  // namespace squawk::fakes::platforms::linkedin
