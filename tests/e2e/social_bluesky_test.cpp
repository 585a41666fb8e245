// Bluesky end to end: an account connected through POST /v1/social/connect/bluesky with an app
// password (refused naming app_password when wrong, never returned), and a post with a link and an
// image published by the worker: the image downloaded and uploaded as a blob, the link a facet at
// its byte offset, the target's url the bsky.app address; 300 characters at most. A WebM video is
// transcoded to MP4 and goes through the video service into a video embed; one over Bluesky's
// 100 MB is re-encoded at the bitrate that brings it under. A post whose
// answer was lost (a timeout after the send, the worker killed mid-call) is found on the feed and
// recorded, never sent twice.
#include "common/domain/social/media_plan.hpp"
#include "common/domain/social/post.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/fake_platforms.hpp"
#include "tests/support/media_checks.hpp"
#include "tests/support/post_fixtures.hpp"
#include "tests/support/social_fixtures.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <csignal>

using namespace squawk::testing;
namespace social = squawk::social;
using nlohmann::json;

namespace {

const std::string kDid = "did:plc:e2esquawkbluesky";
const std::string kHandle = "e2e.bsky.social";
const std::string kAppPassword = "e2e1-pass-word-abcd";

// The account on the fake PDS, connected for `key`'s workspace; returns the connect answer.
HttpResponse connect_bluesky(Stack& stack, FakePlatforms& fake, const std::string& key) {
    fake.control_platform("bluesky", "account",
                          {{"did", kDid}, {"handle", kHandle}, {"app_password", kAppPassword}});
    return stack.request("POST", "/v1/social/connect/bluesky",
                         {{"identifier", "@" + kHandle}, {"app_password", kAppPassword}}, key);
}

// A post of the video at `url` to the account, connected for `key`'s workspace, once the worker
// has settled it.
social::Post publish_video(Stack& stack, FakePlatforms& fake, const std::string& key,
                           const std::string& url, std::chrono::seconds timeout) {
    const auto connected = connect_bluesky(stack, fake, key);
    REQUIRE(connected.status == 201);
    const auto created = stack.request(
        "POST", "/v1/social/posts",
        {{"content", "Our new clip"},
         {"account_ids", json::array({connected.json["data"]["id"].get<std::string>()})},
         {"media_urls", json::array({url})}},
        key);
    check_success_envelope(created, 201);
    return wait_settled(stack, created.json["data"]["id"].get<long long>(), timeout);
}

}  // namespace

TEST_CASE_METHOD(PublishStack,
                 "Bluesky connects with an app password through the connect route, which a "
                 "wrong one is refused by, and the password is never returned",
                 "[e2e][social]") {
    fake.control_platform("bluesky", "account",
                          {{"did", kDid}, {"handle", kHandle}, {"app_password", kAppPassword}});
    const auto wrong = stack.request("POST", "/v1/social/connect/bluesky",
                                     {{"identifier", kHandle}, {"app_password", "nope"}}, key);
    check_error_envelope(wrong, 422, "VALIDATION_ERROR");
    CHECK(wrong.json["error"]["details"]["fields"]["app_password"] ==
          "Bluesky refused: AuthenticationRequired: Invalid identifier or password");

    const auto connected = connect_bluesky(stack, fake, key);
    check_success_envelope(connected, 201);
    const auto& account = connected.json["data"];
    CHECK(account["platform"] == "bluesky");
    CHECK(account["external_id"] == kDid);
    CHECK(account["display_name"] == kHandle);
    CHECK(connected.body.find(kAppPassword) == std::string::npos);
}

TEST_CASE_METHOD(PublishStack,
                 "a WebM video for Bluesky is transcoded to MP4 by the worker and posted through "
                 "the video service with its frame's aspect ratio and the fix recorded",
                 "[e2e][social][publish][media]") {
    const auto url = fake.store_media_file("clip.webm", "video/webm", test_clip("webm", 2));
    const auto done = publish_video(stack, fake, key, url, std::chrono::seconds(30));
    REQUIRE(done.status == social::PostStatus::published);
    REQUIRE(done.targets[0].transcodes.size() == 1);
    CHECK(done.targets[0].transcodes[0]["reason"] ==
          "Bluesky does not take video/webm videos; transcoded to H.264/AAC MP4");

    const auto uploads = fake.calls("/bluesky/_upload/xrpc/app.bsky.video.uploadVideo");
    REQUIRE(uploads.size() == 1);
    CHECK(uploads[0]["headers"]["content-type"] == "video/mp4");

    const auto posts = fake.messages()["bluesky"][kDid];
    REQUIRE(posts.size() == 1);
    const auto& embed = posts[0]["value"]["embed"];
    CHECK(embed["$type"] == "app.bsky.embed.video");
    CHECK(embed["video"]["size"] == uploads[0]["bytes"]);
    CHECK(embed["aspectRatio"] == json{{"width", 160}, {"height", 90}});
}

TEST_CASE_METHOD(PublishStack,
                 "a video over Bluesky's 100 MB is re-encoded at the bitrate that fits it and "
                 "posted, the fix naming the limit and the bitrate",
                 "[e2e][social][publish][media]") {
    const auto noise = noise_clip(11, "640x360");
    REQUIRE(noise.size() > 100'000'000);
    const auto url = fake.store_media_file("noise.mp4", "video/mp4", noise);
    // Re-encoding 11 s of noise at 65 Mbit/s takes the worker seconds.
    const auto done = publish_video(stack, fake, key, url, std::chrono::seconds(90));
    REQUIRE(done.status == social::PostStatus::published);
    REQUIRE(done.targets[0].transcodes.size() == 1);
    const auto reason = done.targets[0].transcodes[0]["reason"].get<std::string>();
    CHECK(reason.starts_with("The video of " +
                             social::megabytes(static_cast<long long>(noise.size())) +
                             " is over Bluesky's 100 MB limit; re-encoded at "));

    const auto uploads = fake.calls("/bluesky/_upload/xrpc/app.bsky.video.uploadVideo");
    REQUIRE(uploads.size() == 1);
    CHECK(uploads[0]["bytes"].get<long long>() <= 100'000'000);
    CHECK(uploads[0]["bytes"].get<long long>() > 80'000'000);
    const auto posts = fake.messages()["bluesky"][kDid];
    REQUIRE(posts.size() == 1);
    CHECK(posts[0]["value"]["embed"]["video"]["size"] == uploads[0]["bytes"]);
}

TEST_CASE_METHOD(PublishStack,
                 "a Bluesky post with a link and an image is published by the worker as one "
                 "record with a link facet and an uploaded image",
                 "[e2e][social][publish]") {
    const auto connected = connect_bluesky(stack, fake, key);
    REQUIRE(connected.status == 201);
    const auto account = connected.json["data"]["id"].get<std::string>();
    const auto image = fake.media_url("photo.png", "image/png", 200'000);
    // "Übersicht: " is 12 bytes (Ü is 2): the link's facet starts there.
    const std::string content = "Übersicht: https://squawk.example/news";

    const auto too_long = stack.request(
        "POST", "/v1/social/posts",
        {{"content", std::string(301, 'x')}, {"account_ids", json::array({account})}}, key);
    check_error_envelope(too_long, 422, "VALIDATION_ERROR");
    CHECK(too_long.json["error"]["details"]["fields"].contains("content"));

    const auto created = stack.request("POST", "/v1/social/posts",
                                       {{"content", content},
                                        {"account_ids", json::array({account})},
                                        {"media_urls", json::array({image})}},
                                       key);
    check_success_envelope(created, 201);
    const auto done = wait_settled(stack, created.json["data"]["id"].get<long long>());
    REQUIRE(done.status == social::PostStatus::published);
    const auto& target = done.targets[0];
    REQUIRE(target.external_id);
    CHECK(target.external_id->starts_with("at://" + kDid + "/app.bsky.feed.post/"));
    CHECK(target.url == "https://bsky.app/profile/" + kHandle + "/post/" +
                            target.external_id->substr(target.external_id->rfind('/') + 1));
    CHECK((target.transcodes.is_null() || target.transcodes.empty()));

    const auto posts = fake.messages()["bluesky"][kDid];
    REQUIRE(posts.size() == 1);
    const auto& record = posts[0]["value"];
    CHECK(record["text"] == content);
    REQUIRE(record["facets"].size() == 1);
    CHECK(record["facets"][0]["index"] == json{{"byteStart", 12}, {"byteEnd", 39}});
    REQUIRE(record["embed"]["images"].size() == 1);
    CHECK(record["embed"]["images"][0]["image"]["size"] == 200'000);
    CHECK(record["embed"]["images"][0]["image"]["mimeType"] == "image/png");
    CHECK(fake.calls("/media/photo.png").size() == 2);  // the probe and the download
    CHECK(fake.calls("com.atproto.repo.uploadBlob").size() == 1);
}

TEST_CASE_METHOD(PublishStack,
                 "a Bluesky post whose answer arrives after the client timeout is found on the "
                 "account's feed and recorded as published, never sent twice",
                 "[e2e][social][publish]") {
    const auto connected = connect_bluesky(stack, fake, key);
    REQUIRE(connected.status == 201);
    // The record is created at once; its answer comes after the worker stopped waiting.
    fake.program("com.atproto.repo.createRecord", json::array({{{"delay_ms", 3000}}}));
    const auto created = stack.request(
        "POST", "/v1/social/posts",
        {{"content", "Late answer"}, {"account_ids", json::array({connected.json["data"]["id"]})}},
        key);
    check_success_envelope(created, 201);
    const auto done = wait_settled(stack, created.json["data"]["id"].get<long long>());
    REQUIRE(done.status == social::PostStatus::published);
    const auto posts = fake.messages()["bluesky"][kDid];
    REQUIRE(posts.size() == 1);
    CHECK(done.targets[0].external_id == posts[0]["uri"].get<std::string>());
    CHECK(fake.calls("com.atproto.repo.createRecord").size() == 1);
    CHECK(fake.calls("app.bsky.feed.getAuthorFeed").size() == 1);
}

TEST_CASE_METHOD(PublishStack,
                 "after kill -9 of the worker mid-publish the restarted worker finds the Bluesky "
                 "post on the feed and records it, having sent it once",
                 "[e2e][social][publish][crash]") {
    const auto connected = connect_bluesky(stack, fake, key);
    REQUIRE(connected.status == 201);
    fake.program("com.atproto.repo.createRecord", json::array({{{"delay_ms", 1500}}}));
    const auto created = stack.request(
        "POST", "/v1/social/posts",
        {{"content", "Crash B"}, {"account_ids", json::array({connected.json["data"]["id"]})}},
        key);
    check_success_envelope(created, 201);
    REQUIRE(
        Stack::wait_until([&] { return fake.calls("com.atproto.repo.createRecord").size() == 1; },
                          std::chrono::seconds(10)));
    stack.kill(Process::worker, SIGKILL);
    stack.wait_exit(Process::worker, std::chrono::seconds(5));
    stack.start(Process::worker);

    const auto done = wait_settled(stack, created.json["data"]["id"].get<long long>());
    REQUIRE(done.status == social::PostStatus::published);
    const auto posts = fake.messages()["bluesky"][kDid];
    REQUIRE(posts.size() == 1);
    CHECK(done.targets[0].external_id == posts[0]["uri"].get<std::string>());
    CHECK(fake.calls("com.atproto.repo.createRecord").size() == 1);
}
