// The media probe against the fake media host on loopback: HEAD gives type and size, a host that
// refuses HEAD is asked with a one-byte ranged GET, and each failure says whether asking again
// can help. A private address is refused before any request when private targets are not allowed.
#include "common/domain/social/media_probe.hpp"
#include "tests/support/fake_platforms.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::testing;

namespace {

constexpr std::chrono::milliseconds kTimeout{2000};

social::TargetCheck checker(bool allow_private) {
    return
        [allow_private](const std::string& url) { return net::check_target(url, allow_private); };
}

}  // namespace

TEST_CASE("a media URL is probed with HEAD for its content type and size",
          "[integration][social][media]") {
    FakePlatforms fake;
    http::Client http(4);
    const auto url = fake.media_url("photo.png", "image/png", 7'000'000);
    const auto p = social::probe_media(http, url, checker(true), kTimeout);
    REQUIRE_FALSE(p.failure);
    CHECK(p.url == url);
    CHECK(p.content_type == "image/png");
    CHECK(p.bytes == 7'000'000);
    const auto calls = fake.calls("/media/photo.png");
    REQUIRE(calls.size() == 1);
    CHECK(calls[0]["method"] == "HEAD");
}

TEST_CASE("a host that refuses HEAD is asked for the first byte and its Content-Range read",
          "[integration][social][media]") {
    FakePlatforms fake;
    http::Client http(4);
    const auto url = fake.media_url("signed.jpg", "image/jpeg", 6'500'000, "&head=refused");
    const auto p = social::probe_media(http, url, checker(true), kTimeout);
    REQUIRE_FALSE(p.failure);
    CHECK(p.content_type == "image/jpeg");
    CHECK(p.bytes == 6'500'000);
    const auto calls = fake.calls("/media/signed.jpg");
    REQUIRE(calls.size() == 2);
    CHECK(calls[1]["method"] == "GET");
    CHECK(calls[1]["headers"]["range"] == "bytes=0-0");
}

TEST_CASE("a missing file is a permanent failure and a busy host a temporary one",
          "[integration][social][media]") {
    FakePlatforms fake;
    http::Client http(4);
    fake.program("/media/gone.png", {{{"status", 404}}});
    fake.program("/media/busy.png", {{{"status", 503}}, {{"status", 429}}});
    const auto gone = social::probe_media(http, fake.media_url("gone.png", "image/png", 10),
                                          checker(true), kTimeout);
    REQUIRE(gone.failure);
    CHECK(gone.failure->permanent);
    CHECK(gone.failure->http_status == 404);
    const auto busy_url = fake.media_url("busy.png", "image/png", 10);
    for (int i = 0; i < 2; ++i) {
        const auto busy = social::probe_media(http, busy_url, checker(true), kTimeout);
        REQUIRE(busy.failure);
        CHECK_FALSE(busy.failure->permanent);
    }
    const auto fine = social::probe_media(http, busy_url, checker(true), kTimeout);
    CHECK_FALSE(fine.failure);
}

TEST_CASE("a redirect is a permanent failure: redirects are not followed",
          "[integration][social][media]") {
    FakePlatforms fake;
    http::Client http(4);
    fake.program("/media/moved.png", {{{"status", 302}}});
    const auto p = social::probe_media(http, fake.media_url("moved.png", "image/png", 10),
                                       checker(true), kTimeout);
    REQUIRE(p.failure);
    CHECK(p.failure->permanent);
    CHECK(p.failure->reason.find("redirect") != std::string::npos);
}

TEST_CASE("a host that does not answer in time or refuses connections is a temporary failure",
          "[integration][social][media]") {
    FakePlatforms fake;
    http::Client http(4);
    fake.program("/media/slow.png", {{{"delay_ms", 1500}}});
    const auto slow = social::probe_media(http, fake.media_url("slow.png", "image/png", 10),
                                          checker(true), std::chrono::milliseconds(300));
    REQUIRE(slow.failure);
    CHECK_FALSE(slow.failure->permanent);
    // Port 9 (discard) on loopback has no listener in the test environment.
    const auto closed =
        social::probe_media(http, "http://127.0.0.1:9/media/x.png", checker(true), kTimeout);
    REQUIRE(closed.failure);
    CHECK_FALSE(closed.failure->permanent);
}

TEST_CASE("a media URL on a private address is refused without a request unless allowed",
          "[integration][social][media]") {
    FakePlatforms fake;
    http::Client http(4);
    const auto url = fake.media_url("local.png", "image/png", 10);
    const auto refused = social::probe_media(http, url, checker(false), kTimeout);
    REQUIRE(refused.failure);
    CHECK(refused.failure->permanent);
    CHECK(refused.failure->reason.find("refused") != std::string::npos);
    const auto https_private =
        social::probe_media(http, "https://10.0.0.8/media/x.png", checker(false), kTimeout);
    REQUIRE(https_private.failure);
    CHECK(https_private.failure->permanent);
    CHECK(https_private.failure->reason.find("private") != std::string::npos);
    CHECK(fake.calls("/media/").empty());
}
