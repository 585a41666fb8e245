#include "common/core/storage/sigv4.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/http/form_encoding.hpp"
#include "common/core/text/ascii.hpp"

#include <algorithm>
#include <ctime>
#include <map>

namespace squawk::storage::sigv4 {
namespace {

// Header values are signed trimmed, with each run of spaces as one.
std::string canonical_value(std::string_view value) {
    std::string out;
    bool in_space = false;
    for (char c : value) {
        if (c == ' ' || c == '\t') {
            in_space = true;
            continue;
        }
        if (in_space && !out.empty()) out += ' ';
        in_space = false;
        out += c;
    }
    return out;
}

std::string hmac(std::string_view key, std::string_view data) {
    return crypto::from_hex(crypto::hmac_sha256_hex(key, data));
}

}  // namespace

std::string encode_path(std::string_view key) {
    return "/" + http::percent_encode(key, true);
}

std::string canonical_query(const Parameters& query) {
    std::vector<std::pair<std::string, std::string>> encoded;
    encoded.reserve(query.size());
    for (const auto& [name, value] : query)
        encoded.emplace_back(http::percent_encode(name), http::percent_encode(value));
    std::sort(encoded.begin(), encoded.end());
    std::string out;
    for (const auto& [name, value] : encoded) {
        if (!out.empty()) out += '&';
        out.append(name).append("=").append(value);
    }
    return out;
}

std::string amz_date(std::chrono::system_clock::time_point time) {
    const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[17];
    std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &utc);
    return text;
}

CanonicalRequest canonical_request(std::string_view method, std::string_view encoded_path,
                                   const Parameters& query, const Parameters& headers,
                                   std::string_view payload_hash) {
    // Repeated names are signed once, their values joined by commas in the order given.
    std::map<std::string, std::string> by_name;
    for (const auto& [name, value] : headers) {
        auto& joined = by_name[text::ascii_lowercase(name)];
        if (!joined.empty()) joined += ',';
        joined += canonical_value(value);
    }
    CanonicalRequest out;
    std::string header_lines;
    for (const auto& [name, value] : by_name) {
        header_lines.append(name).append(":").append(value).append("\n");
        if (!out.signed_headers.empty()) out.signed_headers += ';';
        out.signed_headers += name;
    }
    out.text.append(method).append("\n");
    out.text.append(encoded_path).append("\n");
    out.text.append(canonical_query(query)).append("\n");
    out.text.append(header_lines).append("\n");
    out.text.append(out.signed_headers).append("\n");
    out.text.append(payload_hash);
    return out;
}

Signer::Signer(Credentials credentials, std::string region, std::string service)
    : credentials_(std::move(credentials)),
      region_(std::move(region)),
      service_(std::move(service)) {}

std::string Signer::scope(std::string_view date_time) const {
    return std::string(date_time.substr(0, 8)) + "/" + region_ + "/" + service_ + "/aws4_request";
}

std::string Signer::string_to_sign(std::string_view date_time,
                                   std::string_view canonical_request_text) const {
    return "AWS4-HMAC-SHA256\n" + std::string(date_time) + "\n" + scope(date_time) + "\n" +
           crypto::sha256_hex(canonical_request_text);
}

std::string Signer::signature(std::string_view date_time, std::string_view text) const {
    const std::string date_key = hmac("AWS4" + credentials_.secret_key, date_time.substr(0, 8));
    const std::string region_key = hmac(date_key, region_);
    const std::string service_key = hmac(region_key, service_);
    const std::string signing_key = hmac(service_key, "aws4_request");
    return crypto::hmac_sha256_hex(signing_key, text);
}

Parameters Signer::sign_headers(const Request& request, std::string_view date_time) const {
    Parameters headers = request.headers;
    headers.emplace_back("Host", request.host);
    headers.emplace_back("x-amz-content-sha256", request.payload_hash);
    headers.emplace_back("x-amz-date", std::string(date_time));
    const auto canonical = canonical_request(request.method, request.path, request.query, headers,
                                             request.payload_hash);
    const std::string signed_value =
        signature(date_time, string_to_sign(date_time, canonical.text));
    headers.emplace_back("Authorization", "AWS4-HMAC-SHA256 Credential=" + credentials_.access_key +
                                              "/" + scope(date_time) +
                                              ",SignedHeaders=" + canonical.signed_headers +
                                              ",Signature=" + signed_value);
    return headers;
}

std::string Signer::presign_query(const Request& request, std::string_view date_time,
                                  std::chrono::seconds expires) const {
    Parameters headers = request.headers;
    headers.emplace_back("host", request.host);
    // The signed header names go into the query, so they are known before the request is built.
    const std::string signed_headers =
        canonical_request(request.method, request.path, {}, headers, kUnsignedPayload)
            .signed_headers;
    Parameters query = request.query;
    query.emplace_back("X-Amz-Algorithm", "AWS4-HMAC-SHA256");
    query.emplace_back("X-Amz-Credential", credentials_.access_key + "/" + scope(date_time));
    query.emplace_back("X-Amz-Date", std::string(date_time));
    query.emplace_back("X-Amz-Expires", std::to_string(expires.count()));
    query.emplace_back("X-Amz-SignedHeaders", signed_headers);
    const auto canonical =
        canonical_request(request.method, request.path, query, headers, kUnsignedPayload);
    return canonical_query(query) +
           "&X-Amz-Signature=" + signature(date_time, string_to_sign(date_time, canonical.text));
}

}  // namespace squawk::storage::sigv4
