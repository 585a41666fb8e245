// The S3 request signer against the worked examples of AWS's documentation ("Examples: Signature
// Calculations in AWS Signature Version 4" and "Authenticating Requests: Using Query Parameters"):
// same credentials, same instant, same signatures. Also S3's URI-encoding rules.
#include "common/core/storage/sigv4.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/core/http/form_encoding.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace squawk::storage;
using namespace squawk::storage::sigv4;

namespace {

const Signer kExampleSigner({"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
                            "us-east-1");
constexpr std::string_view kExampleTime = "20130524T000000Z";
constexpr std::string_view kExampleHost = "examplebucket.s3.amazonaws.com";

std::string header(const Parameters& headers, std::string_view name) {
    const auto found = std::find_if(headers.begin(), headers.end(),
                                    [&](const auto& h) { return h.first == name; });
    REQUIRE(found != headers.end());
    return found->second;
}

Request example_get(Parameters query) {
    Request r;
    r.method = "GET";
    r.host = std::string(kExampleHost);
    r.path = "/";
    r.query = std::move(query);
    r.payload_hash = std::string(kEmptyPayloadHash);
    return r;
}

}  // namespace

TEST_CASE("GET object with a Range header signs as AWS's example") {
    Request r = example_get({});
    r.path = encode_path("test.txt");
    r.headers = {{"Range", "bytes=0-9"}};
    const auto canonical = canonical_request(r.method, r.path, r.query,
                                             {{"Host", r.host},
                                              {"Range", "bytes=0-9"},
                                              {"x-amz-content-sha256", r.payload_hash},
                                              {"x-amz-date", std::string(kExampleTime)}},
                                             r.payload_hash);
    CHECK(canonical.text ==
          "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n"
          "x-amz-content-sha256:"
          "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
          "x-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n"
          "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(kExampleSigner.string_to_sign(kExampleTime, canonical.text) ==
          "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
          "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
    CHECK(header(kExampleSigner.sign_headers(r, kExampleTime), "Authorization") ==
          "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
          "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
          "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST_CASE("PUT object with a reserved character in the key signs as AWS's example") {
    Request r;
    r.method = "PUT";
    r.host = std::string(kExampleHost);
    r.path = encode_path("test$file.text");
    r.headers = {{"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                 {"x-amz-storage-class", "REDUCED_REDUNDANCY"}};
    r.payload_hash = squawk::crypto::sha256_hex("Welcome to Amazon S3.");
    CHECK(r.path == "/test%24file.text");
    CHECK(r.payload_hash == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
    const auto headers = kExampleSigner.sign_headers(r, kExampleTime);
    CHECK(header(headers, "x-amz-content-sha256") == r.payload_hash);
    CHECK(header(headers, "x-amz-date") == "20130524T000000Z");
    CHECK(header(headers, "Authorization") ==
          "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
          "SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,"
          "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
}

TEST_CASE("GET bucket lifecycle, a parameter without a value, signs as AWS's example") {
    CHECK(canonical_query({{"lifecycle", ""}}) == "lifecycle=");
    const auto headers =
        kExampleSigner.sign_headers(example_get({{"lifecycle", ""}}), kExampleTime);
    CHECK(header(headers, "Authorization") ==
          "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
          "SignedHeaders=host;x-amz-content-sha256;x-amz-date,"
          "Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
}

TEST_CASE("list objects signs as AWS's example whatever the order of its parameters") {
    const auto headers = kExampleSigner.sign_headers(
        example_get({{"prefix", "J"}, {"max-keys", "2"}}), kExampleTime);
    CHECK(header(headers, "Authorization") ==
          "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
          "SignedHeaders=host;x-amz-content-sha256;x-amz-date,"
          "Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
}

TEST_CASE("a presigned GET URL carries the query and signature of AWS's example") {
    Request r = example_get({});
    r.path = encode_path("test.txt");
    CHECK(kExampleSigner.presign_query(r, kExampleTime, std::chrono::seconds(86400)) ==
          "X-Amz-Algorithm=AWS4-HMAC-SHA256"
          "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
          "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
          "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404");
}

TEST_CASE("a presigned PUT binds its content type and a presigned GET its response overrides") {
    Request put = example_get({});
    put.method = "PUT";
    put.path = encode_path("a.png");
    put.headers = {{"content-type", "image/png"}};
    const auto put_query = kExampleSigner.presign_query(put, kExampleTime, std::chrono::hours(1));
    CHECK(put_query.find("X-Amz-SignedHeaders=content-type%3Bhost") != std::string::npos);
    Request other_type = put;
    other_type.headers = {{"content-type", "image/jpeg"}};
    CHECK(kExampleSigner.presign_query(other_type, kExampleTime, std::chrono::hours(1)) !=
          put_query);

    Request get = example_get({{"response-content-disposition", "attachment; filename=\"a b\""}});
    get.path = encode_path("a.png");
    const auto get_query = kExampleSigner.presign_query(get, kExampleTime, std::chrono::hours(1));
    CHECK(get_query.starts_with(
        "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE"));
    CHECK(get_query.find("&response-content-disposition=attachment%3B%20filename%3D%22a%20b%22") !=
          std::string::npos);
}

TEST_CASE("S3 URI encoding keeps only unreserved characters, and '/' in paths") {
    CHECK(squawk::http::percent_encode("AZaz09-._~") == "AZaz09-._~");
    CHECK(squawk::http::percent_encode("a b+c=d&e/f") == "a%20b%2Bc%3Dd%26e%2Ff");
    CHECK(squawk::http::percent_encode("a b/c", true) == "a%20b/c");
    CHECK(encode_path("ws_1/caf\xc3\xa9 menu.png") == "/ws_1/caf%C3%A9%20menu.png");
    CHECK(encode_path("!'()*") == "/%21%27%28%29%2A");
}

TEST_CASE("header values are signed trimmed with runs of spaces folded, names sorted") {
    const auto canonical = canonical_request(
        "GET", "/", {}, {{"X-Amz-Meta-B", "  two   words  "}, {"Host", "h"}, {"x-amz-meta-a", "1"}},
        kEmptyPayloadHash);
    CHECK(canonical.signed_headers == "host;x-amz-meta-a;x-amz-meta-b");
    CHECK(canonical.text.find("x-amz-meta-b:two words\n") != std::string::npos);
}

TEST_CASE("amz dates are UTC in the basic ISO 8601 form") {
    CHECK(amz_date(std::chrono::system_clock::time_point(std::chrono::seconds(1369353600))) ==
          "20130524T000000Z");
}
