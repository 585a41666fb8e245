// The PPTX writer's parts: text escaped so every part stays well-formed, one slide part per page
// listed in presentation.xml, a content type for every part, and a zip libzip reads back.
#include "common/extensions/presentation/pptx_package.hpp"
#include "common/extensions/presentation/xml_text.hpp"
#include "common/extensions/presentation/zip_writer.hpp"

#include <zip.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <vector>

using namespace squawk::presentation;

namespace {

// A structural well-formedness check: tags nest and close in order, attribute values are quoted,
// and every '&' starts one of XML's entities or a character reference.
bool well_formed(const std::string& xml) {
    static const std::regex entity("^&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);");
    std::vector<std::string> open;
    for (size_t at = 0; at < xml.size();) {
        if (xml[at] == '&') {
            std::smatch m;
            const std::string rest = xml.substr(at, 12);
            if (!std::regex_search(rest, m, entity)) return false;
            at += m.length();
        } else if (xml[at] == '<') {
            const size_t end = xml.find('>', at);
            if (end == std::string::npos) return false;
            std::string tag = xml.substr(at + 1, end - at - 1);
            if (std::count(tag.begin(), tag.end(), '"') % 2 != 0) return false;
            if (tag.find('<') != std::string::npos) return false;
            at = end + 1;
            if (tag.front() == '?') continue;
            if (tag.front() == '/') {
                if (open.empty() || open.back() != tag.substr(1)) return false;
                open.pop_back();
            } else if (tag.back() != '/') {
                open.push_back(tag.substr(0, tag.find(' ')));
            }
        } else if (xml[at] == '>') {
            return false;
        } else {
            ++at;
        }
    }
    return open.empty();
}

Deck tricky_deck() {
    Deck deck;
    deck.title = "Fish & <Chips> \"q\" 'a' 🚀";
    deck.colors = colors_for(squawk::generation::PresentationTheme::dark, "#ff5500");
    deck.font = "Noto Sans";
    deck.slides.push_back({"A < B & C", {"x < y", "\"q\" & 'a'", "emoji 🎉"}, std::nullopt});
    deck.slides.push_back({"Picture", {}, SlideImage{"not really a png", "png", 40, 20}});
    deck.slides.push_back({"Control\x01 chars\ttabbed", {"line\nbreak"}, std::nullopt});
    return deck;
}

const PackagePart& part(const std::vector<PackagePart>& parts, const std::string& name) {
    const auto found = std::find_if(parts.begin(), parts.end(),
                                    [&](const PackagePart& p) { return p.name == name; });
    REQUIRE(found != parts.end());
    return *found;
}

size_t occurrences(const std::string& text, const std::string& needle) {
    size_t count = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
        ++count;
    return count;
}

}  // namespace

TEST_CASE("presentation text is escaped, control characters dropped and emoji kept",
          "[unit][presentation]") {
    CHECK(xml_text("<&>\"'") == "&lt;&amp;&gt;&quot;&#39;");
    CHECK(xml_text("a\tb\nc\x01") == "a b c");
    CHECK(xml_text("🚀 ✓") == "🚀 ✓");
}

TEST_CASE("every XML part of a presentation with tricky text is well-formed",
          "[unit][presentation]") {
    for (const auto& p : pptx_parts(tricky_deck())) {
        if (p.name.ends_with(".png")) continue;
        INFO(p.name << "\n" << p.content);
        CHECK(well_formed(p.content));
    }
    CHECK_FALSE(well_formed("<a><b></a></b>"));
    CHECK_FALSE(well_formed("<a>fish & chips</a>"));
}

TEST_CASE("presentation.xml lists a title slide and one slide per requested slide",
          "[unit][presentation]") {
    const auto parts = pptx_parts(tricky_deck());
    const auto& presentation = part(parts, "ppt/presentation.xml").content;
    CHECK(occurrences(presentation, "<p:sldId ") == 4);
    const auto& rels = part(parts, "ppt/_rels/presentation.xml.rels").content;
    for (int n = 1; n <= 4; ++n) {
        const std::string slide = "slides/slide" + std::to_string(n) + ".xml";
        CHECK(rels.find("Target=\"" + slide + "\"") != std::string::npos);
        part(parts, "ppt/" + slide);
        part(parts, "ppt/slides/_rels/slide" + std::to_string(n) + ".xml.rels");
    }
    CHECK(part(parts, "ppt/media/image3.png").content == "not really a png");
    CHECK(part(parts, "ppt/slides/_rels/slide3.xml.rels").content.find("../media/image3.png") !=
          std::string::npos);
    CHECK(part(parts, "ppt/slides/slide2.xml").content.find("A &lt; B &amp; C") !=
          std::string::npos);
}

TEST_CASE("the content types name every part of the presentation package", "[unit][presentation]") {
    const auto parts = pptx_parts(tricky_deck());
    REQUIRE(parts.front().name == "[Content_Types].xml");
    const auto& types = parts.front().content;
    for (size_t i = 1; i < parts.size(); ++i) {
        const auto& name = parts[i].name;
        const auto extension = name.substr(name.rfind('.') + 1);
        INFO(name);
        CHECK((types.find("PartName=\"/" + name + "\"") != std::string::npos ||
               types.find("Extension=\"" + extension + "\"") != std::string::npos));
    }
    CHECK(occurrences(types, "presentationml.slide+xml") == 4);
}

TEST_CASE("the presentation zip holds every part under its name and libzip reads it back",
          "[unit][presentation]") {
    const auto parts = pptx_parts(tricky_deck());
    const auto path = std::filesystem::temp_directory_path() /
                      ("squawk-deck-" + std::to_string(::getpid()) + ".pptx");
    write_zip(parts, path);
    int error = 0;
    zip_t* archive = zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &error);
    REQUIRE(archive != nullptr);
    REQUIRE(zip_get_num_entries(archive, 0) == static_cast<zip_int64_t>(parts.size()));
    for (zip_uint64_t i = 0; i < parts.size(); ++i) {
        CHECK(std::string(zip_get_name(archive, i, 0)) == parts[i].name);
        zip_stat_t stat;
        REQUIRE(zip_stat_index(archive, i, 0, &stat) == 0);
        CHECK(stat.size == parts[i].content.size());
    }
    zip_discard(archive);
    std::filesystem::remove(path);
}
