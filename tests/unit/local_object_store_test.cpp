// The local object store: objects are files under its root, put by rename (or by copy from another
// filesystem), fetched whole, moved by rename, removed idempotently; it hands out no presigned URLs
// but the path of each object, so helper programs read it in place.
#include "common/core/storage/local_object_store.hpp"
#include "common/core/config/config_error.hpp"
#include "common/core/config/section_schema.hpp"
#include "common/core/fs/work_files.hpp"
#include "common/core/storage/object_key.hpp"
#include "common/core/storage/object_store_factory.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <fstream>
#include <sstream>

using namespace squawk;
using namespace squawk::storage;

namespace {

void write_file(const std::filesystem::path& path, const std::string& content) {
    std::ofstream out(path, std::ios::binary);
    out << content;
}

// Files left in `dir` besides `expected`: temporary files must not linger.
size_t entries_in(const std::filesystem::path& dir) {
    return static_cast<size_t>(std::distance(std::filesystem::directory_iterator(dir),
                                             std::filesystem::directory_iterator()));
}

}  // namespace

TEST_CASE("a local put moves the file under its key and a fetch copies it out whole") {
    fs::ScratchDirectory scratch("squawk-local-store-");
    LocalObjectStore store(scratch / "root");
    const auto upload = scratch / "upload.bin";
    const std::string content(300000, 'x');
    write_file(upload, content);

    store.put_file("ws_1/med_a.bin", upload, "application/octet-stream");
    CHECK_FALSE(std::filesystem::exists(upload));
    CHECK(squawk::fs::read_file(scratch / "root" / "ws_1" / "med_a.bin").value_or("") == content);
    CHECK(store.exists("ws_1/med_a.bin"));
    CHECK(store.size("ws_1/med_a.bin") == content.size());

    const auto copy = scratch / "copy.bin";
    store.fetch_to_file("ws_1/med_a.bin", copy);
    CHECK(squawk::fs::read_file(copy).value_or("") == content);
    CHECK(entries_in(scratch.path()) == 2);  // root/ and copy.bin: no temporary file left
}

TEST_CASE("a local put replaces an existing object") {
    fs::ScratchDirectory scratch("squawk-local-store-");
    LocalObjectStore store(scratch / "root");
    write_file(scratch / "first", "first");
    write_file(scratch / "second", "second version");
    store.put_file("k/obj", scratch / "first", "text/plain");
    store.put_file("k/obj", scratch / "second", "text/plain");
    CHECK(store.size("k/obj") == 14);
    CHECK(squawk::fs::read_file(*store.local_path("k/obj")).value_or("") == "second version");
    CHECK(entries_in(scratch / "root" / "k") == 1);
}

TEST_CASE("a local put from another filesystem copies the file and removes the original") {
    if (!std::filesystem::is_directory("/dev/shm")) {
        WARN("no /dev/shm: the cross-filesystem copy is not exercised");
        return;
    }
    fs::ScratchDirectory scratch("squawk-local-store-");
    fs::ScratchDirectory elsewhere("/dev/shm/squawk-local-store-");
    struct stat a {
    }, b{};
    REQUIRE(stat(scratch.path().c_str(), &a) == 0);
    REQUIRE(stat(elsewhere.path().c_str(), &b) == 0);
    if (a.st_dev == b.st_dev) {
        WARN("/dev/shm and the temporary directory share a filesystem here");
        return;
    }
    LocalObjectStore store(scratch / "root");
    write_file(elsewhere / "upload", "from tmpfs");
    store.put_file("ws_2/x.txt", elsewhere / "upload", "text/plain");
    CHECK_FALSE(std::filesystem::exists(elsewhere / "upload"));
    CHECK(squawk::fs::read_file(scratch / "root" / "ws_2" / "x.txt").value_or("") == "from tmpfs");
    CHECK(entries_in(scratch / "root" / "ws_2") == 1);
}

TEST_CASE("a local remove is idempotent and a missing object has no size") {
    fs::ScratchDirectory scratch("squawk-local-store-");
    LocalObjectStore store(scratch / "root");
    write_file(scratch / "f", "data");
    store.put_file("a/b", scratch / "f", "text/plain");
    store.remove("a/b");
    CHECK_NOTHROW(store.remove("a/b"));
    CHECK_NOTHROW(store.remove("never/there"));
    CHECK_FALSE(store.exists("a/b"));
    CHECK_FALSE(store.size("a/b"));
}

TEST_CASE("fetching a missing local object raises NoSuchKey and leaves no file") {
    fs::ScratchDirectory scratch("squawk-local-store-");
    LocalObjectStore store(scratch / "root");
    try {
        store.fetch_to_file("no/such", scratch / "out");
        FAIL("fetch of a missing object succeeded");
    } catch (const StorageError& e) {
        CHECK(e.code() == "NoSuchKey");
        CHECK(e.http_status() == 404);
        CHECK_FALSE(e.retryable());
    }
    CHECK_FALSE(std::filesystem::exists(scratch / "out"));
}

TEST_CASE("a local move renames the object over the one it replaces and the source is gone") {
    fs::ScratchDirectory scratch("squawk-local-store-");
    LocalObjectStore store(scratch / "root");
    write_file(scratch / "new", "the new object");
    write_file(scratch / "old", "the old one");
    store.put_file("ws_1/work.bin", scratch / "new", "application/octet-stream");
    store.put_file("ws_1/med_a.bin", scratch / "old", "application/octet-stream");

    store.move("ws_1/work.bin", "ws_1/med_a.bin");
    CHECK_FALSE(store.exists("ws_1/work.bin"));
    CHECK(squawk::fs::read_file(*store.local_path("ws_1/med_a.bin")).value_or("") ==
          "the new object");
    CHECK(entries_in(scratch / "root" / "ws_1") == 1);
}

TEST_CASE("a local move creates the folders of its destination") {
    fs::ScratchDirectory scratch("squawk-local-store-");
    LocalObjectStore store(scratch / "root");
    write_file(scratch / "f", "moving deeper");
    store.put_file("ws_1/tmp.bin", scratch / "f", "text/plain");

    store.move("ws_1/tmp.bin", "ws_2/final/deep/med_b.txt");
    CHECK_FALSE(store.exists("ws_1/tmp.bin"));
    CHECK(squawk::fs::read_file(scratch / "root" / "ws_2" / "final" / "deep" / "med_b.txt")
              .value_or("") == "moving deeper");
}

TEST_CASE("a local move of a missing object raises NoSuchKey and leaves the destination") {
    fs::ScratchDirectory scratch("squawk-local-store-");
    LocalObjectStore store(scratch / "root");
    write_file(scratch / "f", "kept");
    store.put_file("ws_1/kept.txt", scratch / "f", "text/plain");
    try {
        store.move("ws_1/missing.txt", "ws_1/kept.txt");
        FAIL("move of a missing object succeeded");
    } catch (const StorageError& e) {
        CHECK(e.code() == "NoSuchKey");
        CHECK(e.http_status() == 404);
        CHECK_FALSE(e.retryable());
    }
    CHECK(squawk::fs::read_file(*store.local_path("ws_1/kept.txt")).value_or("") == "kept");
    CHECK_THROWS_AS(store.move("ws_1/kept.txt", "../escape"), InvalidObjectKey);
    CHECK(store.exists("ws_1/kept.txt"));
}

TEST_CASE("a local move of a key onto itself leaves the object as it was") {
    fs::ScratchDirectory scratch("squawk-local-store-");
    LocalObjectStore store(scratch / "root");
    write_file(scratch / "f", "stays");
    store.put_file("ws_1/same.txt", scratch / "f", "text/plain");
    store.move("ws_1/same.txt", "ws_1/same.txt");
    CHECK(squawk::fs::read_file(*store.local_path("ws_1/same.txt")).value_or("") == "stays");
    CHECK(entries_in(scratch / "root" / "ws_1") == 1);
}

TEST_CASE("a failed local put leaves the caller's file in place") {
    fs::ScratchDirectory scratch("squawk-local-store-");
    LocalObjectStore store(scratch / "root");
    CHECK_THROWS_AS(store.put_file("m/b", scratch / "missing", "text/plain"), StorageError);
    write_file(scratch / "f", "keep me");
    // "a" is a file now, so "a/c" cannot be made below it.
    store.put_file("a", scratch / "f", "text/plain");
    write_file(scratch / "g", "still here");
    CHECK_THROWS_AS(store.put_file("a/c", scratch / "g", "text/plain"), StorageError);
    CHECK(squawk::fs::read_file(scratch / "g").value_or("") == "still here");
}

TEST_CASE("the local store gives paths in place and no presigned URLs") {
    fs::ScratchDirectory scratch("squawk-local-store-");
    LocalObjectStore store(scratch / "root");
    CHECK(store.local_path("ws_1/med.png") == scratch / "root" / "ws_1" / "med.png");
    CHECK_FALSE(store.presign_put("ws_1/med.png", "image/png", std::chrono::seconds(60)));
    CHECK_FALSE(store.presign_get("ws_1/med.png", std::chrono::seconds(60), {}));
}

TEST_CASE("the local store refuses keys that would leave its root") {
    fs::ScratchDirectory scratch("squawk-local-store-");
    LocalObjectStore store(scratch / "root");
    write_file(scratch / "f", "x");
    CHECK_THROWS_AS(store.put_file("../escape", scratch / "f", "text/plain"), InvalidObjectKey);
    CHECK_THROWS_AS(store.local_path("/etc/passwd"), InvalidObjectKey);
    CHECK_THROWS_AS(store.size("a/../../b"), InvalidObjectKey);
    CHECK(std::filesystem::exists(scratch / "f"));
}

TEST_CASE("the factory makes a local store by default and an S3 store when configured") {
    fs::ScratchDirectory scratch("squawk-local-store-");
    config::StorageSettings settings;
    auto local = make_object_store(settings, scratch / "media");
    CHECK(local->local_path("a/b") == scratch / "media" / "a" / "b");

    settings.backend = "s3";
    settings.s3_endpoint = "http://127.0.0.1:9";
    settings.s3_bucket = "media";
    settings.s3_access_key = "key";
    settings.s3_secret_key = "secret";
    auto s3 = make_object_store(settings, scratch / "media");
    CHECK_FALSE(s3->local_path("a/b"));
    const auto url = s3->presign_get("a/b", std::chrono::seconds(60), {});
    REQUIRE(url);
    CHECK(url->starts_with("http://127.0.0.1:9/media/a/b?X-Amz-Algorithm=AWS4-HMAC-SHA256"));

    settings.s3_endpoint = "http://127.0.0.1:9/path";
    CHECK_THROWS_AS(make_object_store(settings, scratch / "media"), std::invalid_argument);
}

TEST_CASE("storage settings need every S3 key once the backend is s3, and a bare endpoint") {
    const auto schema = config::storage_schema();
    config::StorageSettings settings;
    CHECK_NOTHROW(schema.finish(settings, "storage"));
    settings.backend = "s3";
    CHECK_THROWS_AS(schema.finish(settings, "storage"), config::ConfigError);
    settings.s3_endpoint = "https://s3.eu-west-1.amazonaws.com";
    settings.s3_bucket = "media";
    settings.s3_access_key = "key";
    settings.s3_secret_key = "secret";
    CHECK_NOTHROW(schema.finish(settings, "storage"));
    settings.s3_endpoint = "s3.eu-west-1.amazonaws.com";
    CHECK_THROWS_AS(schema.finish(settings, "storage"), config::ConfigError);
    settings.backend = "ftp";
    CHECK_THROWS_AS(schema.finish(settings, "storage"), config::ConfigError);
}
