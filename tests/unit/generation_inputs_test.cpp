// What generation makes of its inputs before any provider runs: articles' Markdown as safe HTML,
// titles and word counts, the content policy, and requests kept as job payloads.
#include "common/domain/generation/article_request.hpp"
#include "common/domain/generation/content_policy.hpp"
#include "common/domain/generation/image_request_json.hpp"
#include "common/domain/generation/markdown_html.hpp"

#include <catch2/catch.hpp>

using namespace squawk::generation;

TEST_CASE("markdown becomes headings, paragraphs, lists, quotes and code", "[unit][generation]") {
    const std::string html = markdown_to_html(
        "# Title\n\nFirst line\ncontinues here.\n\n## Part\n- one\n- **two**\n\n1. first\n2. "
        "second\n\n> said *once*\n\n```\nint x = 1 < 2;\n```\n");
    CHECK(html ==
          "<h1>Title</h1>\n<p>First line continues here.</p>\n<h2>Part</h2>\n<ul>\n<li>one</li>\n"
          "<li><strong>two</strong></li>\n</ul>\n<ol>\n<li>first</li>\n<li>second</li>\n</ol>\n"
          "<blockquote>\n<p>said <em>once</em></p>\n</blockquote>\n<pre><code>int x = 1 &lt; "
          "2;\n</code></pre>\n");
}

TEST_CASE("markdown from a model cannot place markup or script links in the page",
          "[unit][generation]") {
    const std::string html = markdown_to_html(
        "<script>alert(1)</script> [a](javascript:alert(1)) [b](https://x.test/?q=\"><i>) "
        "<img src=x onerror=y>");
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("<img") == std::string::npos);
    CHECK(html.find("href=\"javascript") == std::string::npos);
    CHECK(html.find("&lt;script&gt;") != std::string::npos);
    CHECK(html.find("<a href=\"https://x.test/?q=&quot;&gt;&lt;i&gt;\">b</a>") !=
          std::string::npos);
}

TEST_CASE("an article's title is its first top heading and its words are counted in any script",
          "[unit][generation]") {
    const auto a = read_article(
        "# Durable queues\n\nThey **never** lose work. Don't panic — "
        "очереди 持久\n\n- well-known fact",
        "fallback");
    CHECK(a.title == "Durable queues");
    CHECK(a.word_count == 12);
    CHECK(a.html.rfind("<h1>Durable queues</h1>", 0) == 0);
    CHECK(read_article("No heading here.", "The topic").title == "The topic");
}

TEST_CASE("the content policy refuses blocked words as whole words and blocked patterns",
          "[unit][generation]") {
    squawk::config::ContentPolicySettings settings;
    settings.blocked_words = {"Casino", "крипто"};
    settings.blocked_patterns = {"free\\s+money"};
    const ContentPolicy policy(settings);
    CHECK(policy.violation("Visit the CASINO tonight") == std::optional<std::string>("casino"));
    CHECK_FALSE(policy.violation("casinos are a different word"));
    CHECK(policy.violation("лучшее крипто тут").has_value());
    CHECK(policy.violation("Get FREE   money now") == std::optional<std::string>("free\\s+money"));
    CHECK_FALSE(policy.violation("An article about durable queues"));
}

TEST_CASE("an article request survives the job payload and bad payloads name the field",
          "[unit][generation]") {
    ArticleRequest r;
    r.topic = "Why durable queues matter";
    r.length = ArticleLength::long_form;
    r.keywords = {"redis", "mysql"};
    r.outline = false;
    const auto back = ArticleRequest::from_json(r.to_json());
    CHECK(back.topic == r.topic);
    CHECK(back.length == ArticleLength::long_form);
    CHECK(back.keywords == r.keywords);
    CHECK_FALSE(back.outline);
    CHECK_THROWS_WITH(ArticleRequest::from_json({{"tone", "friendly"}}),
                      "topic or prompt is required");
    CHECK_THROWS_WITH(ArticleRequest::from_json({{"topic", "x"}, {"length", "epic"}}),
                      Catch::Contains("length"));

    const auto messages = article_messages(back);
    REQUIRE(messages.size() == 2);
    CHECK(messages[0].role == "system");
    CHECK(messages[0].content.find("1600 words") != std::string::npos);
    CHECK(messages[1].content.find("Why durable queues matter") != std::string::npos);
    CHECK(messages[1].content.find("Use these keywords naturally: redis, mysql.") !=
          std::string::npos);
}

TEST_CASE("an image request survives the job payload with only what was set",
          "[unit][generation]") {
    ImageRequest r;
    r.template_name = "list";
    r.size = {1200, 628};
    r.format = ImageFormat::jpeg;
    r.items = {"one", "two"};
    r.background = {"#112233", "#445566"};
    const auto payload = to_json(r);
    CHECK(payload == nlohmann::json{{"template", "list"},
                                    {"size", "1200x628"},
                                    {"format", "jpeg"},
                                    {"items", {"one", "two"}},
                                    {"background", {"#112233", "#445566"}}});
    const auto back = image_request_from_json(payload);
    CHECK(back.size.width == 1200);
    CHECK(back.size.height == 628);
    CHECK(back.format == ImageFormat::jpeg);
    CHECK(back.items == r.items);
    CHECK_FALSE(parse_image_size("1000x1000"));
    CHECK_THROWS_AS(image_request_from_json({{"size", "1x1"}, {"format", "png"}}),
                    std::invalid_argument);
}
