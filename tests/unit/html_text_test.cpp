// The readable text of a web page an article is grounded on: what a reader sees, in order, with
// hidden parts, markup and entities gone and whitespace collapsed, never longer than asked.
#include "common/domain/generation/html_text.hpp"

#include <catch2/catch.hpp>

using squawk::generation::html_text;
using squawk::generation::plain_text;

TEST_CASE("page text keeps what a reader sees and drops scripts, styles and navigation",
          "[unit][generation]") {
    const std::string page = R"(<!DOCTYPE html>
<html><head><title>Tide pools</title><style>p { color: red }</style>
<script type="text/javascript">var x = "<p>not text</p>";</script></head>
<body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<!-- a comment <p>hidden</p> -->
<h1>Life   between
tides</h1><p>Crabs <em>hide</em> under <a href="#">rocks</a>.</p>
<ul><li>Anemones</li><li>Starfish</li></ul>
<noscript>Enable JavaScript</noscript><SCRIPT>alert(1)</SCRIPT >Done.<br/>End
</body></html>)";
    CHECK(html_text(page, 10000) ==
          "Tide pools\nLife between tides\nCrabs hide under rocks.\nAnemones\nStarfish\nDone.\n"
          "End");
}

TEST_CASE("page text decodes character references and keeps unknown ones as written",
          "[unit][generation]") {
    CHECK(html_text("Fish &amp; chips &lt;3 &quot;q&quot; &#39;a&#x27; caf&#233;", 100) ==
          "Fish & chips <3 \"q\" 'a' café");
    CHECK(html_text("a&nbsp;&nbsp;b &mdash; c&hellip;", 100) == "a b \u2014 c\u2026");
    CHECK(html_text("&bogus; & &#xD800; &#0; &#x110000; &#99999999999;", 100) ==
          "&bogus; & \uFFFD \uFFFD \uFFFD &#99999999999;");
}

TEST_CASE("page text is cut at the cap on a character boundary", "[unit][generation]") {
    CHECK(html_text("<p>abcdef</p>", 4) == "abcd");
    CHECK(html_text("ééé", 3) == "é");
    CHECK(html_text("ab <p>cd", 3) == "ab");
    CHECK(html_text("", 10).empty());
    CHECK(html_text("<p> </p><div>\n</div>", 10).empty());
}

TEST_CASE("unterminated markup ends the page text instead of leaking it", "[unit][generation]") {
    CHECK(html_text("Visible<script>never closed", 100) == "Visible");
    CHECK(html_text("Visible<!-- open comment", 100) == "Visible");
    CHECK(html_text("Visible<p class=\"x", 100) == "Visible");
    CHECK(html_text("1 < 2 and 3<>4", 100) == "1 < 2 and 3<>4");
}

TEST_CASE("plain page text keeps paragraphs and joins wrapped lines", "[unit][generation]") {
    CHECK(plain_text("First line\nwrapped here.\n\n\nSecond\tparagraph.\x01\n", 100) ==
          "First line wrapped here.\nSecond paragraph.");
    CHECK(plain_text("abcdef", 3) == "abc");
}
