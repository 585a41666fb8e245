// The dashboard's template renderer: every value escaped, sections, partials, and each embedded
// template rendering without error.
#include "api/dashboard/files.hpp"
#include "api/dashboard/form.hpp"
#include "api/dashboard/template.hpp"
#include "common/core/error/api_error.hpp"

#include <catch2/catch.hpp>

using namespace squawk::api::dashboard;

TEST_CASE("dashboard templates escape every value, in text and in attributes") {
    const nlohmann::json data = {{"name", "<script>alert('x')</script> & \"friends\""}};
    CHECK(render("<p title=\"{{name}}\">{{ name }}</p>", data) ==
          "<p title=\"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;friends&quot;\">"
          "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;friends&quot;</p>");
    CHECK(render("{{n}}|{{yes}}|{{missing}}|{{nothing}}",
                 {{"n", 42}, {"yes", true}, {"nothing", nullptr}}) == "42|true||");
}

TEST_CASE("dashboard template values cannot open tags or sections of their own") {
    CHECK(render("{{v}}", {{"v", "{{#x}}{{>page}}"}}) == "{{#x}}{{&gt;page}}");
}

TEST_CASE("dashboard template sections repeat over lists, enter objects and test truth") {
    const nlohmann::json data = {{"keys", {{{"prefix", "a"}}, {{"prefix", "b<"}}}},
                                 {"user", {{"email", "e@x"}}},
                                 {"on", true},
                                 {"off", false},
                                 {"empty", nlohmann::json::array()},
                                 {"tags", {"x", "y"}},
                                 {"title", "T"}};
    CHECK(render("{{#keys}}[{{prefix}} {{title}}]{{/keys}}", data) == "[a T][b&lt; T]");
    CHECK(render("{{#user}}{{email}}{{/user}}", data) == "e@x");
    CHECK(render("{{#on}}1{{/on}}{{#off}}2{{/off}}{{^off}}3{{/off}}{{^empty}}4{{/empty}}", data) ==
          "134");
    CHECK(render("{{#tags}}<{{.}}>{{/tags}}", data) == "<x><y>");
    CHECK(render("{{#note}}[{{note}}]{{/note}}{{^note}}none{{/note}}", {{"note", ""}}) == "none");
    CHECK(render("{{#note}}[{{note}}]{{/note}}", {{"note", "n"}}) == "[n]");
    CHECK(render("{{#keys}}{{#on}}+{{/on}}{{/keys}}", data) == "++");
    CHECK(render("a{{! a note }}b", data) == "ab");
}

TEST_CASE("dashboard template partials render in the caller's context") {
    CHECK(render("<main>{{>page}}</main>", {{"x", "<1>"}}, {{"page", "x={{x}}"}}) ==
          "<main>x=&lt;1&gt;</main>");
}

TEST_CASE("a malformed dashboard template is refused") {
    CHECK_THROWS_AS(render("{{x", {}), std::logic_error);
    CHECK_THROWS_AS(render("{{#a}}b", {}), std::logic_error);
    CHECK_THROWS_AS(render("{{#a}}b{{/c}}", {}), std::logic_error);
    CHECK_THROWS_AS(render("b{{/a}}", {}), std::logic_error);
    CHECK_THROWS_AS(render("{{>nowhere}}", {}), std::logic_error);
    CHECK_THROWS_AS(render("{{>self}}", {}, {{"self", "{{>self}}"}}), std::logic_error);
}

TEST_CASE("every embedded dashboard template renders inside the layout") {
    const auto layout = embedded_file("layout.html");
    REQUIRE(layout);
    int pages = 0;
    for (const auto& f : squawk::embedded::dashboard_files()) {
        if (!f.name.ends_with(".html") || f.name == "layout.html") continue;
        ++pages;
        INFO(f.name);
        const auto html =
            render(*layout, {{"title", "t"}, {"signed_in", true}}, {{"page", f.text}});
        CHECK(html.starts_with("<!doctype html>"));
        // Scripts come only as files of the dashboard's own assets: CSP refuses inline ones.
        for (size_t at = html.find("<script"); at != std::string::npos;
             at = html.find("<script", at + 1)) {
            const std::string tag = html.substr(at, html.find('>', at) - at);
            CHECK(tag.find(" src=\"/dashboard/assets/") != std::string::npos);
            CHECK(html.compare(html.find('>', at) + 1, 9, "</script>") == 0);
        }
        CHECK(html.find(" style=") == std::string::npos);
    }
    CHECK(pages >= 4);
}

TEST_CASE("dashboard form bodies are decoded with repeated fields kept in order") {
    const auto fields = parse_form("email=a%40b.example&scopes=jobs%3Aread&scopes=*&note=x+y&flag");
    REQUIRE(fields.size() == 5);
    CHECK(fields[0] == std::pair<std::string, std::string>{"email", "a@b.example"});
    CHECK(fields[1].second == "jobs:read");
    CHECK(fields[2].second == "*");
    CHECK(fields[3].second == "x y");
    CHECK(fields[4] == std::pair<std::string, std::string>{"flag", ""});
    CHECK_THROWS_AS(parse_form("a=%zz"), squawk::ApiError);
    CHECK_THROWS_AS(parse_form("a=%ff"), squawk::ApiError);
    std::string many;
    for (size_t i = 0; i <= kMaxFormFields; ++i) many += "a=1&";
    CHECK_THROWS_AS(parse_form(many), squawk::ApiError);
}
