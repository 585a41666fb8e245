// A post's video end to end, with X's fake: the publish worker downloads the video to a file,
// transcodes a container or a frame the platform does not take to H.264/AAC MP4 with the fix
// recorded in post_urls._transcodes, uploads it through the platform's chunked protocol and
// publishes; a video over the platform's limits fails before anything is uploaded.
#include "common/domain/social/post.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/media_checks.hpp"
#include "tests/support/post_fixtures.hpp"
#include "tests/support/social_fixtures.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;
namespace social = squawk::social;
using nlohmann::json;

namespace {

struct VideoToX : PublishStack {
    VideoToX() {
        fake.control_platform("x", "user",
                              {{"id", kUserId}, {"username", "squawkclips"}, {"name", "Clips"}});
        fake.control_platform("x", "next_consent", {{"user_id", kUserId}});
        const auto connected = connect_through_oauth(stack, key, "x");
        REQUIRE(connected.status == 201);
        account = connected.json["data"]["id"];
    }

    long long post(const std::string& media_url) {
        const auto created = stack.request("POST", "/v1/social/posts",
                                           {{"content", "Our new clip"},
                                            {"account_ids", json::array({account})},
                                            {"media_urls", json::array({media_url})}},
                                           key);
        check_success_envelope(created, 201);
        return created.json["data"]["id"].get<long long>();
    }

    // The media/upload calls of one command.
    std::vector<json> commands(const std::string& command) {
        std::vector<json> out;
        for (const auto& call : fake.calls("/x/2/media/upload"))
            if (call.contains("form") && call["form"]["fields"].value("command", "") == command)
                out.push_back(call);
        return out;
    }

    static constexpr const char* kUserId = "1590000000000000777";
    std::string account;
};

}  // namespace

TEST_CASE_METHOD(VideoToX,
                 "a WebM video is transcoded to MP4 for X and uploaded in segments with the fix "
                 "recorded",
                 "[e2e][social][publish][media]") {
    const auto url = fake.store_media_file("clip.webm", "video/webm", test_clip("webm", 2));
    const auto done = wait_settled(stack, post(url));
    REQUIRE(done.status == social::PostStatus::published);

    const auto init = commands("INIT");
    REQUIRE(init.size() == 1);
    CHECK(init[0]["form"]["fields"]["media_type"] == "video/mp4");
    CHECK(init[0]["form"]["fields"]["media_category"] == "tweet_video");
    long long appended = 0;
    for (const auto& call : commands("APPEND"))
        appended += call["form"]["files"]["media"]["bytes"].get<long long>();
    CHECK(std::to_string(appended) == init[0]["form"]["fields"]["total_bytes"]);
    CHECK(commands("FINALIZE").size() == 1);
    CHECK(fake.calls("/x/2/tweets").size() == 1);

    REQUIRE(done.targets[0].transcodes.size() == 1);
    const auto fix = done.targets[0].transcodes[0];
    CHECK(fix["media_url"] == url);
    CHECK(fix["fix"] == "transcoded");
    CHECK(fix["reason"] == "X does not take video/webm videos; transcoded to H.264/AAC MP4");
    CHECK(fix["succeeded"] == true);
}

TEST_CASE_METHOD(VideoToX,
                 "an MP4 video wider than X takes is padded to 3:1 and uploaded with the fix "
                 "recorded",
                 "[e2e][social][publish][media]") {
    const auto bytes = test_clip("mp4", 1, "480x90");
    const auto url = fake.store_media_file("wide.mp4", "video/mp4", bytes);
    const auto done = wait_settled(stack, post(url));
    REQUIRE(done.status == social::PostStatus::published);
    REQUIRE(done.targets[0].transcodes.size() == 1);
    const auto fix = done.targets[0].transcodes[0];
    CHECK(fix["fix"] == "transcoded");
    CHECK(fix["reason"] ==
          "X takes videos of an aspect of 0.33 to 3.00 and at most 1920 pixels on the longer "
          "side; 480x90 padded to 480x160");
    CHECK(fix["succeeded"] == true);
    const auto init = commands("INIT");
    REQUIRE(init.size() == 1);
    CHECK(init[0]["form"]["fields"]["media_type"] == "video/mp4");
    CHECK(init[0]["form"]["fields"]["total_bytes"] != std::to_string(bytes.size()));
}

TEST_CASE_METHOD(VideoToX, "an MP4 video goes to X as it is with no fix",
                 "[e2e][social][publish][media]") {
    const auto bytes = test_clip("mp4", 1);
    const auto url = fake.store_media_file("clip.mp4", "video/mp4", bytes);
    const auto done = wait_settled(stack, post(url));
    REQUIRE(done.status == social::PostStatus::published);
    const auto init = commands("INIT");
    REQUIRE(init.size() == 1);
    CHECK(init[0]["form"]["fields"]["total_bytes"] == std::to_string(bytes.size()));
    CHECK(done.targets[0].transcodes.empty());
}

TEST_CASE_METHOD(VideoToX,
                 "a video longer than X takes fails with MEDIA_TOO_LARGE before anything is "
                 "uploaded",
                 "[e2e][social][publish][media]") {
    const auto url = fake.store_media_file("long.mp4", "video/mp4", test_clip("mp4", 141));
    const auto done = wait_settled(stack, post(url));
    REQUIRE(done.status == social::PostStatus::failed);
    const auto error = done.targets[0].error;
    CHECK(error["code"] == "MEDIA_TOO_LARGE");
    CHECK(error["detail"]["max_seconds"] == 140);
    CHECK(fake.calls("/x/2/media/upload").empty());
    CHECK(fake.calls("/x/2/tweets").empty());
}
