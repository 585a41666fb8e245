// The media library and the generation jobs on an S3-compatible bucket (storage.backend = "s3",
// against the signature-checking fake of tests/fakes/s3): uploads land in the bucket, upload URLs
// are presigned PUTs straight to it, downloads redirect to presigned GETs, deletes remove the
// objects, workers read their inputs from it and write their files to it, and nothing stays in
// the media directory. A bucket that cannot be reached leaves nothing half-written.
#include "common/core/config/config.hpp"
#include "common/core/storage/s3_object_store.hpp"
#include "common/domain/media/media_service.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/fake_s3.hpp"
#include "tests/support/free_port.hpp"
#include "tests/support/media_checks.hpp"
#include "tests/support/process.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

using namespace squawk::testing;
namespace stdfs = std::filesystem;

namespace {

constexpr const char* kS3Boundary = "squawk-s3-boundary-41c9";

std::string storage_section(const std::string& endpoint, const std::string& bucket) {
    return "[storage]\nbackend = \"s3\"\ns3_endpoint = \"" + endpoint + "\"\ns3_bucket = \"" +
           bucket + "\"\ns3_access_key = \"" + FakeS3::kAccessKey + "\"\ns3_secret_key = \"" +
           FakeS3::kSecretKey + "\"\ns3_timeout_seconds = 5\n";
}

StackOptions on_bucket(const FakeS3& s3, StackOptions options) {
    options.extra_config = storage_section(s3.endpoint(), s3.bucket());
    return options;
}

// The test's own view of the bucket, through the store the daemons use (itself checked against
// the fake's signature checks in tests/integration/s3_object_store_test.cpp).
squawk::storage::S3ObjectStore bucket_of(const FakeS3& s3) {
    squawk::storage::S3Config config;
    config.endpoint = s3.endpoint();
    config.bucket = s3.bucket();
    config.access_key = FakeS3::kAccessKey;
    config.secret_key = FakeS3::kSecretKey;
    return squawk::storage::S3ObjectStore(config);
}

// A stack whose media live in a fresh bucket of the fake S3 server, and the test's view of it.
struct OnBucket {
    explicit OnBucket(StackOptions options = api_only())
        : stack(on_bucket(s3, std::move(options))), bucket(bucket_of(s3)) {}

    FakeS3 s3;
    Stack stack;
    squawk::storage::S3ObjectStore bucket;
};

HttpResponse upload_direct(Stack& stack, const std::string& key, const std::string& bytes) {
    const std::string b = kS3Boundary;
    const std::string form = "--" + b +
                             "\r\nContent-Disposition: form-data; name=\"file\"; "
                             "filename=\"red.png\"\r\nContent-Type: image/png\r\n\r\n" +
                             bytes + "\r\n--" + b + "--\r\n";
    return stack.request_raw("POST", "/v1/media/upload-direct", form, key,
                             {{"Content-Type", "multipart/form-data; boundary=" + b}});
}

// Sends a request to an absolute URL of the fake S3 server (a presigned one).
HttpResponse at_bucket(const FakeS3& s3, const std::string& method, const std::string& url,
                       const std::optional<std::string>& body = std::nullopt,
                       const Headers& headers = {}) {
    REQUIRE(url.rfind(s3.endpoint() + "/", 0) == 0);
    HttpClient client(s3.endpoint());
    return client.send(method, url.substr(s3.endpoint().size()), body, headers);
}

// GET /v1/media/{id}/download answers 302 to a presigned GET; the bytes found there.
HttpResponse download_through_bucket(Stack& stack, const FakeS3& s3, const std::string& key,
                                     const std::string& media_id, const Headers& headers = {}) {
    const auto redirect = stack.request("GET", "/v1/media/" + media_id + "/download", nullptr, key);
    INFO(redirect.body);
    REQUIRE(redirect.status == 302);
    return at_bucket(s3, "GET", redirect.header("location"), std::nullopt, headers);
}

// Asks for an upload URL for `filename` (a PNG) and PUTs `bytes` to it; the pending media's id.
std::string presigned_upload(Stack& stack, const FakeS3& s3, const std::string& key,
                             const std::string& filename, const std::string& bytes) {
    const auto issued = stack.request("POST", "/v1/media/upload-url",
                                      {{"filename", filename}, {"content_type", "image/png"}}, key);
    check_success_envelope(issued, 201);
    const auto put = at_bucket(s3, "PUT", issued.json["data"]["upload_url"], bytes,
                               {{"Content-Type", "image/png"}});
    REQUIRE(put.status == 200);
    return issued.json["data"]["media_id"];
}

std::string storage_key(Stack& stack, const std::string& media_id) {
    const auto row = stack.db().run([&](squawk::db::Session& s) {
        return s.query_one("SELECT storage_path FROM media WHERE public_id = ?", {media_id});
    });
    REQUIRE(row);
    return row->text(0);
}

// Regular files under the media directory (the API's and workers' scratch space with S3).
size_t files_in_media_dir(Stack& stack) {
    size_t n = 0;
    if (!stdfs::exists(stack.media_dir())) return 0;
    for (const auto& entry : stdfs::recursive_directory_iterator(stack.media_dir()))
        if (entry.is_regular_file()) ++n;
    return n;
}

}  // namespace

TEST_CASE("with an S3 bucket, direct uploads are stored there and downloads redirect to it",
          "[e2e][media][s3]") {
    OnBucket run;
    auto& [s3, stack, bucket] = run;
    const auto& key = stack.tenant().test_key;
    const std::string png = png_64x48(stack);

    const auto uploaded = upload_direct(stack, key, png);
    INFO(uploaded.body);
    check_success_envelope(uploaded, 201);
    const std::string id = uploaded.json["data"]["media_id"];
    CHECK(uploaded.json["data"]["width"] == 64);
    const std::string object = storage_key(stack, id);
    CHECK(bucket.size(object) == png.size());
    CHECK(files_in_media_dir(stack) == 0);

    const auto whole = download_through_bucket(stack, s3, key, id);
    CHECK(whole.status == 200);
    CHECK(whole.body == png);
    CHECK(whole.header("content-type") == "image/png");
    const auto part = download_through_bucket(stack, s3, key, id, {{"Range", "bytes=0-7"}});
    CHECK(part.status == 206);
    CHECK(part.body == png.substr(0, 8));

    const auto other = stack.create_tenant("other");
    check_not_found(stack.request("GET", "/v1/media/" + id + "/download", nullptr, other.test_key));

    const auto deleted = stack.request("DELETE", "/v1/media/" + id, nullptr, key);
    check_success_envelope(deleted, 200);
    CHECK_FALSE(bucket.exists(object));
    check_not_found(stack.request("GET", "/v1/media/" + id + "/download", nullptr, key));
}

TEST_CASE(
    "with an S3 bucket, an upload URL is a presigned PUT to it and confirm moves the bytes "
    "into place",
    "[e2e][media][s3]") {
    OnBucket run;
    auto& [s3, stack, bucket] = run;
    const auto& key = stack.tenant().test_key;
    const std::string png = png_64x48(stack);

    const auto issued =
        stack.request("POST", "/v1/media/upload-url",
                      {{"filename", "red.png"}, {"content_type", "image/png"}}, key);
    INFO(issued.body);
    check_success_envelope(issued, 201);
    const auto& data = issued.json["data"];
    const std::string id = data["media_id"];
    const std::string url = data["upload_url"];
    CHECK(url.rfind(s3.endpoint() + "/" + s3.bucket() + "/uploads/", 0) == 0);
    CHECK(data["method"] == "PUT");
    CHECK(data["headers"]["Content-Type"] == "image/png");

    check_error_envelope(stack.request("POST", "/v1/media/" + id + "/confirm", nullptr, key), 422,
                         "NOT_UPLOADED");
    // The type is part of the signature: the bucket refuses any other.
    CHECK(at_bucket(s3, "PUT", url, png, {{"Content-Type", "image/jpeg"}}).status == 403);
    const auto put = at_bucket(s3, "PUT", url, png, {{"Content-Type", "image/png"}});
    INFO(put.body);
    CHECK(put.status == 200);
    const std::string pending = storage_key(stack, id);

    const auto confirmed = stack.request("POST", "/v1/media/" + id + "/confirm", nullptr, key);
    INFO(confirmed.body);
    check_success_envelope(confirmed, 200);
    CHECK(confirmed.json["data"]["status"] == "ready");
    CHECK(confirmed.json["data"]["size_bytes"] == png.size());
    CHECK(confirmed.json["data"]["height"] == 48);
    const std::string ready = storage_key(stack, id);
    CHECK(ready != pending);
    CHECK_FALSE(bucket.exists(pending));
    CHECK(download_through_bucket(stack, s3, key, id).body == png);
    const auto again = stack.request("POST", "/v1/media/" + id + "/confirm", nullptr, key);
    CHECK(again.json["data"] == confirmed.json["data"]);
    CHECK(files_in_media_dir(stack) == 0);
}

TEST_CASE("with an S3 bucket, bytes that are not media are refused at confirm and removed",
          "[e2e][media][s3]") {
    OnBucket run;
    auto& [s3, stack, bucket] = run;
    const auto& key = stack.tenant().test_key;

    const std::string id = presigned_upload(stack, s3, key, "a.png", "plain text, not a picture");
    const std::string pending = storage_key(stack, id);
    REQUIRE(bucket.exists(pending));

    const auto refused = stack.request("POST", "/v1/media/" + id + "/confirm", nullptr, key);
    check_error_envelope(refused, 422, "VALIDATION_ERROR");
    CHECK(refused.json["error"]["details"]["fields"].contains("file"));
    CHECK_FALSE(bucket.exists(pending));
    CHECK(stack.count("SELECT COUNT(*) FROM media") == 0);
    CHECK(files_in_media_dir(stack) == 0);
}

TEST_CASE("with an S3 bucket, an expired upload URL's pending media is swept with its object",
          "[e2e][media][s3]") {
    OnBucket run;
    auto& [s3, stack, bucket] = run;
    const auto& key = stack.tenant().test_key;
    const std::string id = presigned_upload(stack, s3, key, "late.png", png_64x48(stack));
    const std::string pending = storage_key(stack, id);
    stack.db().run([&](squawk::db::Session& s) {
        return s.execute(
            "UPDATE media SET upload_expires_at = NOW(6) - INTERVAL 1 MINUTE WHERE public_id = ?",
            {id});
    });

    squawk::config::Config config;
    config.media.dir = stack.media_dir();
    config.storage.backend = "s3";
    squawk::media::MediaService service(stack.db(), config, bucket);
    CHECK(service.sweep_expired_uploads(100) == 1);
    CHECK_FALSE(bucket.exists(pending));
    check_not_found(stack.request("GET", "/v1/media/" + id, nullptr, key));
}

TEST_CASE("when the bucket cannot be reached an upload answers 503 and keeps no record or file",
          "[e2e][media][s3]") {
    Stack stack([] {
        StackOptions options = api_only();
        options.extra_config =
            storage_section("http://127.0.0.1:" + std::to_string(free_port()), "unreachable");
        return options;
    }());
    const auto& key = stack.tenant().test_key;

    const auto refused = upload_direct(stack, key, png_64x48(stack));
    check_error_envelope(refused, 503, "SERVICE_UNAVAILABLE");
    CHECK(stack.count("SELECT COUNT(*) FROM media") == 0);
    CHECK(files_in_media_dir(stack) == 0);
}

TEST_CASE(
    "with an S3 bucket, generation jobs read their inputs from it and write their files to it",
    "[e2e][generation][s3]") {
    OnBucket run(StackOptions{});
    auto& [s3, stack, bucket] = run;
    const auto& key = stack.tenant().test_key;

    // Speech writes a WAV; transcription reads it back from the bucket.
    const auto spoken = wait_for_terminal_job(
        stack, key, submit_speech(stack, key, "Hello world from the bucket."));
    REQUIRE(spoken);
    REQUIRE(spoken->value("status", "") == "completed");
    const std::string wav = (*spoken)["result"].value("media_id", "");
    CHECK(bucket.exists(storage_key(stack, wav)));

    const auto accepted =
        stack.request("POST", "/v1/audio/speech-to-text", {{"media_id", wav}}, key);
    check_success_envelope(accepted, 202);
    const auto heard = wait_for_terminal_job(stack, key, accepted.json["data"].value("job_id", ""),
                                             std::chrono::seconds(90));
    REQUIRE(heard);
    INFO(heard->dump());
    REQUIRE(heard->value("status", "") == "completed");
    CHECK_FALSE((*heard)["result"].value("text", "").empty());

    const auto image = completed_creation(
        stack, key, "images",
        {{"template", "quote"}, {"text", "Stored remotely."}, {"size", "1200x628"}});
    const std::string image_id = image.value("media_id", "");
    CHECK(bucket.exists(storage_key(stack, image_id)));
    const auto png = download_through_bucket(stack, s3, key, image_id);
    CHECK(png.status == 200);
    CHECK(png.body.rfind("\x89PNG", 0) == 0);

    // The input copy is gone once the job is done; generated files were moved to the bucket.
    CHECK(files_in_media_dir(stack) == 0);
}
