// Presentations from the outside: a deck made from slides comes back as a PPTX whose every part
// parses, a PDF with a page per slide and a PNG thumbnail per slide; bad requests are refused
// with the fields named and not charged; decks stay in their workspace and a delete removes
// every file.
#include "tests/e2e/deck_files.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/process.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace squawk::testing;

namespace {

const nlohmann::json kIssueExample = {{"title", "Q3"},
                                      {"slides", {{{"title", "Growth"}, {"bullets", {"a", "b"}}}}}};

// Parses every XML part of the zip and prints its part names, one a line; exits 1 on a part
// that is not well-formed.
constexpr const char* kReadPptx = R"(
import sys, zipfile, xml.dom.minidom
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in z.namelist():
        if name.endswith('.xml') or name.endswith('.rels'):
            xml.dom.minidom.parseString(z.read(name))
        print(name)
)";

std::vector<std::string> pptx_parts(const std::string& path) {
    const auto listed = run_command({"python3", "-c", kReadPptx, path});
    INFO(listed.err);
    REQUIRE(listed.exit_code == 0);
    std::vector<std::string> names;
    std::istringstream lines(listed.out);
    for (std::string line; std::getline(lines, line);) names.push_back(line);
    return names;
}

int pdf_pages(const std::string& path) {
    const auto info = run_command({"pdfinfo", path});
    REQUIRE(info.exit_code == 0);
    const auto at = info.out.find("Pages:");
    REQUIRE(at != std::string::npos);
    return std::stoi(info.out.substr(at + 6));
}

// A PNG's width, height and how many distinct colours its pixels have.
constexpr const char* kReadPng = R"(
import sys, zlib, struct
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
w, h, depth, kind = struct.unpack('>IIBB', data[16:26])
at, idat = 8, b''
while at < len(data):
    n, = struct.unpack('>I', data[at:at + 4])
    if data[at + 4:at + 8] == b'IDAT': idat += data[at + 8:at + 8 + n]
    at += 12 + n
print(w, h, len(set(zlib.decompress(idat))))
)";

void check_thumbnail(const std::string& path) {
    const auto read = run_command({"python3", "-c", kReadPng, path});
    INFO(read.err);
    REQUIRE(read.exit_code == 0);
    std::istringstream fields(read.out);
    int width = 0, height = 0, distinct_bytes = 0;
    fields >> width >> height >> distinct_bytes;
    CHECK(width == 640);
    CHECK(height == 360);
    CHECK(distinct_bytes > 8);  // text and a bar drawn, not one flat colour
}

}  // namespace

TEST_CASE("a presentation of the issue's example is a PPTX, a PDF and a thumbnail per slide",
          "[e2e][presentations]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto deck = completed_creation(stack, key, "presentations", kIssueExample);
    CHECK(deck.value("id", "").rfind("prs_", 0) == 0);
    CHECK(deck.value("kind", "") == "presentation");
    CHECK(deck.value("slide_count", 0) == 2);
    CHECK(deck.value("theme", "") == "light");
    CHECK(deck.value("title", "") == "Q3");
    REQUIRE(deck["media"].size() == 4);  // the deck, the PDF, two thumbnails

    const auto pptx =
        saved(stack, "deck.pptx", downloaded_media(stack, key, media_of(deck, "main")));
    const auto parts = pptx_parts(pptx);
    for (const auto* part : {"[Content_Types].xml", "ppt/presentation.xml", "ppt/slides/slide1.xml",
                             "ppt/slides/slide2.xml"})
        CHECK(std::find(parts.begin(), parts.end(), part) != parts.end());
    CHECK(std::find(parts.begin(), parts.end(), "ppt/slides/slide3.xml") == parts.end());
    for (const auto& m : deck["media"])
        if (m.value("role", "") == "main")
            CHECK(m.value("mime_type", "") ==
                  "application/vnd.openxmlformats-officedocument.presentationml.presentation");

    const auto pdf = saved(stack, "deck.pdf", downloaded_media(stack, key, media_of(deck, "pdf")));
    CHECK(pdf_pages(pdf) == 2);
    for (const auto* role : {"thumbnail-1", "thumbnail-2"})
        check_thumbnail(saved(stack, std::string(role) + ".png",
                              downloaded_media(stack, key, media_of(deck, role))));
}

TEST_CASE("a dark presentation with tricky text and a picture keeps every part well-formed",
          "[e2e][presentations]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto card =
        completed_creation(stack, key, "images", {{"template", "title"}, {"title", "Chart"}});
    const nlohmann::json body{
        {"title", "Fish & <Chips> \"quoted\" 'n' 🚀"},
        {"theme", "dark"},
        {"accent_color", "#ff5500"},
        {"slides",
         {{{"title", "A < B & C > D"}, {"bullets", {"x < y", "\"q\" & 'a'", "emoji 🎉 ✓"}}},
          {{"title", "Picture"},
           {"bullets", {"beside the image"}},
           {"image_media_id", card.value("media_id", "")}},
          {{"title", "No bullets"}}}}};
    const auto deck = completed_creation(stack, key, "presentations", body);
    CHECK(deck.value("slide_count", 0) == 4);
    REQUIRE(deck["media"].size() == 6);

    const auto parts =
        pptx_parts(saved(stack, "dark.pptx", downloaded_media(stack, key, media_of(deck, "main"))));
    for (int n = 1; n <= 4; ++n)
        CHECK(std::find(parts.begin(), parts.end(),
                        "ppt/slides/slide" + std::to_string(n) + ".xml") != parts.end());
    CHECK(std::find(parts.begin(), parts.end(), "ppt/media/image3.png") != parts.end());
    CHECK(pdf_pages(
              saved(stack, "dark.pdf", downloaded_media(stack, key, media_of(deck, "pdf")))) == 4);
    check_thumbnail(
        saved(stack, "picture.png", downloaded_media(stack, key, media_of(deck, "thumbnail-3"))));
}

TEST_CASE(
    "presentation requests that cannot be made are refused with the fields named and not "
    "charged",
    "[e2e][presentations]") {
    StackOptions options = without_worker();
    options.extra_config =
        "[billing]\nmonthly_allowance = 0\n\n[billing.prices]\npresentation = 0.5\n";
    Stack stack(options);
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "2");
    const auto& key = tenant.live_key;
    const auto refused = [&](const nlohmann::json& body, const std::string& field) {
        const auto r = stack.request("POST", "/v1/presentations/generate", body, key);
        check_error_envelope(r, 422, "VALIDATION_ERROR");
        INFO(r.body);
        CHECK(r.json["error"]["details"]["fields"].contains(field));
    };
    const nlohmann::json slide{{"title", "S"}};

    refused({{"title", "No slides"}}, "slides");
    refused({{"title", "Empty"}, {"slides", nlohmann::json::array()}}, "slides");
    refused({{"title", "Many"}, {"slides", std::vector<nlohmann::json>(51, slide)}}, "slides");
    refused({{"title", "Bullets"},
             {"slides", {{{"title", "S"}, {"bullets", std::vector<std::string>(11, "b")}}}}},
            "slides[0].bullets");
    refused({{"title", "Blank"}, {"slides", {{{"title", "S"}, {"bullets", {"ok", " "}}}}}},
            "slides[0].bullets[1]");
    refused({{"title", "Theme"}, {"slides", {slide}}, {"theme", "neon"}}, "theme");
    refused({{"title", "Colour"}, {"slides", {slide}}, {"accent_color", "red"}}, "accent_color");
    refused({{"title", "Extra"}, {"slides", {slide}}, {"font", "x"}}, "font");
    refused({{"title", "Extra"}, {"slides", {{{"title", "S"}, {"notes", "x"}}}}},
            "slides[0].notes");
    refused({{"slides", {slide}}}, "title");
    refused({{"title", "Image"},
             {"slides", {{{"title", "S"}, {"image_media_id", "med_000000000000000000000000"}}}}},
            "slides[0].image_media_id");

    // Another workspace's picture is not this one's to use.
    const auto other = stack.create_tenant("other");
    const auto their_media = stack.db().run([&](squawk::db::Session& s) {
        s.execute(
            "INSERT INTO media (public_id, workspace_id, kind, status, mime_type, size_bytes, "
            "storage_path, created_at) VALUES ('med_0123456789abcdef01234567', ?, 'image', "
            "'ready', 'image/png', 10, 'x.png', NOW(6))",
            {other.workspace_id});
        return std::string("med_0123456789abcdef01234567");
    });
    refused({{"title", "Theirs"}, {"slides", {{{"title", "S"}, {"image_media_id", their_media}}}}},
            "slides[0].image_media_id");

    CHECK(balance_total(stack, key) == "2.0000");
    CHECK(stack.count("SELECT COUNT(*) FROM creations") == 0);
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 0);

    const auto accepted = stack.request("POST", "/v1/presentations/generate", kIssueExample, key);
    check_success_envelope(accepted, 202);
    CHECK(accepted.json["usage"]["cost"] == "0.5000");
    CHECK(balance_total(stack, key) == "1.5000");
}

TEST_CASE("presentations are listed, stay in their workspace, and a delete removes every file",
          "[e2e][presentations]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto deck = completed_creation(stack, key, "presentations", kIssueExample);
    const std::string id = deck.value("id", "");

    const auto list = stack.request("GET", "/v1/presentations", nullptr, key);
    check_success_envelope(list, 200);
    REQUIRE(list.json["data"].size() == 1);
    CHECK(list.json["data"][0].value("id", "") == id);

    const auto other = stack.create_tenant("other");
    check_not_found(stack.request("GET", "/v1/presentations/" + id, nullptr, other.test_key));
    check_not_found(stack.request("DELETE", "/v1/presentations/" + id, nullptr, other.test_key));
    CHECK(stack.request("GET", "/v1/presentations", nullptr, other.test_key)
              .json["pagination"]
              .value("total", -1) == 0);

    std::vector<std::filesystem::path> files;
    for (const auto& m : deck["media"]) {
        const auto stored = stack.db().run([&](squawk::db::Session& s) {
            return s.query_one("SELECT storage_path FROM media WHERE public_id = ?",
                               {m.value("media_id", "")});
        });
        REQUIRE(stored);
        files.push_back(std::filesystem::path(stack.media_dir()) / stored->text(0));
        CHECK(std::filesystem::exists(files.back()));
    }
    REQUIRE(files.size() == 4);
    check_success_envelope(stack.request("DELETE", "/v1/presentations/" + id, nullptr, key), 200);
    for (const auto& f : files) CHECK_FALSE(std::filesystem::exists(f));
    check_not_found(stack.request("GET", "/v1/presentations/" + id, nullptr, key));
}
