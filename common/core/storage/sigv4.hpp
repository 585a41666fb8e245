// AWS Signature Version 4 as S3 checks it: the canonical request, the string to sign, the signing
// key derived from the secret, and the two ways to carry the result (an Authorization header, or
// the query string of a presigned URL).
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace squawk::storage::sigv4 {

// Name and value pairs, neither encoded: the signer encodes them.
using Parameters = std::vector<std::pair<std::string, std::string>>;

struct Credentials {
    std::string access_key;
    std::string secret_key;
};

struct Request {
    std::string method = "GET";
    std::string host;  // as sent in the Host header: "bucket.s3.amazonaws.com", "127.0.0.1:9000"
    std::string path = "/";  // already encoded (encode_path)
    Parameters query;
    // Headers to sign besides host, x-amz-date and x-amz-content-sha256, which the signer adds.
    Parameters headers;
    // Lower-case hex SHA-256 of the body, or "UNSIGNED-PAYLOAD".
    std::string payload_hash;
};

inline constexpr std::string_view kEmptyPayloadHash =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
inline constexpr std::string_view kUnsignedPayload = "UNSIGNED-PAYLOAD";
// S3 refuses presigned URLs valid for longer than a week.
inline constexpr std::chrono::seconds kMaxPresignTtl{604800};

// "/" + each segment of `key` encoded: the path of an object.
std::string encode_path(std::string_view key);
// The query as signed and sent: each name and value encoded, sorted by name then value, "&"-joined.
std::string canonical_query(const Parameters& query);
// "YYYYMMDDTHHMMSSZ" in UTC, the form of x-amz-date.
std::string amz_date(std::chrono::system_clock::time_point time);

struct CanonicalRequest {
    std::string text;
    std::string signed_headers;  // "host;range;x-amz-date": lower-case names, sorted
};
// `headers` are all the headers to sign (host included); names in any case.
CanonicalRequest canonical_request(std::string_view method, std::string_view encoded_path,
                                   const Parameters& query, const Parameters& headers,
                                   std::string_view payload_hash);

class Signer {
  public:
    Signer(Credentials credentials, std::string region, std::string service = "s3");

    // "20130524/us-east-1/s3/aws4_request" for `date_time` (an amz_date).
    std::string scope(std::string_view date_time) const;
    std::string string_to_sign(std::string_view date_time,
                               std::string_view canonical_request_text) const;
    // Lower-case hex HMAC of `text` with the key derived for the date of `date_time`.
    std::string signature(std::string_view date_time, std::string_view text) const;

    // The headers to send for `request` at `date_time`: its own, then host, x-amz-content-sha256,
    // x-amz-date and Authorization.
    Parameters sign_headers(const Request& request, std::string_view date_time) const;
    // The query string of the presigned URL for `request` (its own parameters and the X-Amz-*
    // ones, X-Amz-Signature last), valid for `expires` from `date_time`. The payload is
    // UNSIGNED-PAYLOAD; request.headers must then be sent as signed.
    std::string presign_query(const Request& request, std::string_view date_time,
                              std::chrono::seconds expires) const;

  private:
    Credentials credentials_;
    std::string region_;
    std::string service_;
};

}  // namespace squawk::storage::sigv4
