// The fake Pinterest's video uploads: POST /v5/media registers one and hands out an upload
// address on the fake's upload host with signed parameters (as Amazon S3's POST policy), the
// upload host takes the multipart POST with every parameter and the file last (keeping its size
// and SHA-256 for the tests: control action media {media_id}), and
// GET /v5/media/{id} reads it moving registered -> processing -> succeeded (or failed).
#include "tests/fakes/platforms/pinterest/pinterest_fake.hpp"

#include <openssl/sha.h>

#include <utility>

namespace squawk::fakes::platforms::pinterest {
namespace {

using nlohmann::json;

constexpr long long kMaxVideoBytes = 2LL * 1024 * 1024 * 1024;

// Amazon S3's error document.
HttpAnswer s3_error(int status, const std::string& code, const std::string& message) {
    HttpAnswer answer;
    answer.status = status;
    answer.content_type = "application/xml";
    answer.body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + code +
                  "</Code><Message>" + message + "</Message></Error>";
    return answer;
}

// S3 ignores every part after the file, so the file must come last.
bool file_is_last(const std::string& body) {
    const auto last = body.rfind("Content-Disposition: form-data; name=\"");
    return last != std::string::npos && body.compare(last + 38, 5, "file\"") == 0;
}

// The SHA-256 (hex) of the file part's bytes, which run from the end of its part head to the
// form's closing boundary (the file is the last part); empty when the body has no such part.
std::string file_sha256(const HttpRequest& request) {
    const auto type = request.headers.find("content-type");
    const auto at =
        type == request.headers.end() ? std::string::npos : type->second.find("boundary=");
    if (at == std::string::npos) return "";
    const std::string closing = "\r\n--" + type->second.substr(at + 9) + "--";
    const auto& body = request.body;
    const auto part = body.rfind("Content-Disposition: form-data; name=\"file\"");
    const auto start = part == std::string::npos ? part : body.find("\r\n\r\n", part);
    const auto end = body.rfind(closing);
    if (start == std::string::npos || end == std::string::npos || end < start + 4) return "";
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(body.data() + start + 4), end - start - 4,
           digest);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    for (const unsigned char byte : digest) {
        hex += kHex[byte >> 4];
        hex += kHex[byte & 0x0f];
    }
    return hex;
}

json media_object(const std::string& id, const json& media) {
    return {{"media_id", id}, {"media_type", "video"}, {"status", media["status"]}};
}

}  // namespace

HttpAnswer register_media(const HttpRequest& request, const Grant& grant) {
    const json body = json::parse(request.body, nullptr, false);
    if (!body.is_object() || body.value("media_type", json()) != "video")
        return error(400, 1, "media_type must be video.");
    const auto host = request.headers.find("host");
    if (host == request.headers.end()) return error(400, 1, "No Host header.");
    const std::string id = next_id();
    const json parameters = {{"x-amz-date", "20261126T101500Z"},
                             {"x-amz-signature", random_text(64)},
                             {"x-amz-security-token", random_text(40)},
                             {"x-amz-algorithm", "AWS4-HMAC-SHA256"},
                             {"key", "uploads/" + grant.user_id + ":video:" + id},
                             {"policy", random_text(60)},
                             {"x-amz-credential", "ASIAFAKE/20261126/us-east-1/s3/aws4_request"},
                             {"Content-Type", "multipart/form-data"}};
    state().media[id] = {{"user_id", grant.user_id},
                         {"status", "registered"},
                         {"upload_parameters", parameters},
                         {"bytes", 0}};
    return json_answer(201, {{"media_id", id},
                             {"media_type", "video"},
                             {"upload_url", "http://" + host->second + "/pinterest/upload/"},
                             {"upload_parameters", parameters}});
}

HttpAnswer upload(const HttpRequest& request) {
    auto& s = state();
    const auto form = parse_form(request);
    if (!form) return s3_error(400, "MalformedPOSTRequest", "The body is not multipart/form-data.");
    const auto key = form->fields.find("key");
    json* media = nullptr;
    for (auto& [id, item] : s.media.items())
        if (key != form->fields.end() && item["upload_parameters"]["key"] == key->second)
            media = &item;
    if (!media || (*media)["status"] != "registered")
        return s3_error(403, "AccessDenied", "Invalid according to Policy");
    for (const auto& [name, value] : (*media)["upload_parameters"].items()) {
        const auto sent = form->fields.find(name);
        if (sent == form->fields.end() || sent->second != value.get<std::string>())
            return s3_error(403, "AccessDenied",
                            "Invalid according to Policy: Policy Condition failed: " + name);
    }
    if (!form->files.contains("file") || !file_is_last(request.body))
        return s3_error(400, "InvalidArgument",
                        "POST requires exactly one file upload per request.");
    const json& file = form->files["file"];
    const long long bytes = file.value("bytes", 0LL);
    if (bytes == 0 || bytes > kMaxVideoBytes)
        return s3_error(400, "EntityTooLarge",
                        "Your proposed upload exceeds the maximum allowed size");
    if (!file.value("content_type", "").starts_with("video/"))
        return s3_error(403, "AccessDenied", "Invalid according to Policy: Content-Type");
    (*media)["status"] = "processing";
    (*media)["bytes"] = bytes;
    (*media)["sha256"] = file_sha256(request);
    (*media)["polls_left"] = 1;
    (*media)["fails"] = std::exchange(s.fail_next_processing, false);
    HttpAnswer answer;
    answer.status = 204;
    return answer;
}

HttpAnswer media_status(const std::string& id, const Grant& grant) {
    auto& media = state().media;
    if (!media.contains(id) || media[id]["user_id"] != grant.user_id)
        return error(404, 4, "Media upload not found.");
    json& m = media[id];
    if (m["status"] == "processing") {
        if (m["polls_left"].get<int>() > 0)
            m["polls_left"] = m["polls_left"].get<int>() - 1;
        else
            m["status"] = m["fails"] == true ? "failed" : "succeeded";
    }
    return json_answer(200, media_object(id, m));
}

bool media_ready(const std::string& id, const Grant& grant) {
    const auto& media = state().media;
    return media.contains(id) && media[id]["user_id"] == grant.user_id &&
           media[id]["status"] == "succeeded";
}

}  // namespace squawk::fakes::platforms::pinterest
