// The publish path's processing_media stage end to end: every media URL is probed on the fake
// media host before the platform is called; oversized Telegram images go as documents with the
// fix recorded in post_urls._transcodes and the post.* event, and media that cannot go fails the
// target without a platform call (or retries while its host is down).
#include "common/social/post.hpp"
#include "tests/support/api_checks.hpp"
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

StackOptions publish_stack(const FakePlatforms& fake) {
    StackOptions options;
    options.worker_arguments = {"--pools", "publish"};
    options.extra_config = fake.config();
    return options;
}

social::Post publish_with_media(Stack& stack, const std::string& account,
                                const std::vector<std::string>& media, bool sandbox = false) {
    auto post = new_post(stack, stack.tenant().workspace_id, "With media", {account}, time_::now());
    post.media_urls = media;
    post.is_test = sandbox;
    return insert_post(stack, post);
}

json body_of(const json& call) {
    return json::parse(call["body"].get<std::string>());
}

size_t platform_calls(FakePlatforms& fake) {
    return fake.calls("/sendPhoto").size() + fake.calls("/sendDocument").size() +
           fake.calls("/sendMediaGroup").size() + fake.calls("/sendMessage").size();
}

}  // namespace

TEST_CASE(
    "a Telegram post with a 7 MB png is sent with sendDocument and the fix is in _transcodes and "
    "the post.published event",
    "[e2e][social][publish][media]") {
    FakePlatforms fake;
    Stack stack(publish_stack(fake));
    const auto& key = stack.tenant().live_key;
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
    REQUIRE(done.status == "published");

    CHECK(fake.calls("/sendPhoto").empty());
    const auto documents = fake.calls("/sendDocument");
    REQUIRE(documents.size() == 1);
    CHECK(body_of(documents[0])["document"] == image);
    CHECK(body_of(documents[0])["caption"] == "Big poster");
    CHECK(fake.calls("/media/poster.png").size() == 1);

    const auto read = stack.request("GET", "/v1/social/posts/" + std::to_string(post_id), {}, key);
    const auto fixes = read.json["data"]["post_urls"]["_transcodes"]["telegram"];
    REQUIRE(fixes.size() == 1);
    CHECK(fixes[0]["media_url"] == image);
    CHECK(fixes[0]["fix"] == "sent_as_document");
    CHECK(fixes[0]["reason"] == "image of 7.0 MB is over Telegram's 5.0 MB photo limit");

    const auto events = post_events(stack, post_id);
    REQUIRE(events.size() == 1);
    CHECK(events[0]["name"] == "post.published");
    const auto transcoded = events[0]["data"]["transcoded"];
    REQUIRE(transcoded.size() == 1);
    CHECK(transcoded[0]["platform"] == "telegram");
    CHECK(transcoded[0]["fix"] == fixes[0]);
}

TEST_CASE("an album with one oversized image goes to Telegram as an album of documents",
          "[e2e][social][publish][media]") {
    FakePlatforms fake;
    Stack stack(publish_stack(fake));
    const auto account =
        connect_telegram_channel(stack, fake, stack.tenant().live_key, -1001000000202LL);
    const std::vector<std::string> media = {fake.media_url("a.jpg", "image/jpeg", 300'000),
                                            fake.media_url("b.png", "image/png", 8'000'000),
                                            fake.media_url("c.webp", "image/webp", 90'000)};
    const auto post = publish_with_media(stack, account, media);
    const auto done = wait_settled(stack, post.id);
    REQUIRE(done.status == "published");
    const auto groups = fake.calls("/sendMediaGroup");
    REQUIRE(groups.size() == 1);
    const auto items = body_of(groups[0])["media"];
    REQUIRE(items.size() == 3);
    for (size_t i = 0; i < items.size(); ++i) {
        CHECK(items[i]["type"] == "document");
        CHECK(items[i]["media"] == media[i]);
    }
    REQUIRE(done.targets[0].transcodes.size() == 3);
    CHECK(done.targets[0].transcodes[1]["reason"].get<std::string>().find("8.0 MB") !=
          std::string::npos);
    // Three messages: unpublishing must find every one of them.
    CHECK(std::count(done.targets[0].external_id->begin(), done.targets[0].external_id->end(),
                     ',') == 2);
}

TEST_CASE("a missing image fails the target with MEDIA_UNAVAILABLE and calls no platform",
          "[e2e][social][publish][media]") {
    FakePlatforms fake;
    Stack stack(publish_stack(fake));
    const auto account =
        connect_telegram_channel(stack, fake, stack.tenant().live_key, -1001000000203LL);
    fake.program("/media/gone.png", {{{"status", 404}}});
    const auto gone = fake.media_url("gone.png", "image/png", 1000);
    const auto post = publish_with_media(stack, account, {gone});
    const auto done = wait_settled(stack, post.id);
    CHECK(done.status == "failed");
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

TEST_CASE("media of a type the platform does not take fails with MEDIA_UNSUPPORTED_TYPE",
          "[e2e][social][publish][media]") {
    FakePlatforms fake;
    Stack stack(publish_stack(fake));
    const auto account =
        connect_telegram_channel(stack, fake, stack.tenant().live_key, -1001000000204LL);
    const auto page = fake.media_url("page", "text/html", 5000);
    const auto post =
        publish_with_media(stack, account, {fake.media_url("ok.png", "image/png", 100), page});
    const auto done = wait_settled(stack, post.id);
    CHECK(done.status == "failed");
    CHECK(done.targets[0].error["code"] == "MEDIA_UNSUPPORTED_TYPE");
    CHECK(done.targets[0].error["detail"]["media_url"] == page);
    CHECK(done.targets[0].error["detail"]["content_type"] == "text/html");
    CHECK(platform_calls(fake) == 0);
}

TEST_CASE("media too large for the platform fails with MEDIA_TOO_LARGE, in the sandbox too",
          "[e2e][social][publish][media]") {
    FakePlatforms fake;
    Stack stack(publish_stack(fake));
    const auto account =
        connect_telegram_channel(stack, fake, stack.tenant().live_key, -1001000000205LL);
    const auto live =
        publish_with_media(stack, account, {fake.media_url("huge.png", "image/png", 30'000'000)});
    // Test keys take the sandbox path: every check runs, the probe included.
    const auto sandbox = publish_with_media(
        stack, account, {fake.media_url("huge2.png", "image/png", 30'000'000)}, true);
    for (const auto id : {live.id, sandbox.id}) {
        const auto done = wait_settled(stack, id);
        CHECK(done.status == "failed");
        CHECK(done.targets[0].error["code"] == "MEDIA_TOO_LARGE");
        CHECK(done.targets[0].error["detail"]["max_bytes"] == 20'000'000);
    }
    CHECK(fake.calls("/media/huge2.png").size() == 1);
    CHECK(platform_calls(fake) == 0);
}

TEST_CASE("an image whose host answers 503 is retried and the post is published once",
          "[e2e][social][publish][media]") {
    FakePlatforms fake;
    Stack stack(publish_stack(fake));
    const auto account =
        connect_telegram_channel(stack, fake, stack.tenant().live_key, -1001000000206LL);
    fake.program("/media/flaky.png", {{{"status", 503}}});
    const auto post =
        publish_with_media(stack, account, {fake.media_url("flaky.png", "image/png", 200'000)});
    const auto done = wait_settled(stack, post.id);
    CHECK(done.status == "published");
    CHECK(fake.calls("/sendPhoto").size() == 1);
    CHECK(fake.calls("/media/flaky.png").size() == 2);
    const auto job = stack.db().run([&](squawk::db::Session& s) {
        return s.query_one("SELECT attempts, status FROM jobs WHERE id = ?",
                           {*done.targets[0].job_id});
    });
    REQUIRE(job);
    CHECK(job->integer(0) == 2);
    CHECK(job->text(1) == "completed");
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
    CHECK(done.status == "failed");
    CHECK(done.targets[0].error["code"] == "MEDIA_UNAVAILABLE");
    CHECK(done.targets[0].error["detail"]["reason"].get<std::string>().find("loopback") !=
          std::string::npos);
    CHECK(platform_calls(fake) == 0);
}
