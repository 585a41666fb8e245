// The S3 object store against a real S3-compatible server (s3rver, every signature checked
// independently; tests/fakes/s3): streamed uploads and downloads, HEAD and DELETE, server-side
// moves, presigned URLs used by plain curl, expiry, a wrong secret, and keys that need encoding.
#include "common/core/storage/s3_object_store.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/core/fs/work_files.hpp"
#include "tests/support/fake_s3.hpp"
#include "tests/support/free_port.hpp"
#include "tests/support/process.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

using namespace squawk;
using namespace squawk::storage;
using namespace squawk::testing;

namespace {

S3Config config_for(const FakeS3& server, std::string secret = FakeS3::kSecretKey) {
    S3Config config;
    config.endpoint = server.endpoint();
    config.bucket = server.bucket();
    config.access_key = FakeS3::kAccessKey;
    config.secret_key = std::move(secret);
    config.timeout = std::chrono::seconds(10);
    return config;
}

void write_file(const std::filesystem::path& path, const std::string& content) {
    std::ofstream out(path, std::ios::binary);
    out << content;
}

// curl's status code for `arguments`, the body written to `body_file`.
int curl_status(std::vector<std::string> arguments, const std::filesystem::path& body_file) {
    std::vector<std::string> argv = {"curl", "-sS", "-o", body_file.string(), "-w", "%{http_code}"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    const auto result = run_command(argv, std::chrono::seconds(30));
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    return std::stoi(result.out);
}

template <class Call>
StorageError storage_error_of(Call call) {
    try {
        call();
    } catch (const StorageError& e) {
        return e;
    }
    FAIL("no StorageError raised");
    throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("S3: a multi-megabyte file streams up and back down byte for byte") {
    FakeS3 server;
    S3ObjectStore store(config_for(server));
    fs::ScratchDirectory scratch("squawk-s3-test-");
    // The server recomputes the SHA-256 of what it received and refuses a mismatch, so this also
    // checks the hash streamed from disk before the upload.
    const std::string content = crypto::random_bytes(6 * 1024 * 1024 + 123);
    write_file(scratch / "upload.bin", content);

    store.put_file("ws_1/med_big.bin", scratch / "upload.bin", "application/octet-stream");
    CHECK_FALSE(std::filesystem::exists(scratch / "upload.bin"));
    CHECK(store.exists("ws_1/med_big.bin"));
    CHECK(store.size("ws_1/med_big.bin") == content.size());

    store.fetch_to_file("ws_1/med_big.bin", scratch / "download.bin");
    CHECK(squawk::fs::read_file(scratch / "download.bin").value_or("") == content);

    write_file(scratch / "empty", "");
    store.put_file("ws_1/empty", scratch / "empty", "text/plain");
    CHECK(store.size("ws_1/empty") == 0u);
    store.fetch_to_file("ws_1/empty", scratch / "empty.out");
    CHECK(std::filesystem::exists(scratch / "empty.out"));
    CHECK(std::filesystem::file_size(scratch / "empty.out") == 0u);
}

TEST_CASE("S3: remove is idempotent and a missing object has no size and cannot be fetched") {
    FakeS3 server;
    S3ObjectStore store(config_for(server));
    fs::ScratchDirectory scratch("squawk-s3-test-");
    write_file(scratch / "f", "short");
    store.put_file("ws_2/f.txt", scratch / "f", "text/plain");
    store.remove("ws_2/f.txt");
    CHECK_FALSE(store.exists("ws_2/f.txt"));
    CHECK_FALSE(store.size("ws_2/f.txt"));
    CHECK_NOTHROW(store.remove("ws_2/f.txt"));

    const auto missing =
        storage_error_of([&] { store.fetch_to_file("ws_2/f.txt", scratch / "o"); });
    CHECK(missing.code() == "NoSuchKey");
    CHECK(missing.http_status() == 404);
    CHECK_FALSE(missing.retryable());
    CHECK(std::distance(std::filesystem::directory_iterator(scratch.path()),
                        std::filesystem::directory_iterator()) == 0);
}

TEST_CASE("S3: a presigned PUT works from plain curl with no credentials, for its content type") {
    FakeS3 server;
    S3ObjectStore store(config_for(server));
    fs::ScratchDirectory scratch("squawk-s3-test-");
    write_file(scratch / "photo.png", "not really a png");
    const auto url = store.presign_put("ws_3/photo.png", "image/png", std::chrono::minutes(5));
    REQUIRE(url);
    CHECK(url->find("X-Amz-Signature=") != std::string::npos);

    CHECK(curl_status({"-X", "PUT", "-H", "Content-Type: image/jpeg", "--data-binary",
                       "@" + (scratch / "photo.png").string(), *url},
                      scratch / "answer") == 403);
    CHECK_FALSE(store.exists("ws_3/photo.png"));

    CHECK(curl_status({"-X", "PUT", "-H", "Content-Type: image/png", "--data-binary",
                       "@" + (scratch / "photo.png").string(), *url},
                      scratch / "answer") == 200);
    CHECK(store.size("ws_3/photo.png") == 16u);
    store.fetch_to_file("ws_3/photo.png", scratch / "back");
    CHECK(squawk::fs::read_file(scratch / "back").value_or("") == "not really a png");
}

TEST_CASE("S3: a presigned GET downloads with plain curl under the overridden headers") {
    FakeS3 server;
    S3ObjectStore store(config_for(server));
    fs::ScratchDirectory scratch("squawk-s3-test-");
    write_file(scratch / "f", "report body");
    store.put_file("ws_4/med_x.pdf", scratch / "f", "application/pdf");
    const auto url =
        store.presign_get("ws_4/med_x.pdf", std::chrono::minutes(5),
                          {.content_type = "text/plain",
                           .content_disposition = "attachment; filename=\"Q3 report.pdf\""});
    REQUIRE(url);
    CHECK(curl_status({"-D", (scratch / "headers").string(), *url}, scratch / "body") == 200);
    CHECK(squawk::fs::read_file(scratch / "body").value_or("") == "report body");
    const auto headers = squawk::fs::read_file(scratch / "headers").value_or("");
    CHECK(headers.find("attachment; filename=\"Q3 report.pdf\"") != std::string::npos);
    CHECK(headers.find("text/plain") != std::string::npos);

    // The same URL for another key is refused: the signature covers the path.
    std::string other = *url;
    other.replace(other.find("med_x.pdf"), 9, "med_y.pdf");
    CHECK(curl_status({other}, scratch / "refused") == 403);
    CHECK(squawk::fs::read_file(scratch / "refused").value_or("").find("SignatureDoesNotMatch") !=
          std::string::npos);
}

TEST_CASE("S3: a presigned URL is refused once its time to live has passed") {
    FakeS3 server;
    S3ObjectStore store(config_for(server));
    fs::ScratchDirectory scratch("squawk-s3-test-");
    write_file(scratch / "f", "soon gone");
    store.put_file("ws_5/f.txt", scratch / "f", "text/plain");
    const auto url = store.presign_get("ws_5/f.txt", std::chrono::seconds(1), {});
    REQUIRE(url);
    // The signing time has whole seconds, so the URL lives between one and two seconds.
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    CHECK(curl_status({*url}, scratch / "body") == 403);
    INFO(squawk::fs::read_file(scratch / "body").value_or(""));
    CHECK(squawk::fs::read_file(scratch / "body").value_or("").find("Request has expired") !=
          std::string::npos);
    CHECK_THROWS_AS(store.presign_get("ws_5/f.txt", std::chrono::seconds(0), {}),
                    std::invalid_argument);
    CHECK_THROWS_AS(store.presign_get("ws_5/f.txt", std::chrono::seconds(604801), {}),
                    std::invalid_argument);
}

TEST_CASE("S3: a wrong secret key is refused with SignatureDoesNotMatch") {
    FakeS3 server;
    S3ObjectStore wrong(config_for(server, "not-the-secret"));
    fs::ScratchDirectory scratch("squawk-s3-test-");
    write_file(scratch / "f", "data");

    const auto put =
        storage_error_of([&] { wrong.put_file("ws_6/f", scratch / "f", "text/plain"); });
    CHECK(put.code() == "SignatureDoesNotMatch");
    CHECK(put.http_status() == 403);
    CHECK_FALSE(put.retryable());
    CHECK(std::filesystem::exists(scratch / "f"));  // a failed put leaves the caller's file

    const auto head = storage_error_of([&] { (void)wrong.size("ws_6/f"); });
    CHECK(head.http_status() == 403);
    const auto get = storage_error_of([&] { wrong.fetch_to_file("ws_6/f", scratch / "o"); });
    CHECK(get.code() == "SignatureDoesNotMatch");

    const auto url = wrong.presign_get("ws_6/f", std::chrono::minutes(1), {});
    REQUIRE(url);
    CHECK(curl_status({*url}, scratch / "body") == 403);
}

TEST_CASE("S3: keys with spaces, reserved characters and non-ASCII letters round-trip") {
    FakeS3 server;
    S3ObjectStore store(config_for(server));
    fs::ScratchDirectory scratch("squawk-s3-test-");
    for (const std::string& key : std::vector<std::string>{
             "ws_7/caf\xc3\xa9 menu (1).png", "ws_7/\xe6\x97\xa5\xe6\x9c\xac/a b+c=d&e$f@g.txt",
             "ws_7/100% ~sure!*'.txt"}) {
        INFO(key);
        write_file(scratch / "f", "content of " + key);
        store.put_file(key, scratch / "f", "text/plain");
        CHECK(store.size(key) == ("content of " + key).size());
        store.fetch_to_file(key, scratch / "back");
        CHECK(squawk::fs::read_file(scratch / "back").value_or("") == "content of " + key);
        const auto url = store.presign_get(key, std::chrono::minutes(1), {});
        REQUIRE(url);
        CHECK(curl_status({*url}, scratch / "presigned") == 200);
        CHECK(squawk::fs::read_file(scratch / "presigned").value_or("") == "content of " + key);
        store.remove(key);
        CHECK_FALSE(store.exists(key));
    }
}

TEST_CASE(
    "S3: a move copies the object over the destination on the server and deletes the source") {
    FakeS3 server;
    S3ObjectStore store(config_for(server));
    fs::ScratchDirectory scratch("squawk-s3-test-");
    const std::string content = crypto::random_bytes(256 * 1024 + 7);
    write_file(scratch / "new", content);
    write_file(scratch / "old", "the old object");
    store.put_file("ws_9/work.bin", scratch / "new", "application/octet-stream");
    store.put_file("ws_9/med_a.bin", scratch / "old", "application/octet-stream");

    // The server checks the signature of the copy, its x-amz-copy-source header included.
    store.move("ws_9/work.bin", "ws_9/med_a.bin");
    CHECK_FALSE(store.exists("ws_9/work.bin"));
    CHECK(store.size("ws_9/med_a.bin") == content.size());
    store.fetch_to_file("ws_9/med_a.bin", scratch / "back");
    CHECK(squawk::fs::read_file(scratch / "back").value_or("") == content);

    store.move("ws_9/med_a.bin", "ws_10/final/med_b.bin");
    CHECK_FALSE(store.exists("ws_9/med_a.bin"));
    CHECK(store.size("ws_10/final/med_b.bin") == content.size());
}

TEST_CASE("S3: moving a missing object raises NoSuchKey and leaves the destination") {
    FakeS3 server;
    S3ObjectStore store(config_for(server));
    fs::ScratchDirectory scratch("squawk-s3-test-");
    write_file(scratch / "f", "kept");
    store.put_file("ws_11/kept.txt", scratch / "f", "text/plain");

    const auto missing =
        storage_error_of([&] { store.move("ws_11/missing.txt", "ws_11/kept.txt"); });
    CHECK(missing.code() == "NoSuchKey");
    CHECK(missing.http_status() == 404);
    CHECK_FALSE(missing.retryable());
    store.fetch_to_file("ws_11/kept.txt", scratch / "back");
    CHECK(squawk::fs::read_file(scratch / "back").value_or("") == "kept");
}

TEST_CASE("S3: moving a key onto itself leaves the object as it was") {
    FakeS3 server;
    S3ObjectStore store(config_for(server));
    fs::ScratchDirectory scratch("squawk-s3-test-");
    write_file(scratch / "f", "stays");
    store.put_file("ws_12/same.txt", scratch / "f", "text/plain");
    store.move("ws_12/same.txt", "ws_12/same.txt");
    store.fetch_to_file("ws_12/same.txt", scratch / "back");
    CHECK(squawk::fs::read_file(scratch / "back").value_or("") == "stays");
}

TEST_CASE("S3: a move with a wrong secret is refused and both objects stay as they were") {
    FakeS3 server;
    S3ObjectStore store(config_for(server));
    S3ObjectStore wrong(config_for(server, "not-the-secret"));
    fs::ScratchDirectory scratch("squawk-s3-test-");
    write_file(scratch / "f", "source");
    store.put_file("ws_13/from.txt", scratch / "f", "text/plain");

    const auto refused = storage_error_of([&] { wrong.move("ws_13/from.txt", "ws_13/to.txt"); });
    CHECK(refused.code() == "SignatureDoesNotMatch");
    CHECK(refused.http_status() == 403);
    CHECK(store.size("ws_13/from.txt") == 6u);
    CHECK_FALSE(store.exists("ws_13/to.txt"));
}

TEST_CASE("S3: keys with spaces, reserved characters and non-ASCII letters move byte for byte") {
    FakeS3 server;
    S3ObjectStore store(config_for(server));
    fs::ScratchDirectory scratch("squawk-s3-test-");
    const std::vector<std::pair<std::string, std::string>> moves = {
        {"ws_14/caf\xc3\xa9 menu (1).png", "ws_14/\xe6\x97\xa5\xe6\x9c\xac/final menu.png"},
        {"ws_14/a b+c=d&e$f@g.txt", "ws_14/100% ~sure!*'.txt"},
    };
    for (const auto& [from, to] : moves) {
        INFO(from << " -> " << to);
        const std::string content = crypto::random_bytes(4096);
        write_file(scratch / "f", content);
        store.put_file(from, scratch / "f", "application/octet-stream");
        store.move(from, to);
        CHECK_FALSE(store.exists(from));
        store.fetch_to_file(to, scratch / "back");
        CHECK(squawk::fs::read_file(scratch / "back").value_or("") == content);
    }
}

TEST_CASE("S3: an unreachable endpoint is a retryable network error") {
    S3Config config;
    config.endpoint = "http://127.0.0.1:" + std::to_string(free_port());
    config.bucket = "squawk-test";
    config.access_key = FakeS3::kAccessKey;
    config.secret_key = FakeS3::kSecretKey;
    config.timeout = std::chrono::seconds(2);
    S3ObjectStore store(config);
    const auto error = storage_error_of([&] { (void)store.size("ws_8/f"); });
    CHECK(error.code() == "NetworkError");
    CHECK(error.http_status() == 0);
    CHECK(error.retryable());
}
