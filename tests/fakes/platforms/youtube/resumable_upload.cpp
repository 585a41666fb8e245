// The resumable upload protocol on the fake: POST /upload/youtube/v3/videos?uploadType=resumable
// with the video resource and X-Upload-Content-Length/-Type answers 200 with the session's URL in
// Location; PUTs to it bring chunks (Content-Range bytes a-b/total, a multiple of 256 KiB except
// the last, starting where the received bytes end) answered 308 with the Range held, until the
// last answers 200 with the video; an empty PUT with Content-Range bytes */total asks where the
// upload stands. The metadata is checked as videos.insert checks it.
#include "tests/fakes/platforms/youtube/youtube_fake.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <utility>

namespace squawk::fakes::platforms::youtube {
namespace {

using nlohmann::json;

constexpr long long kChunkUnit = 256 * 1024;
constexpr long long kMaxVideoBytes = 256LL * 1024 * 1024 * 1024;
constexpr size_t kMaxTitleChars = 100;
constexpr size_t kMaxDescriptionBytes = 5000;
constexpr size_t kMaxTagsChars = 500;
const std::set<std::string> kCategories = {"1",  "2",  "10", "15", "17", "19", "20",
                                           "22", "23", "24", "25", "26", "27", "28"};
const std::set<std::string> kPrivacies = {"public", "unlisted", "private"};

size_t utf8_chars(const std::string& text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

std::string header(const HttpRequest& request, const std::string& name) {
    const auto found = request.headers.find(name);
    return found == request.headers.end() ? "" : found->second;
}

HttpAnswer bad_request(const std::string& reason, const std::string& message) {
    return google_error(400, reason, message, "youtube.video");
}

// What videos.insert refuses in the metadata; nothing when it takes it.
std::optional<HttpAnswer> metadata_problem(const json& resource, const std::string& parts) {
    if (!resource.is_object() || !resource.contains("snippet") || !resource["snippet"].is_object())
        return bad_request("invalidVideoMetadata", "The request metadata is invalid.");
    for (const auto& [part, value] : resource.items())
        if (part != "id" && ("," + parts + ",").find("," + part + ",") == std::string::npos)
            return google_error(400, "unexpectedPart",
                                "The request body has a part the part parameter does not name.",
                                "youtube.part");
    const json& snippet = resource["snippet"];
    const std::string title = snippet.value("title", "");
    if (title.empty())
        return bad_request("invalidTitle",
                           "The request metadata specifies an invalid video title.");
    if (utf8_chars(title) > kMaxTitleChars || title.find_first_of("<>") != std::string::npos)
        return bad_request("invalidTitle",
                           "The request metadata specifies an invalid video title.");
    const std::string description = snippet.value("description", "");
    if (description.size() > kMaxDescriptionBytes ||
        description.find_first_of("<>") != std::string::npos)
        return bad_request("invalidDescription",
                           "The request metadata specifies an invalid video description.");
    if (snippet.contains("tags")) {
        size_t length = 0;
        for (const auto& tag : snippet["tags"]) {
            if (!tag.is_string()) return bad_request("invalidTags", "Invalid video keywords.");
            const auto text = tag.get<std::string>();
            length += utf8_chars(text) + 1 + (text.find(' ') != std::string::npos ? 2 : 0);
        }
        if (length > kMaxTagsChars + 1)
            return bad_request("invalidTags",
                               "The request metadata specifies invalid video keywords.");
    }
    if (snippet.contains("categoryId") && !kCategories.contains(snippet.value("categoryId", "")))
        return bad_request("invalidCategoryId",
                           "The snippet.categoryId property specifies an invalid category ID.");
    const json status = resource.value("status", json::object());
    if (status.contains("privacyStatus") && !kPrivacies.contains(status.value("privacyStatus", "")))
        return bad_request("invalidVideoMetadata", "The privacyStatus is invalid.");
    if (status.contains("selfDeclaredMadeForKids") &&
        !status["selfDeclaredMadeForKids"].is_boolean())
        return bad_request("invalidVideoMetadata", "selfDeclaredMadeForKids must be a boolean.");
    return std::nullopt;
}

// Where the upload stands: 308 with the bytes held (no Range before any), or the video.
HttpAnswer standing(const UploadSession& session) {
    if (!session.video_id.empty())
        return json_answer(200, video_resource(state().videos[session.video_id], "snippet,status"));
    HttpAnswer answer;
    answer.status = 308;
    answer.content_type = "text/plain";
    if (session.received > 0)
        answer.headers = {{"Range", "bytes=0-" + std::to_string(session.received - 1)}};
    return answer;
}

struct ContentRange {
    long long first = -1;  // -1: a status query (bytes */total)
    long long last = -1;
    long long total = 0;
};

std::optional<ContentRange> content_range(const std::string& text) {
    if (!text.starts_with("bytes ")) return std::nullopt;
    const auto slash = text.find('/');
    if (slash == std::string::npos) return std::nullopt;
    ContentRange range;
    range.total = std::atoll(text.c_str() + slash + 1);
    const std::string span = text.substr(6, slash - 6);
    if (span == "*") return range;
    const auto dash = span.find('-');
    if (dash == std::string::npos) return std::nullopt;
    range.first = std::atoll(span.substr(0, dash).c_str());
    range.last = std::atoll(span.substr(dash + 1).c_str());
    if (range.first < 0 || range.last < range.first) return std::nullopt;
    return range;
}

}  // namespace

HttpAnswer start_upload(const HttpRequest& request) {
    auto who = authorized(request, {kUploadScope, kManageScope, kForceSslScope, kPartnerScope});
    if (auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
    const Grant grant = std::get<Grant>(who);
    if (!state().channels.contains(grant.user_id))
        return google_error(401, "youtubeSignupRequired",
                            "This Google account has no YouTube channel.", "youtube.header");
    const auto params = request.parameters();
    const auto part = params.find("part");
    if (params.count("uploadType") == 0 || params.at("uploadType") != "resumable")
        return google_error(400, "invalidParameter", "uploadType must be resumable here.",
                            "global");
    if (part == params.end() || part->second.empty())
        return google_error(400, "required", "Required parameter: part", "global");
    const long long total = std::atoll(header(request, "x-upload-content-length").c_str());
    const std::string type = header(request, "x-upload-content-type");
    if (total <= 0 || total > kMaxVideoBytes)
        return bad_request("invalidVideoMetadata", "X-Upload-Content-Length is invalid.");
    if (!type.starts_with("video/") && type != "application/octet-stream")
        return google_error(400, "mediaBodyRequired", "The request does not include the video.",
                            "youtube.video");
    const json resource = json::parse(request.body, nullptr, false);
    if (const auto problem = metadata_problem(resource, part->second)) return *problem;
    const std::string id = random_text(32);
    state().uploads[id] = UploadSession{grant.user_id, resource, total, 0, {}, ""};
    HttpAnswer answer = json_answer(200, json::object());
    answer.body.clear();
    answer.headers = {{"Location", "http://" + header(request, "host") +
                                       "/youtube/upload/youtube/v3/videos?uploadType=resumable"
                                       "&upload_id=" +
                                       id}};
    return answer;
}

HttpAnswer upload_chunk(const HttpRequest& request) {
    // The record of calls keeps a chunk's size, not its bytes, as it keeps a form's files: the
    // session counts what arrived, so a video of hundreds of MB never stays in the fake.
    if (!request.body.empty() && !record().calls.empty()) {
        auto& call = record().calls.back();
        call["body"] = "";
        call["body_bytes"] = request.body.size();
    }
    auto& s = state();
    const auto session = s.uploads.find(url_decode(request.query("upload_id")));
    if (session == s.uploads.end()) return google_error(404, "notFound", "Not Found", "global");
    // The session URL identifies the upload; a token, when sent, must still be valid.
    if (request.headers.contains("authorization")) {
        auto who = authorized(request, {kUploadScope, kManageScope, kForceSslScope, kPartnerScope});
        if (auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
    }
    auto& upload = session->second;
    const auto range = content_range(header(request, "content-range"));
    if (!range || range->total != upload.total)
        return google_error(400, "badContent", "Failed to parse Content-Range header.", "global");
    if (range->first < 0) {
        if (!request.body.empty())
            return google_error(400, "badContent", "A status query carries no bytes.", "global");
        return standing(upload);
    }
    if (!upload.video_id.empty()) return standing(upload);
    const long long length = range->last - range->first + 1;
    const bool last_chunk = range->last + 1 == upload.total;
    if (static_cast<long long>(request.body.size()) != length || range->last >= upload.total)
        return google_error(400, "badContent", "The chunk's size differs from its Content-Range.",
                            "global");
    if (range->first != upload.received)
        return google_error(400, "badContent",
                            "The chunk does not start where the received bytes end (" +
                                std::to_string(upload.received) + ").",
                            "global");
    if (!last_chunk && length % kChunkUnit != 0)
        return google_error(400, "badContent",
                            "Chunks other than the last must be multiples of 256 KiB.", "global");
    long long kept = length;
    if (s.partial_chunk && s.partial_chunk->first == range->first)
        kept = std::min(length, std::exchange(s.partial_chunk, std::nullopt)->bytes);
    if (kept > 0) {
        upload.received += kept;
        upload.pieces.push_back(header(request, "content-range"));
    }
    if (upload.received == upload.total) {
        upload.video_id = store_video(upload);
        publish_log("youtube", upload.resource["snippet"].value("description", ""));
    }
    return standing(upload);
}

}  // namespace squawk::fakes::platforms::youtube
