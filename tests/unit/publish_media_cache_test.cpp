// The publish worker's media cache: files kept and reused, a failure never kept, the content
// length as validator, and the bounds that evict.
#include "common/core/fs/work_files.hpp"
#include "workers/publish/media_cache.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <vector>

using squawk::social::ProbeFailure;
using squawk::workers::publish::CacheAnswer;
using squawk::workers::publish::evict_media_cache;
using squawk::workers::publish::FileMaker;
using squawk::workers::publish::MediaCache;
namespace stdfs = std::filesystem;

namespace {

const squawk::workers::publish::Blocking kInline = [](const std::function<void()>& work) {
    work();
};

// Writes `bytes` into the file it is given and counts its calls.
struct CountingMaker {
    explicit CountingMaker(std::string content) : bytes(std::move(content)) {}

    std::string bytes;
    int calls = 0;
    std::optional<ProbeFailure> fail_with;

    FileMaker maker() {
        return [this](const stdfs::path& out) -> std::optional<ProbeFailure> {
            ++calls;
            if (fail_with) return std::exchange(fail_with, std::nullopt);
            std::ofstream(out, std::ios::binary) << bytes;
            return std::nullopt;
        };
    }
};

CacheAnswer source_of(MediaCache& cache, const std::string& url, CountingMaker& maker,
                      std::optional<long long> expected = std::nullopt) {
    return cache.file(url, "source", expected, 1 << 20, "video/mp4", maker.maker(), {}, kInline);
}

size_t entries_in(const stdfs::path& dir) {
    size_t n = 0;
    for (const auto& item : stdfs::directory_iterator(dir))
        if (item.is_regular_file() && item.path().extension() != ".json") ++n;
    return n;
}

}  // namespace

TEST_CASE("a file is made once and reused by later callers", "[unit][publish][media]") {
    squawk::fs::ScratchDirectory dir("squawk-cache-test-");
    MediaCache cache(dir.path(), 1 << 20, std::chrono::seconds(600));
    CountingMaker maker{"0123456789"};
    const auto first = source_of(cache, "https://media.example/a.mp4", maker);
    const auto second = source_of(cache, "https://media.example/a.mp4", maker);
    REQUIRE(first.file);
    REQUIRE(second.file);
    CHECK(maker.calls == 1);
    CHECK(second.file->bytes == 10);
    CHECK(second.file->content_type == "video/mp4");
    CHECK(*squawk::fs::read_file(second.file->path()) == "0123456789");
    // Each caller holds a name of its own for the file.
    CHECK(first.file->path() != second.file->path());
}

TEST_CASE("a failed download is not kept: the next caller downloads again",
          "[unit][publish][media]") {
    squawk::fs::ScratchDirectory dir("squawk-cache-test-");
    MediaCache cache(dir.path(), 1 << 20, std::chrono::seconds(600));
    CountingMaker maker{"video"};
    maker.fail_with = ProbeFailure{false, "the media host answered HTTP 503", 503};
    const auto failed = source_of(cache, "https://media.example/b.mp4", maker);
    CHECK_FALSE(failed.file);
    REQUIRE(failed.failure);
    CHECK(failed.failure->http_status == 503);
    CHECK(entries_in(dir.path()) == 0);

    const auto retried = source_of(cache, "https://media.example/b.mp4", maker);
    REQUIRE(retried.file);
    CHECK(maker.calls == 2);
    source_of(cache, "https://media.example/b.mp4", maker);
    CHECK(maker.calls == 2);
}

TEST_CASE("a file the probe now gives another size is downloaded again", "[unit][publish][media]") {
    squawk::fs::ScratchDirectory dir("squawk-cache-test-");
    MediaCache cache(dir.path(), 1 << 20, std::chrono::seconds(600));
    CountingMaker maker{"12345"};
    REQUIRE(source_of(cache, "https://media.example/c.mp4", maker, 5).file);
    REQUIRE(source_of(cache, "https://media.example/c.mp4", maker, 5).file);
    CHECK(maker.calls == 1);
    maker.bytes = "123456";
    const auto changed = source_of(cache, "https://media.example/c.mp4", maker, 6);
    REQUIRE(changed.file);
    CHECK(maker.calls == 2);
    CHECK(changed.file->bytes == 6);
}

TEST_CASE("the cache's byte bound evicts the oldest files and spares those in use",
          "[unit][publish][media]") {
    squawk::fs::ScratchDirectory dir("squawk-cache-test-");
    MediaCache cache(dir.path(), 15, std::chrono::seconds(600));
    CountingMaker first{"0123456789"};
    CountingMaker second{"abcdefghij"};
    const auto held = source_of(cache, "https://media.example/first.mp4", first);
    REQUIRE(held.file);
    // Older by a minute, so that the order does not rest on the file system's clock resolution.
    for (const auto& item : stdfs::directory_iterator(dir.path()))
        if (item.is_regular_file())
            stdfs::last_write_time(item.path(), item.last_write_time() - std::chrono::minutes(1));
    REQUIRE(source_of(cache, "https://media.example/second.mp4", second).file);
    CHECK(entries_in(dir.path()) == 1);

    // The evicted file's holder still reads it through its own name.
    CHECK(*squawk::fs::read_file(held.file->path()) == "0123456789");
    source_of(cache, "https://media.example/second.mp4", second);
    CHECK(second.calls == 1);
    source_of(cache, "https://media.example/first.mp4", first);
    CHECK(first.calls == 2);
}

TEST_CASE("files fetched longer ago than the cache's lifetime are evicted",
          "[unit][publish][media]") {
    squawk::fs::ScratchDirectory dir("squawk-cache-test-");
    MediaCache cache(dir.path(), 1 << 20, std::chrono::seconds(3600));
    CountingMaker old_one{"old"};
    CountingMaker new_one{"new"};
    REQUIRE(source_of(cache, "https://media.example/old.mp4", old_one).file);
    for (const auto& item : stdfs::directory_iterator(dir.path()))
        if (item.is_regular_file())
            stdfs::last_write_time(item.path(), item.last_write_time() - std::chrono::hours(2));
    REQUIRE(source_of(cache, "https://media.example/new.mp4", new_one).file);
    CHECK(entries_in(dir.path()) == 1);
    evict_media_cache(dir.path(), 1 << 20, std::chrono::seconds(3600));
    CHECK(entries_in(dir.path()) == 1);
    source_of(cache, "https://media.example/old.mp4", old_one);
    CHECK(old_one.calls == 2);
}
