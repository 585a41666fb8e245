// Per-platform post rules as data from the connectors: Telegram text, caption and album limits,
// Discord text and image limits, WhatsApp refused, and soft warnings keyed by platform.
#include "common/domain/social/post_validation.hpp"

#include <catch2/catch.hpp>

using namespace squawk::social;

namespace {

LimitsTable limits() {
    LimitsTable table;
    PlatformLimits telegram;
    telegram.max_text_chars = 4096;
    telegram.max_caption_chars = 1024;
    telegram.min_album_items = 2;
    telegram.max_album_items = 10;
    telegram.max_images = 10;
    table["telegram"] = telegram;
    PlatformLimits discord;
    discord.max_text_chars = 2000;
    discord.max_caption_chars = 2000;
    discord.max_images = 10;
    table["discord"] = discord;
    PlatformLimits whatsapp;
    whatsapp.can_publish = false;
    table["whatsapp"] = whatsapp;
    return table;
}

PostInput text_post(size_t chars) {
    PostInput in;
    in.content = std::string(chars, 'x');
    return in;
}

}  // namespace

TEST_CASE("telegram takes 4096 characters of text and 1024 with media") {
    CHECK(review_for_platforms(text_post(4096), {"telegram"}, limits()).problems.empty());
    CHECK(review_for_platforms(text_post(4097), {"telegram"}, limits()).problems.count("content"));
    auto with_image = text_post(1025);
    with_image.media_urls = {"https://img.example/a.png"};
    CHECK(review_for_platforms(with_image, {"telegram"}, limits()).problems.count("content"));
}

TEST_CASE("text length counts Unicode characters, not bytes") {
    PostInput in;
    for (int i = 0; i < 2000; ++i) in.content += "\xC3\xA9";  // é, two bytes
    CHECK(review_for_platforms(in, {"discord"}, limits()).problems.empty());
    in.content += "x";
    CHECK(review_for_platforms(in, {"discord"}, limits()).problems.count("content"));
}

TEST_CASE("x counts a post's characters as X weighs them: a link as 23, CJK as 2") {
    PostInput cjk;
    for (int i = 0; i < 141; ++i) cjk.content += "\u6f22";
    const auto refused = review_for_platforms(cjk, {"x"}, known_limits());
    REQUIRE(refused.problems.count("content"));
    CHECK(refused.problems.at("content") ==
          "x allows at most 280 characters (this content has 282)");
    cjk.content.resize(cjk.content.size() - 3);
    CHECK(review_for_platforms(cjk, {"x"}, known_limits()).problems.empty());

    PostInput linked;
    linked.content = std::string(250, 'a') + " https://example.com/" + std::string(200, 'p');
    CHECK(review_for_platforms(linked, {"x"}, known_limits()).problems.empty());
}

TEST_CASE("instagram refuses a caption of more than 30 hashtags when the post is created") {
    PostInput post;
    post.media_urls = {"https://media.example/a.jpg"};
    for (int i = 0; i < 30; ++i) post.content += "#tag" + std::to_string(i) + " ";
    CHECK(review_for_platforms(post, {"instagram"}, known_limits()).problems.empty());
    post.content += "#one_more";
    const auto refused = review_for_platforms(post, {"instagram"}, known_limits());
    REQUIRE(refused.problems.count("content"));
    CHECK(refused.problems.at("content") ==
          "Instagram captions have at most 30 hashtags (this one has 31)");
}

TEST_CASE("a story or a reel carries one media item, refused otherwise when the post is created") {
    PostInput story;
    story.content = "Today";
    story.platform_options = {{"facebook", {{"post_type", "story"}}},
                              {"instagram", {{"post_type", "reel"}}}};
    story.media_urls = {"https://media.example/a.jpg"};
    CHECK(review_for_platforms(story, {"facebook", "instagram"}, known_limits()).problems.empty());

    story.media_urls.push_back("https://media.example/b.jpg");
    const auto two = review_for_platforms(story, {"facebook", "instagram"}, known_limits());
    REQUIRE(two.problems.count("media_urls"));
    CHECK(two.problems.at("media_urls") ==
          "a story on Facebook carries one photo or one video; this post has 2 media items; a "
          "reel on Instagram carries one video; this post has 2 media items");

    story.media_urls.clear();
    const auto none = review_for_platforms(story, {"facebook"}, known_limits());
    REQUIRE(none.problems.count("media_urls"));
    CHECK(none.problems.at("media_urls") ==
          "a story on Facebook carries one photo or one video; this post has 0 media items");

    // A Facebook post of several photos stays an album.
    PostInput album;
    album.media_urls = {"https://media.example/a.jpg", "https://media.example/b.jpg"};
    CHECK(review_for_platforms(album, {"facebook"}, known_limits()).problems.empty());
}

TEST_CASE("discord takes 2000 characters and at most 10 images") {
    CHECK(review_for_platforms(text_post(2001), {"discord"}, limits()).problems.count("content"));
    auto many = text_post(10);
    for (int i = 0; i < 11; ++i)
        many.media_urls.push_back("https://img.example/" + std::to_string(i));
    CHECK(review_for_platforms(many, {"discord"}, limits()).problems.count("media_urls"));
}

TEST_CASE("whatsapp accounts cannot publish and the problem names the platform") {
    const auto review = review_for_platforms(text_post(10), {"whatsapp"}, limits());
    REQUIRE(review.problems.count("platforms"));
    CHECK(review.problems.at("platforms").find("whatsapp") != std::string::npos);
}

TEST_CASE("options for a platform the post does not go to are refused by name") {
    auto in = text_post(10);
    in.platform_options = {{"discord", nlohmann::json::object()}};
    CHECK(review_for_platforms(in, {"telegram"}, limits())
              .problems.count("platform_options.discord"));
}

TEST_CASE("a scheduled post needs a time for every platform without the top-level one") {
    auto in = text_post(10);
    in.time_required = true;
    in.platform_times["telegram"] = squawk::time::now();
    CHECK(review_for_platforms(in, {"telegram"}, limits()).problems.empty());
    CHECK(review_for_platforms(in, {"telegram", "discord"}, limits())
              .problems.count("scheduled_time"));
}

TEST_CASE("a link with images is accepted with a warning keyed by platform") {
    auto in = text_post(10);
    in.link = "https://example.com/article";
    in.media_urls = {"https://img.example/a.png"};
    const auto review = review_for_platforms(in, {"telegram"}, limits());
    CHECK(review.problems.empty());
    CHECK(review.warnings.contains("telegram"));
}

TEST_CASE("post links are http or https URLs with a host and media links are https") {
    CHECK(is_web_url("https://example.com/a?b=c#frag", false));
    CHECK(is_web_url("http://example.com", false));
    CHECK_FALSE(is_web_url("http://example.com", true));
    CHECK_FALSE(is_web_url("ftp://example.com", false));
    CHECK_FALSE(is_web_url("https://", false));
    CHECK_FALSE(is_web_url("example.com", false));
    CHECK_FALSE(is_web_url("https://exa mple.com", false));
    CHECK_FALSE(is_web_url("javascript:alert(1)", false));
}
