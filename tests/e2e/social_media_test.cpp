// The publish path's processing_media stage end to end: every media URL is probed on the fake
// media host before the platform is called; Telegram images over its 5 MB URL limit are
// downloaded and uploaded (as photos to 10 MB, as documents to 50 MB) with the fix recorded in
// post_urls._transcodes and the post.* event, and media that cannot go fails the target without
// a platform call (or retries while its host is down).
#include "common/domain/social/post.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/event_sink.hpp"
#include "tests/support/fake_platforms.hpp"
#include "tests/support/post_fixtures.hpp"
#include "tests/support/social_fixtures.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;
namespace social = squawk::social;
namespace time_ = squawk::time;
using nlohmann::json;

namespace {

// The one album the fake Telegram received: its form and the items of its `media` field.
std::pair<json, json> album_sent(FakePlatforms& fake) {
    const auto groups = fake.calls("/sendMediaGroup");
    REQUIRE(groups.size() == 1);
    const auto form = groups[0]["form"];
    return {form, json::parse(form["fields"]["media"].get<std::string>())};
}

social::Post publish_with_media(Stack& stack, const std::string& account,
                                const std::vector<std::string>& media, bool sandbox = false) {
    auto post = new_post(stack, stack.tenant().workspace_id, "With media", {account}, time_::now());
    post.media_urls = media;
    post.is_test = sandbox;
    return insert_post(stack, post);
}

size_t platform_calls(FakePlatforms& fake) {
    return fake.calls("/sendPhoto").size() + fake.calls("/sendDocument").size() +
           fake.calls("/sendMediaGroup").size() + fake.calls("/sendMessage").size();
}

}  // namespace

TEST_CASE_METHOD(
    PublishStack,
    "a Telegram post with a 7 MB png uploads it with sendPhoto as multipart/form-data and the fix "
    "is in _transcodes and the post.published event",
    "[e2e][social][publish][media]") {
    hold_every_event(stack, stack.tenant().workspace_id);
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000201LL);
    const auto image = fake.media_url("poster.png", "image/png", 7'000'000);

    const auto created = stack.request("POST", "/v1/social/posts",
                                       {{"content", "Big poster"},
                                        {"account_ids", json::array({account})},
                                        {"media_urls", json::array({image})}},
                                       key);
    check_success_envelope(created, 201);
    const long long post_id = created.json["data"]["id"].get<long long>();
    const auto done = wait_settled(stack, post_id);
    REQUIRE(done.status == social::PostStatus::published);

    CHECK(fake.calls("/sendDocument").empty());
    const auto photos = fake.calls("/sendPhoto");
    REQUIRE(photos.size() == 1);
    const auto form = photos[0]["form"];
    CHECK(form["fields"]["caption"] == "Big poster");
    CHECK(form["files"]["photo"]["filename"] == "poster.png");
    CHECK(form["files"]["photo"]["content_type"] == "image/png");
    CHECK(form["files"]["photo"]["bytes"] == 7'000'000);
    const auto fetched = fake.calls("/media/poster.png");
    REQUIRE(fetched.size() == 2);
    CHECK(fetched[0]["method"] == "HEAD");
    CHECK(fetched[1]["method"] == "GET");

    const auto read = stack.request("GET", "/v1/social/posts/" + std::to_string(post_id), {}, key);
    const auto fixes = read.json["data"]["post_urls"]["_transcodes"]["telegram"];
    REQUIRE(fixes.size() == 1);
    CHECK(fixes[0]["media_url"] == image);
    CHECK(fixes[0]["fix"] == "uploaded");
    CHECK(fixes[0]["reason"] ==
          "image of 7.0 MB is over Telegram's 5 MB limit for photos sent by URL");

    const auto events = post_events(stack, post_id);
    REQUIRE(events.size() == 1);
    CHECK(events[0]["name"] == "post.published");
    const auto transcoded = events[0]["data"]["transcoded"];
    REQUIRE(transcoded.size() == 1);
    CHECK(transcoded[0]["platform"] == "telegram");
    CHECK(transcoded[0]["fix"] == fixes[0]);
}

TEST_CASE_METHOD(PublishStack, "a Telegram post with a 12 MB png uploads it with sendDocument",
                 "[e2e][social][publish][media]") {
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000208LL);
    const auto image = fake.media_url("scan.png", "image/png", 12'000'000);
    const auto post = publish_with_media(stack, account, {image});
    const auto done = wait_settled(stack, post.id);
    REQUIRE(done.status == social::PostStatus::published);
    CHECK(fake.calls("/sendPhoto").empty());
    const auto documents = fake.calls("/sendDocument");
    REQUIRE(documents.size() == 1);
    const auto form = documents[0]["form"];
    CHECK(form["fields"]["caption"] == "With media");
    CHECK(form["files"]["document"]["filename"] == "scan.png");
    CHECK(form["files"]["document"]["bytes"] == 12'000'000);
    REQUIRE(done.targets[0].transcodes.size() == 1);
    CHECK(done.targets[0].transcodes[0]["fix"] == "sent_as_document");
    CHECK(done.targets[0].transcodes[0]["reason"] ==
          "image of 12.0 MB is over Telegram's 10 MB limit for uploaded photos");
}

TEST_CASE_METHOD(
    PublishStack,
    "an album with one 7 MB image goes to Telegram as photos, that one attached as an upload",
    "[e2e][social][publish][media]") {
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000202LL);
    const std::vector<std::string> media = {fake.media_url("a.jpg", "image/jpeg", 300'000),
                                            fake.media_url("b.png", "image/png", 7'000'000),
                                            fake.media_url("c.webp", "image/webp", 90'000)};
    const auto post = publish_with_media(stack, account, media);
    const auto done = wait_settled(stack, post.id);
    REQUIRE(done.status == social::PostStatus::published);
    const auto [form, items] = album_sent(fake);
    REQUIRE(items.size() == 3);
    for (const auto& item : items) CHECK(item["type"] == "photo");
    CHECK(items[0]["media"] == media[0]);
    CHECK(items[1]["media"] == "attach://file1");
    CHECK(items[2]["media"] == media[2]);
    REQUIRE(form["files"].size() == 1);
    CHECK(form["files"]["file1"]["bytes"] == 7'000'000);
    CHECK(fake.calls("/media/a.jpg").size() == 1);
    REQUIRE(done.targets[0].transcodes.size() == 1);
    CHECK(done.targets[0].transcodes[0]["media_url"] == media[1]);
    CHECK(done.targets[0].transcodes[0]["fix"] == "uploaded");
    // Three messages: unpublishing must find every one of them.
    CHECK(std::count(done.targets[0].external_id->begin(), done.targets[0].external_id->end(),
                     ',') == 2);
}

TEST_CASE_METHOD(
    PublishStack,
    "an album with one 12 MB image goes to Telegram as an album of uploaded documents, GIFs by URL",
    "[e2e][social][publish][media]") {
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000209LL);
    const std::vector<std::string> media = {fake.media_url("a.jpg", "image/jpeg", 300'000),
                                            fake.media_url("b.png", "image/png", 12'000'000),
                                            fake.media_url("c.gif", "image/gif", 90'000)};
    const auto post = publish_with_media(stack, account, media);
    const auto done = wait_settled(stack, post.id);
    REQUIRE(done.status == social::PostStatus::published);
    const auto [form, items] = album_sent(fake);
    REQUIRE(items.size() == 3);
    for (const auto& item : items) CHECK(item["type"] == "document");
    CHECK(items[0]["media"] == "attach://file0");
    CHECK(items[1]["media"] == "attach://file1");
    CHECK(items[2]["media"] == media[2]);
    CHECK(form["files"]["file0"]["bytes"] == 300'000);
    CHECK(form["files"]["file1"]["bytes"] == 12'000'000);
    REQUIRE(done.targets[0].transcodes.size() == 3);
    CHECK(done.targets[0].transcodes[1]["reason"].get<std::string>().find("12.0 MB") !=
          std::string::npos);
}

TEST_CASE_METHOD(PublishStack,
                 "a media file whose download differs from its probe fails with MEDIA_UNAVAILABLE",
                 "[e2e][social][publish][media]") {
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000210LL);
    // The HEAD answers as usual; the GET then brings a short body.
    fake.program("/media/changed.png", {{{"delay_ms", 0}}, {{"status", 200}}});
    const auto image = fake.media_url("changed.png", "image/png", 7'000'000);
    const auto post = publish_with_media(stack, account, {image});
    const auto done = wait_settled(stack, post.id);
    CHECK(done.status == social::PostStatus::failed);
    CHECK(done.targets[0].error["code"] == "MEDIA_UNAVAILABLE");
    CHECK(done.targets[0].error["detail"]["media_url"] == image);
    CHECK(done.targets[0].error["detail"]["reason"].get<std::string>().find(
              "where the probe announced 7000000") != std::string::npos);
    CHECK(platform_calls(fake) == 0);
}

TEST_CASE_METHOD(PublishStack,
                 "a media file whose download answers 503 is retried and uploaded once",
                 "[e2e][social][publish][media]") {
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000211LL);
    fake.program("/media/later.png", {{{"delay_ms", 0}}, {{"status", 503}}});
    const auto post =
        publish_with_media(stack, account, {fake.media_url("later.png", "image/png", 6'000'000)});
    const auto done = wait_settled(stack, post.id);
    REQUIRE(done.status == social::PostStatus::published);
    const auto photos = fake.calls("/sendPhoto");
    REQUIRE(photos.size() == 1);
    CHECK(photos[0]["form"]["files"]["photo"]["bytes"] == 6'000'000);
    CHECK(fake.calls("/media/later.png").size() == 4);
}

TEST_CASE_METHOD(PublishStack,
                 "a missing image fails the target with MEDIA_UNAVAILABLE and calls no platform",
                 "[e2e][social][publish][media]") {
    hold_every_event(stack, stack.tenant().workspace_id);
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000203LL);
    fake.program("/media/gone.png", {{{"status", 404}}});
    const auto gone = fake.media_url("gone.png", "image/png", 1000);
    const auto post = publish_with_media(stack, account, {gone});
    const auto done = wait_settled(stack, post.id);
    CHECK(done.status == social::PostStatus::failed);
    const auto& error = done.targets[0].error;
    CHECK(error["code"] == "MEDIA_UNAVAILABLE");
    CHECK(error["detail"]["media_url"] == gone);
    CHECK(error["detail"]["http_status"] == 404);
    CHECK(platform_calls(fake) == 0);
    const auto events = post_events(stack, post.id);
    REQUIRE(events.size() == 1);
    CHECK(events[0]["name"] == "post.failed");
    CHECK(events[0]["data"]["error"]["detail"][0]["code"] == "MEDIA_UNAVAILABLE");
}

TEST_CASE_METHOD(PublishStack,
                 "media of a type the platform does not take fails with MEDIA_UNSUPPORTED_TYPE",
                 "[e2e][social][publish][media]") {
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000204LL);
    const auto page = fake.media_url("page", "text/html", 5000);
    const auto post =
        publish_with_media(stack, account, {fake.media_url("ok.png", "image/png", 100), page});
    const auto done = wait_settled(stack, post.id);
    CHECK(done.status == social::PostStatus::failed);
    CHECK(done.targets[0].error["code"] == "MEDIA_UNSUPPORTED_TYPE");
    CHECK(done.targets[0].error["detail"]["media_url"] == page);
    CHECK(done.targets[0].error["detail"]["content_type"] == "text/html");
    CHECK(platform_calls(fake) == 0);
}

TEST_CASE_METHOD(PublishStack,
                 "media too large for the platform fails with MEDIA_TOO_LARGE, in the sandbox too",
                 "[e2e][social][publish][media]") {
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000205LL);
    const auto live =
        publish_with_media(stack, account, {fake.media_url("huge.png", "image/png", 60'000'000)});
    // Test keys take the sandbox path: every check runs, the probe included.
    const auto sandbox = publish_with_media(
        stack, account, {fake.media_url("huge2.png", "image/png", 60'000'000)}, true);
    for (const auto id : {live.id, sandbox.id}) {
        const auto done = wait_settled(stack, id);
        CHECK(done.status == social::PostStatus::failed);
        CHECK(done.targets[0].error["code"] == "MEDIA_TOO_LARGE");
        CHECK(done.targets[0].error["detail"]["max_bytes"] == 50'000'000);
    }
    CHECK(fake.calls("/media/huge2.png").size() == 1);
    CHECK(platform_calls(fake) == 0);
}

TEST_CASE_METHOD(PublishStack,
                 "an image whose host answers 503 is retried and the post is published once",
                 "[e2e][social][publish][media]") {
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000206LL);
    fake.program("/media/flaky.png", {{{"status", 503}}});
    const auto post =
        publish_with_media(stack, account, {fake.media_url("flaky.png", "image/png", 200'000)});
    const auto done = wait_settled(stack, post.id);
    CHECK(done.status == social::PostStatus::published);
    CHECK(fake.calls("/sendPhoto").size() == 1);
    CHECK(fake.calls("/media/flaky.png").size() == 2);
    CHECK(attempts_once_completed(stack, *done.targets[0].job_id) == 2);
    CHECK(done.targets[0].transcodes.is_null());
}

TEST_CASE(
    "without private targets, http media is refused at creation and a private address fails "
    "the target before any request",
    "[e2e][social][publish][media]") {
    FakePlatforms fake;
    auto options = publish_stack(fake);
    options.allow_private_targets = false;
    Stack stack(options);
    const auto& key = stack.tenant().live_key;
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000207LL);

    const auto refused =
        stack.request("POST", "/v1/social/posts",
                      {{"content", "Plain http"},
                       {"account_ids", json::array({account})},
                       {"media_urls", json::array({fake.media_url("a.png", "image/png", 10)})}},
                      key);
    check_error_envelope(refused, 422, "VALIDATION_ERROR");
    CHECK(refused.json["error"]["details"]["fields"].contains("media_urls"));

    const auto post = publish_with_media(stack, account, {"https://127.0.0.1:9/media/a.png"});
    const auto done = wait_settled(stack, post.id);
    CHECK(done.status == social::PostStatus::failed);
    CHECK(done.targets[0].error["code"] == "MEDIA_UNAVAILABLE");
    CHECK(done.targets[0].error["detail"]["reason"].get<std::string>().find("loopback") !=
          std::string::npos);
    CHECK(platform_calls(fake) == 0);
}
