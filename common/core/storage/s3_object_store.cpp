#include "common/core/storage/s3_object_store.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/http/file_transfer.hpp"
#include "common/core/storage/file_placement.hpp"
#include "common/core/storage/object_key.hpp"
#include "common/core/storage/s3_error_body.hpp"

#include <charconv>
#include <fstream>
#include <stdexcept>

namespace squawk::storage {
namespace {

// S3 codes that mean "slow down or try again", whatever the status they come with.
bool retryable_code(std::string_view code) {
    return code == "SlowDown" || code == "RequestTimeout" || code == "InternalError" ||
           code == "ServiceUnavailable" || code == "RequestTimeTooSkewed";
}

std::string code_for_status(long status) {
    switch (status) {
        case 400:
            return "BadRequest";
        case 403:
            return "AccessDenied";
        case 404:
            return "NoSuchKey";
        case 503:
            return "SlowDown";
        default:
            return "HttpStatus" + std::to_string(status);
    }
}

// The StorageError for an answer that was not a success, with S3's code when the answer names
// one and one derived from the status otherwise.
StorageError error_from(const http::Response& response, const std::string& what) {
    if (response.status == 0) {
        const std::string code = response.timed_out ? "Timeout" : "NetworkError";
        return StorageError(code, what + ": " + response.error, 0, true);
    }
    auto body = parse_s3_error(response.body);
    // Some stores name the code in a header too, which is all a HEAD answer can carry.
    const auto header_code = response.header("x-amz-error-code");
    const std::string code = body ? body->code
                             : header_code && !header_code->empty() && header_code->size() <= 64
                                 ? *header_code
                                 : code_for_status(response.status);
    std::string message = what + " answered " + std::to_string(response.status);
    if (body && !body->message.empty()) message += ": " + body->message;
    return StorageError(code, message, response.status,
                        response.status >= 500 || response.status == 429 || retryable_code(code));
}

bool succeeded(const http::Response& response) {
    return response.status >= 200 && response.status < 300;
}

std::string sha256_of_file(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw StorageError("LocalIoError", "cannot read " + file.string(), 0, false);
    crypto::Sha256Stream hash;
    std::string buffer(1 << 16, '\0');
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        hash.update(std::string_view(buffer.data(), static_cast<size_t>(in.gcount())));
    }
    if (in.bad()) throw StorageError("LocalIoError", "cannot read " + file.string(), 0, false);
    return hash.hex_digest();
}

void check_ttl(std::chrono::seconds ttl) {
    if (ttl.count() < 1 || ttl > sigv4::kMaxPresignTtl)
        throw std::invalid_argument("a presigned URL lives 1 s to 7 days");
}

// Bucket names as S3 allows them (3-63 of a-z 0-9 . -), which are safe both in a path and as a
// host name label.
void validate_bucket(std::string_view bucket) {
    if (bucket.size() < 3 || bucket.size() > 63 ||
        bucket.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789.-") !=
            std::string_view::npos)
        throw std::invalid_argument("S3 bucket name '" + std::string(bucket) +
                                    "' is not 3-63 of a-z, 0-9, '.' and '-'");
}

}  // namespace

Endpoint parse_endpoint(std::string_view endpoint) {
    Endpoint out;
    const auto separator = endpoint.find("://");
    if (separator == std::string_view::npos)
        throw std::invalid_argument("S3 endpoint must start with http:// or https://");
    out.scheme = std::string(endpoint.substr(0, separator));
    if (out.scheme != "http" && out.scheme != "https")
        throw std::invalid_argument("S3 endpoint must start with http:// or https://");
    std::string_view authority = endpoint.substr(separator + 3);
    if (authority.ends_with('/')) authority.remove_suffix(1);
    if (authority.empty() || authority.find_first_of("/?#@ \t\r\n") != std::string_view::npos)
        throw std::invalid_argument(
            "S3 endpoint must be scheme://host[:port] with no path, query or user");
    out.authority = std::string(authority);
    return out;
}

S3ObjectStore::S3ObjectStore(S3Config config)
    : config_(std::move(config)),
      endpoint_(parse_endpoint(config_.endpoint)),
      signer_({config_.access_key, config_.secret_key}, config_.region) {
    validate_bucket(config_.bucket);
    if (config_.access_key.empty() || config_.secret_key.empty())
        throw std::invalid_argument("S3 access key and secret key must be set");
}

sigv4::Request S3ObjectStore::object_request(std::string_view method, std::string_view key) const {
    validate_object_key(key);
    sigv4::Request r;
    r.method = std::string(method);
    if (config_.path_style) {
        r.host = endpoint_.authority;
        r.path = "/" + config_.bucket + sigv4::encode_path(key);
    } else {
        r.host = config_.bucket + "." + endpoint_.authority;
        r.path = sigv4::encode_path(key);
    }
    return r;
}

std::string S3ObjectStore::url_of(const sigv4::Request& request, std::string_view query) const {
    std::string url = endpoint_.scheme + "://" + request.host + request.path;
    if (!query.empty()) url.append("?").append(query);
    return url;
}

http::Response S3ObjectStore::send(const sigv4::Request& request,
                                   const http::FileBodies& files) const {
    http::Request out;
    out.method = request.method;
    out.url = url_of(request, sigv4::canonical_query(request.query));
    out.headers = signer_.sign_headers(request, sigv4::amz_date(std::chrono::system_clock::now()));
    out.timeout = config_.timeout;
    return http::send_with_files(out, files);
}

void S3ObjectStore::put_file(std::string_view key, const std::filesystem::path& local_file,
                             std::string_view content_type) {
    auto request = object_request("PUT", key);
    request.payload_hash = sha256_of_file(local_file);
    if (!content_type.empty()) request.headers.emplace_back("Content-Type", content_type);
    const auto response = send(request, {.upload_from = local_file, .download_to = {}});
    if (!succeeded(response)) throw error_from(response, "PUT " + std::string(key));
    std::error_code ignored;
    std::filesystem::remove(local_file, ignored);
}

void S3ObjectStore::fetch_to_file(std::string_view key, const std::filesystem::path& destination) {
    auto request = object_request("GET", key);
    request.payload_hash = std::string(sigv4::kEmptyPayloadHash);
    const auto temporary = temporary_beside(destination);
    const auto response = send(request, {.upload_from = {}, .download_to = temporary});
    if (!succeeded(response)) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        throw error_from(response, "GET " + std::string(key));
    }
    rename_into_place(temporary, destination);
}

void S3ObjectStore::remove(std::string_view key) {
    auto request = object_request("DELETE", key);
    request.payload_hash = std::string(sigv4::kEmptyPayloadHash);
    const auto response = send(request, {});
    // S3 answers 204 whether or not the key existed; other stores may say 404.
    if (!succeeded(response) && response.status != 404)
        throw error_from(response, "DELETE " + std::string(key));
}

void S3ObjectStore::move(std::string_view from, std::string_view to) {
    validate_object_key(from);
    auto copy = object_request("PUT", to);
    if (from == to) return;
    // S3 has no rename: a server-side CopyObject, then a DELETE of the source. The copy replaces
    // `to` whole, as any PUT does. One CopyObject copies at most 5 GiB; a larger object would need
    // a multipart upload of UploadPartCopy parts. Should the DELETE fail, both keys hold the
    // object and the move can be retried as it stands.
    copy.payload_hash = std::string(sigv4::kEmptyPayloadHash);
    copy.headers.emplace_back("x-amz-copy-source", "/" + config_.bucket + sigv4::encode_path(from));
    const auto copied = send(copy, {});
    const std::string what = "copy " + std::string(from) + " to " + std::string(to);
    // A copy can fail after S3 has sent 200: the body is then an <Error> in place of the result.
    if (!succeeded(copied) || parse_s3_error(copied.body)) throw error_from(copied, what);
    remove(from);
}

std::optional<std::uint64_t> S3ObjectStore::size(std::string_view key) {
    auto request = object_request("HEAD", key);
    request.payload_hash = std::string(sigv4::kEmptyPayloadHash);
    const auto response = send(request, {});
    if (response.status == 404) return std::nullopt;
    if (!succeeded(response)) throw error_from(response, "HEAD " + std::string(key));
    const auto length = response.header("content-length");
    std::uint64_t bytes = 0;
    if (!length ||
        std::from_chars(length->data(), length->data() + length->size(), bytes).ec != std::errc())
        throw StorageError("BadResponse", "HEAD " + std::string(key) + " gave no Content-Length",
                           response.status, false);
    return bytes;
}

std::optional<std::string> S3ObjectStore::presign_put(std::string_view key,
                                                      std::string_view content_type,
                                                      std::chrono::seconds ttl) {
    check_ttl(ttl);
    auto request = object_request("PUT", key);
    if (!content_type.empty()) request.headers.emplace_back("content-type", content_type);
    const auto date = sigv4::amz_date(std::chrono::system_clock::now());
    return url_of(request, signer_.presign_query(request, date, ttl));
}

std::optional<std::string> S3ObjectStore::presign_get(std::string_view key,
                                                      std::chrono::seconds ttl,
                                                      const ResponseOverrides& overrides) {
    check_ttl(ttl);
    auto request = object_request("GET", key);
    if (overrides.content_type)
        request.query.emplace_back("response-content-type", *overrides.content_type);
    if (overrides.content_disposition)
        request.query.emplace_back("response-content-disposition", *overrides.content_disposition);
    const auto date = sigv4::amz_date(std::chrono::system_clock::now());
    return url_of(request, signer_.presign_query(request, date, ttl));
}

std::optional<std::filesystem::path> S3ObjectStore::local_path(std::string_view key) const {
    validate_object_key(key);
    return std::nullopt;
}

}  // namespace squawk::storage
