// The bulk-post CSV reader follows RFC 4180 (quotes, doubled quotes, line breaks inside quotes,
// CRLF or LF) and turns rows into the post objects the JSON form takes.
#include "common/domain/social/post_csv.hpp"

#include <catch2/catch.hpp>

using squawk::social::csv_posts;
using squawk::social::parse_csv;

TEST_CASE("csv fields may be quoted, contain commas, doubled quotes and line breaks") {
    const auto table = parse_csv("a,b\r\n\"x, \"\"y\"\"\",\"line\nbreak\"\n", 10, 5);
    REQUIRE_FALSE(table.error);
    REQUIRE(table.rows.size() == 2);
    CHECK(table.rows[1][0] == "x, \"y\"");
    CHECK(table.rows[1][1] == "line\nbreak");
}

TEST_CASE("csv empty fields and a last row without a line break are kept") {
    const auto table = parse_csv("a,b,c\n1,,3", 10, 5);
    REQUIRE_FALSE(table.error);
    REQUIRE(table.rows.size() == 2);
    CHECK(table.rows[1] == std::vector<std::string>{"1", "", "3"});
}

TEST_CASE("csv refuses unterminated quotes and text after a closing quote") {
    CHECK(parse_csv("a\n\"open", 10, 5).error);
    CHECK(parse_csv("a\n\"x\"y\n", 10, 5).error);
    CHECK(parse_csv("a\nx\"y\n", 10, 5).error);
}

TEST_CASE("csv refuses more rows or fields than allowed") {
    CHECK(parse_csv("a\n1\n2\n3\n", 3, 5).error);
    CHECK_FALSE(parse_csv("a\n1\n2\n", 3, 5).error);
    CHECK(parse_csv("a,b,c\n", 10, 2).error);
}

TEST_CASE("csv rows become post objects with platforms and media split on spaces or bars") {
    const auto result = csv_posts(
        "Content,platforms,scheduled_time,media_urls\n"
        "hello,telegram|discord,2030-01-01T00:00:00Z,https://a.example/1.png "
        "https://a.example/2.png\n"
        "bye,telegram,,\n",
        50);
    REQUIRE_FALSE(result.error);
    REQUIRE(result.posts.size() == 2);
    CHECK(result.posts[0]["content"] == "hello");
    CHECK(result.posts[0]["platforms"] == nlohmann::json({"telegram", "discord"}));
    CHECK(result.posts[0]["scheduled_time"] == "2030-01-01T00:00:00Z");
    CHECK(result.posts[0]["media_urls"].size() == 2);
    CHECK_FALSE(result.posts[1].contains("scheduled_time"));
    CHECK_FALSE(result.posts[1].contains("media_urls"));
}

TEST_CASE("csv rows carry account ids and platform options as the JSON form does") {
    const auto result = csv_posts(
        "content,account_ids,platform_options\n"
        "\"a reply\",acc_1 acc_2,\"{\"\"x\"\": {\"\"reply_to\"\": \"\"1790\"\"}}\"\n"
        "plain,acc_3,\n",
        50);
    REQUIRE_FALSE(result.error);
    REQUIRE(result.posts.size() == 2);
    CHECK(result.posts[0]["account_ids"] == nlohmann::json({"acc_1", "acc_2"}));
    CHECK(result.posts[0]["platform_options"] == nlohmann::json({{"x", {{"reply_to", "1790"}}}}));
    CHECK_FALSE(result.posts[1].contains("platform_options"));

    const auto bad = csv_posts("content,platform_options\nfirst,\nsecond,[1]\n", 50);
    REQUIRE(bad.error);
    CHECK(bad.error->starts_with("row 2: platform_options must be a JSON object"));
    CHECK(bad.posts.empty());
}

TEST_CASE("csv posts need a known header with content and at least one row") {
    CHECK(csv_posts("", 50).error);
    CHECK(csv_posts("content\n", 50).error);
    CHECK(csv_posts("platforms\ntelegram\n", 50).error);
    CHECK(csv_posts("content,colour\nx,red\n", 50).error);
    CHECK(csv_posts("content,content\nx,y\n", 50).error);
    CHECK(csv_posts("content,platforms\nx\n", 50).error);
}

TEST_CASE("csv posts refuse more than the batch limit") {
    std::string text = "content\n";
    for (int i = 0; i < 51; ++i) text += "post " + std::to_string(i) + "\n";
    CHECK(csv_posts(text, 50).error);
    text = "content\n";
    for (int i = 0; i < 50; ++i) text += "post " + std::to_string(i) + "\n";
    CHECK(csv_posts(text, 50).posts.size() == 50);
}
