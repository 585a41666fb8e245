// The media plan as a pure function of a platform's rules and the probes: photos within limits
// go by URL, photos over Telegram's URL limit are uploaded (as photos up to 10 MB, as documents
// up to 50 MB), GIFs go as documents (a whole album with them, its photos uploaded), a platform
// that takes photos only as uploads gets every one uploaded with no fix, and unavailable,
// unsupported or too large media gets the problem that fails the target; a video outside the
// frames a platform takes is padded to its nearest aspect and scaled down, and one over its size
// limit is re-encoded at the bitrate that brings it under, while that bitrate leaves a picture.
#include "common/domain/social/media_plan.hpp"
#include "common/domain/social/connector.hpp"

#include <catch2/catch.hpp>

using namespace squawk::social;

namespace {

constexpr std::string_view kTelegramPhotos[] = {"image/jpeg", "image/png", "image/webp"};
constexpr std::string_view kTelegramDocuments[] = {"image/gif"};
constexpr std::string_view kDiscordPhotos[] = {"image/png", "image/jpeg", "image/gif",
                                               "image/webp"};

MediaRules telegram_rules() {
    MediaRules r;
    r.photo_types = kTelegramPhotos;
    r.max_photo_bytes = 5'000'000;
    r.document_types = kTelegramDocuments;
    r.max_document_bytes = 20'000'000;
    r.max_photo_upload_bytes = 10'000'000;
    r.max_document_upload_bytes = 50'000'000;
    return r;
}

MediaRules discord_rules() {
    MediaRules r;
    r.photo_types = kDiscordPhotos;
    r.max_photo_bytes = 10'000'000;
    return r;
}

MediaRules bluesky_rules() {
    MediaRules r;
    r.photo_types = kDiscordPhotos;
    r.photos_by_url = false;
    r.max_photo_upload_bytes = 1'000'000;
    return r;
}

MediaProbe probe(const std::string& url, const std::string& type, long long bytes) {
    MediaProbe p;
    p.url = url;
    p.content_type = type;
    p.bytes = bytes;
    return p;
}

MediaProbe failed(const std::string& url, bool permanent, long status) {
    MediaProbe p;
    p.url = url;
    ProbeFailure failure;
    failure.permanent = permanent;
    failure.reason = "the media host answered HTTP ";
    failure.reason += std::to_string(status);
    failure.http_status = status;
    p.failure = std::move(failure);
    return p;
}

}  // namespace

TEST_CASE("photos within the platform's limits go as photos by URL with no fix") {
    const auto plan = plan_media("telegram", telegram_rules(),
                                 {probe("https://a/1.png", "image/png", 4'000'000),
                                  probe("https://a/2.jpg", "image/jpg", 100)});
    CHECK_FALSE(plan.problem);
    CHECK_FALSE(plan.retry_reason);
    CHECK_FALSE(plan.as_documents);
    CHECK(plan.uploads == std::vector<bool>{false, false});
    CHECK(plan.fixes.empty());
}

TEST_CASE("a Telegram photo between 5 and 10 MB is uploaded as a photo and the fix says why") {
    const auto plan = plan_media("telegram", telegram_rules(),
                                 {probe("https://a/big.png", "image/png", 7'000'000)});
    REQUIRE_FALSE(plan.problem);
    CHECK_FALSE(plan.as_documents);
    CHECK(plan.uploads == std::vector<bool>{true});
    CHECK(plan.max_upload_bytes == 10'000'000);
    REQUIRE(plan.fixes.size() == 1);
    CHECK(plan.fixes[0]["media_url"] == "https://a/big.png");
    CHECK(plan.fixes[0]["fix"] == "uploaded");
    CHECK(plan.fixes[0]["reason"] ==
          "image of 7.0 MB is over Telegram's 5 MB limit for photos sent by URL");
}

TEST_CASE("a Telegram photo between 10 and 50 MB is uploaded as a document") {
    const auto plan = plan_media("telegram", telegram_rules(),
                                 {probe("https://a/huge.png", "image/png", 12'000'000)});
    REQUIRE_FALSE(plan.problem);
    CHECK(plan.as_documents);
    CHECK(plan.uploads == std::vector<bool>{true});
    CHECK(plan.max_upload_bytes == 50'000'000);
    REQUIRE(plan.fixes.size() == 1);
    CHECK(plan.fixes[0]["fix"] == "sent_as_document");
    CHECK(plan.fixes[0]["reason"] ==
          "image of 12.0 MB is over Telegram's 10 MB limit for uploaded photos");
}

TEST_CASE("in a Telegram album of photos only the photos over 5 MB are uploaded") {
    const auto plan = plan_media("telegram", telegram_rules(),
                                 {probe("https://a/1.png", "image/png", 1'000),
                                  probe("https://a/2.png", "image/png", 9'000'000),
                                  probe("https://a/3.webp", "image/webp", 2'000)});
    REQUIRE_FALSE(plan.problem);
    CHECK_FALSE(plan.as_documents);
    CHECK(plan.uploads == std::vector<bool>{false, true, false});
    REQUIRE(plan.fixes.size() == 1);
    CHECK(plan.fixes[0]["media_url"] == "https://a/2.png");
    CHECK(plan.fixes[0]["fix"] == "uploaded");
}

TEST_CASE(
    "one document turns a whole Telegram album into documents, its photos uploaded and its GIFs "
    "by URL") {
    const auto plan = plan_media("telegram", telegram_rules(),
                                 {probe("https://a/1.png", "image/png", 1'000),
                                  probe("https://a/2.png", "image/png", 12'000'000),
                                  probe("https://a/3.gif", "image/gif", 2'000)});
    REQUIRE_FALSE(plan.problem);
    CHECK(plan.as_documents);
    CHECK(plan.uploads == std::vector<bool>{true, true, false});
    REQUIRE(plan.fixes.size() == 3);
    CHECK(plan.fixes[0]["media_url"] == "https://a/1.png");
    CHECK(plan.fixes[0]["fix"] == "sent_as_document");
    CHECK(plan.fixes[0]["reason"].get<std::string>().find("does not mix photos and documents") !=
          std::string::npos);
    CHECK(plan.fixes[1]["reason"].get<std::string>().find("12.0 MB") != std::string::npos);
    CHECK(plan.fixes[2]["reason"] == "image/gif images go to Telegram as documents");
}

TEST_CASE("GIFs go to Telegram as documents by URL up to 20 MB and to Discord as embeds") {
    const auto telegram =
        plan_media("telegram", telegram_rules(), {probe("https://a/x.gif", "image/gif", 3'000)});
    CHECK(telegram.as_documents);
    CHECK(telegram.uploads == std::vector<bool>{false});
    REQUIRE(telegram.fixes.size() == 1);
    CHECK(telegram.fixes[0]["reason"] == "image/gif images go to Telegram as documents");
    const auto big = plan_media("telegram", telegram_rules(),
                                {probe("https://a/x.gif", "image/gif", 30'000'000)});
    CHECK(big.as_documents);
    CHECK(big.uploads == std::vector<bool>{true});
    REQUIRE(big.fixes.size() == 1);
    CHECK(big.fixes[0]["reason"] ==
          "image of 30.0 MB is over Telegram's 20 MB limit for documents sent by URL");
    const auto discord =
        plan_media("discord", discord_rules(), {probe("https://a/x.gif", "image/gif", 3'000)});
    CHECK_FALSE(discord.as_documents);
    CHECK(discord.uploads == std::vector<bool>{false});
    CHECK(discord.fixes.empty());
}

TEST_CASE(
    "a platform that takes photos only as uploads gets every photo uploaded, with no fix, up to "
    "its upload limit") {
    const auto plan = plan_media("bluesky", bluesky_rules(),
                                 {probe("https://a/1.png", "image/png", 900'000),
                                  probe("https://a/2.jpg", "image/jpeg", 100)});
    REQUIRE_FALSE(plan.problem);
    CHECK_FALSE(plan.as_documents);
    CHECK(plan.uploads == std::vector<bool>{true, true});
    CHECK(plan.max_upload_bytes == 1'000'000);
    CHECK(plan.fixes.empty());
    const auto big = plan_media("bluesky", bluesky_rules(),
                                {probe("https://a/big.png", "image/png", 1'500'000)});
    REQUIRE(big.problem);
    CHECK((*big.problem)["code"] == "MEDIA_TOO_LARGE");
    CHECK((*big.problem)["message"] == "The media of 1.5 MB is over Bluesky's 1 MB limit.");
}

TEST_CASE("media over every limit the platform has is MEDIA_TOO_LARGE") {
    const auto telegram = plan_media("telegram", telegram_rules(),
                                     {probe("https://a/huge.png", "image/png", 60'000'000)});
    REQUIRE(telegram.problem);
    CHECK((*telegram.problem)["code"] == "MEDIA_TOO_LARGE");
    CHECK((*telegram.problem)["message"] == "The media of 60.0 MB is over Telegram's 50 MB limit.");
    CHECK((*telegram.problem)["detail"]["max_bytes"] == 50'000'000);
    CHECK((*telegram.problem)["detail"]["bytes"] == 60'000'000);
    const auto discord = plan_media("discord", discord_rules(),
                                    {probe("https://a/big.png", "image/png", 12'000'000)});
    REQUIRE(discord.problem);
    CHECK((*discord.problem)["code"] == "MEDIA_TOO_LARGE");
    CHECK((*discord.problem)["detail"]["max_bytes"] == 10'000'000);
}

TEST_CASE("a type the platform does not take is MEDIA_UNSUPPORTED_TYPE naming what it takes") {
    const auto plan = plan_media(
        "telegram", telegram_rules(),
        {probe("https://a/1.png", "image/png", 10), probe("https://a/page", "text/html", 10)});
    REQUIRE(plan.problem);
    CHECK((*plan.problem)["code"] == "MEDIA_UNSUPPORTED_TYPE");
    CHECK((*plan.problem)["detail"]["media_url"] == "https://a/page");
    CHECK((*plan.problem)["detail"]["content_type"] == "text/html");
    CHECK((*plan.problem)["detail"]["accepted"].size() == 4);
    const auto none = plan_media("discord", discord_rules(), {probe("https://a/x", "", 10)});
    REQUIRE(none.problem);
    CHECK((*none.problem)["code"] == "MEDIA_UNSUPPORTED_TYPE");
}

TEST_CASE("an image whose size the host does not give goes as a photo") {
    MediaProbe p = probe("https://a/1.png", "image/png", 0);
    p.bytes.reset();
    const auto plan = plan_media("telegram", telegram_rules(), {p});
    CHECK_FALSE(plan.problem);
    CHECK_FALSE(plan.as_documents);
    CHECK(plan.uploads == std::vector<bool>{false});
}

TEST_CASE("a permanent probe failure is MEDIA_UNAVAILABLE and wins over a temporary one") {
    const auto plan = plan_media(
        "telegram", telegram_rules(),
        {failed("https://a/busy.png", false, 503), failed("https://a/gone.png", true, 404)});
    REQUIRE(plan.problem);
    CHECK((*plan.problem)["code"] == "MEDIA_UNAVAILABLE");
    CHECK((*plan.problem)["detail"]["media_url"] == "https://a/gone.png");
    CHECK((*plan.problem)["detail"]["http_status"] == 404);
    CHECK_FALSE(plan.retry_reason);
}

TEST_CASE("a temporary probe failure asks for a retry and sends nothing") {
    const auto plan = plan_media(
        "telegram", telegram_rules(),
        {probe("https://a/1.png", "image/png", 10), failed("https://a/busy.png", false, 503)});
    CHECK_FALSE(plan.problem);
    REQUIRE(plan.retry_reason);
    CHECK(plan.retry_reason->find("https://a/busy.png") != std::string::npos);
}

TEST_CASE("media headers are read strictly: content type, content range and length") {
    CHECK(media_type("image/PNG; charset=binary") == "image/png");
    CHECK(media_type("  image/webp ") == "image/webp");
    CHECK(media_type("image") == "");
    CHECK(media_type("/png") == "");
    CHECK(media_type("image/") == "");
    CHECK(media_type("image/p ng") == "");
    CHECK(media_type("") == "");
    CHECK(content_range_total("bytes 0-0/7000000") == 7'000'000);
    CHECK(content_range_total("bytes */1234") == 1234);
    CHECK_FALSE(content_range_total("bytes 0-0/*"));
    CHECK_FALSE(content_range_total("bytes 0-0"));
    CHECK_FALSE(content_range_total("items 0-0/12"));
    CHECK_FALSE(content_range_total("bytes a-0/12"));
    CHECK_FALSE(content_range_total("bytes 0-0/99999999999999999999"));
    CHECK(content_length(" 42 ") == 42);
    CHECK_FALSE(content_length("-1"));
    CHECK_FALSE(content_length("12x"));
    CHECK_FALSE(content_length(""));
}

TEST_CASE("a video X's frames do not take is padded to the nearest aspect, then scaled down") {
    const auto& x = find_platform("x")->limits.media;
    CHECK_FALSE(fit_video_frame("x", x, 1280, 720));
    CHECK_FALSE(fit_video_frame("x", x, 720, 1280));

    const auto wide = fit_video_frame("x", x, 4000, 1000);
    REQUIRE(wide);
    CHECK(wide->size.pad_width == 4000);
    CHECK(wide->size.pad_height == 1334);
    CHECK(wide->size.width == 1920);
    CHECK(wide->size.height == 640);
    CHECK(wide->reason ==
          "X takes videos of an aspect of 0.33 to 3.00 and at most 1920 pixels on the longer "
          "side; 4000x1000 padded to 4000x1334, scaled to 1920x640");

    const auto tall = fit_video_frame("x", x, 100, 400);
    REQUIRE(tall);
    CHECK(tall->size.pad_width == 134);
    CHECK(tall->size.pad_height == 400);
    CHECK(tall->size.width == 134);
    CHECK(tall->size.height == 400);

    const auto large = fit_video_frame("x", x, 2560, 1440);
    REQUIRE(large);
    CHECK(large->size.pad_width == 2560);
    CHECK(large->size.pad_height == 1440);
    CHECK(large->size.width == 1920);
    CHECK(large->size.height == 1080);
    CHECK(large->reason.ends_with("; 2560x1440 scaled to 1920x1080"));
}

TEST_CASE("a platform that names no frame rules takes every video's frame") {
    const auto& youtube = find_platform("youtube")->limits.media;
    CHECK_FALSE(fit_video_frame("youtube", youtube, 7680, 1080));
}

namespace {

Video video_of(long long bytes, double seconds) {
    Video video;
    video.url = "https://a/clip.mp4";
    video.bytes = bytes;
    video.duration_seconds = seconds;
    return video;
}

}  // namespace

TEST_CASE("a video over Bluesky's 100 MB is re-encoded at the bitrate that fits 90 % of it") {
    const auto& bluesky = find_platform("bluesky")->limits.media;
    CHECK_FALSE(fit_video_bitrate("bluesky", bluesky, video_of(100'000'000, 60)).bitrate);

    const auto fit = fit_video_bitrate("bluesky", bluesky, video_of(125'000'000, 12));
    REQUIRE_FALSE(fit.problem);
    REQUIRE(fit.bitrate);
    // 100 MB x 8 x 0.9 over 12 s, less the 128 kbit/s of sound.
    CHECK(fit.bitrate->video_bits_per_second == 60'000'000 - 128'000);
    CHECK(fit.bitrate->reason ==
          "The video of 125.0 MB is over Bluesky's 100 MB limit; re-encoded at 59872 kbit/s");
}

TEST_CASE("a video no watchable bitrate brings under the limit is MEDIA_TOO_LARGE") {
    const auto& bluesky = find_platform("bluesky")->limits.media;
    auto small = bluesky;
    small.max_video_bytes = 2'000'000;
    const auto blur = fit_video_bitrate("bluesky", small, video_of(8'000'000, 120));
    REQUIRE(blur.problem);
    CHECK((*blur.problem)["code"] == "MEDIA_TOO_LARGE");
    CHECK((*blur.problem)["message"] ==
          "The video of 8.0 MB is over Bluesky's 2 MB limit: over 120 s it would fit only at 0 "
          "kbit/s, under the 150 kbit/s a picture needs.");

    const auto far = fit_video_bitrate("bluesky", bluesky, video_of(400'000'001, 60));
    REQUIRE(far.problem);
    CHECK((*far.problem)["detail"]["max_bytes"] == 100'000'000);

    const auto source = probe("https://a/huge.mp4", "video/mp4", 400'000'001);
    const auto plan = plan_video("bluesky", bluesky, {source});
    REQUIRE(plan.problem);
    CHECK((*plan.problem)["message"] ==
          "The video of 400.0 MB is over Bluesky's 100 MB limit, more than a lower bitrate can "
          "bring it down.");
    CHECK_FALSE(
        plan_video("bluesky", bluesky, {probe("https://a/big.mp4", "video/mp4", 400'000'000)})
            .problem);
}
