// A burst of posts sharing media, with X's fake: the publish worker downloads a media URL once
// for every post that needs it (the fake media host counts the GETs), fetches a scheduled post's
// video before its time (also behind more due jobs than one read takes), and keeps no failed
// download.
#include "common/core/queue/job_queue.hpp"
#include "common/core/redis/redis_client.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/social/post.hpp"
#include "tests/support/media_checks.hpp"
#include "tests/support/post_fixtures.hpp"
#include "tests/support/social_fixtures.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;
namespace social = squawk::social;
namespace time_ = squawk::time;
using nlohmann::json;

namespace {

struct VideoBurstToX : PublishStack {
    VideoBurstToX() {
        fake.control_platform("x", "user",
                              {{"id", kUserId}, {"username", "squawkburst"}, {"name", "Burst"}});
        fake.control_platform("x", "next_consent", {{"user_id", kUserId}});
        const auto connected = connect_through_oauth(stack, key, "x");
        REQUIRE(connected.status == 201);
        account = connected.json["data"]["id"];
    }

    // `count` posts of one video at `at`, written in one transaction and enqueued together, so
    // that the worker's fibers take them up at once.
    std::vector<social::Post> posts(int count, const std::string& media_url,
                                    squawk::time::TimePoint at) {
        std::vector<social::NewPost> out;
        for (int i = 0; i < count; ++i) {
            auto post = new_post(stack, stack.tenant().workspace_id,
                                 "Clip number " + std::to_string(i), {account}, at);
            post.media_urls = {media_url};
            out.push_back(std::move(post));
        }
        return insert_posts(stack, out);
    }

    // The downloads of `name` the media host served: GETs without a Range (a probe asks one
    // byte at most).
    std::vector<json> downloads(const std::string& name) {
        std::vector<json> out;
        for (const auto& call : fake.calls("/media/" + name))
            if (call["method"] == "GET" && !call["headers"].contains("range")) out.push_back(call);
        return out;
    }

    static constexpr const char* kUserId = "1590000000000000888";
    std::string account;
};

}  // namespace

TEST_CASE_METHOD(VideoBurstToX,
                 "posts sharing one video URL download it once and are all published",
                 "[e2e][social][publish][media]") {
    const auto url = fake.store_media_file("burst.mp4", "video/mp4", test_clip("mp4", 1));
    const auto written = posts(6, url, time_::now());
    for (const auto& post : written)
        CHECK(wait_settled(stack, post.id).status == social::PostStatus::published);
    CHECK(downloads("burst.mp4").size() == 1);
    CHECK(fake.calls("/x/2/tweets").size() == 6);
}

TEST_CASE_METHOD(VideoBurstToX, "a scheduled post's video is downloaded before its time",
                 "[e2e][social][publish][media]") {
    const auto url = fake.store_media_file("ahead.mp4", "video/mp4", test_clip("mp4", 1));
    const auto due = time_::now() + std::chrono::seconds(6);
    const auto written = posts(3, url, due);
    REQUIRE(
        stack.wait_until([&] { return !downloads("ahead.mp4").empty(); }, std::chrono::seconds(5)));
    const auto fetched = downloads("ahead.mp4");
    // Seconds ahead, not the pool's lead of a fraction of one.
    CHECK(fetched.front()["received_at_ms"].get<long long>() < time_::to_unix_ms(due) - 2000);
    CHECK(fake.calls("/x/2/tweets").empty());

    for (const auto& post : written) {
        const auto done = wait_settled(stack, post.id);
        CHECK(done.status == social::PostStatus::published);
    }
    CHECK(downloads("ahead.mp4").size() == 1);
    const auto tweets = fake.calls("/x/2/tweets");
    REQUIRE(tweets.size() == 3);
    for (const auto& tweet : tweets)
        CHECK(tweet["received_at_ms"].get<long long>() >= time_::to_unix_ms(due));
}

TEST_CASE_METHOD(VideoBurstToX,
                 "a scheduled post's video is downloaded before its time behind more due jobs "
                 "than one read of the schedule takes",
                 "[e2e][social][publish][media]") {
    const auto url = fake.store_media_file("behind.mp4", "video/mp4", test_clip("mp4", 1));
    const auto due = time_::now() + std::chrono::seconds(8);
    // 6,000 publish jobs due a second before the post, ahead of it in the delayed set; they are
    // no job of MySQL's and are taken out before their time.
    squawk::redis::RedisClient redis(stack.redis_settings());
    const auto delayed = squawk::queue::JobQueue(redis).delayed_key("publish");
    squawk::redis::Command ahead{"ZADD", delayed};
    squawk::redis::Command removal{"ZREM", delayed};
    for (int i = 0; i < 6000; ++i) {
        ahead.push_back(std::to_string(time_::to_unix_ms(due) - 1000));
        ahead.push_back(std::to_string(900'000'000 + i));
        removal.push_back(std::to_string(900'000'000 + i));
    }
    REQUIRE(redis.command(ahead).integer == 6000);
    const auto written = posts(1, url, due);
    const bool fetched =
        stack.wait_until([&] { return !downloads("behind.mp4").empty(); }, std::chrono::seconds(5));
    CHECK(redis.command(removal).integer == 6000);
    REQUIRE(fetched);
    CHECK(downloads("behind.mp4").front()["received_at_ms"].get<long long>() <
          time_::to_unix_ms(due) - 2000);
    CHECK(wait_settled(stack, written[0].id).status == social::PostStatus::published);
    CHECK(downloads("behind.mp4").size() == 1);
}

TEST_CASE_METHOD(VideoBurstToX,
                 "a failed download is not kept: the retry downloads the video again",
                 "[e2e][social][publish][media]") {
    const auto url = fake.store_media_file("flaky.mp4", "video/mp4", test_clip("mp4", 1));
    // The probe's HEAD is answered as usual, the first download with 503.
    fake.program("/media/flaky.mp4", json::array({{{"delay_ms", 0}}, {{"status", 503}}}));
    const auto written = posts(1, url, time_::now());
    const auto done = wait_settled(stack, written.front().id);
    CHECK(done.status == social::PostStatus::published);
    CHECK(downloads("flaky.mp4").size() == 2);
    CHECK(fake.calls("/x/2/tweets").size() == 1);
}
