// The local card renderer: real PNG and JPEG files of every template at every size, text in
// every script the installed fonts cover, and the problems check() names before a job starts.
#include "common/extensions/providers/cards/cards_provider.hpp"
#include "common/domain/generation/provider_error.hpp"
#include "common/extensions/providers/cards/card_cairo.hpp"
#include "common/extensions/providers/cards/card_text.hpp"
#include "tests/support/provider_calls.hpp"

#include <catch2/catch.hpp>

#include <jpeglib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

using namespace squawk;
namespace stdfs = std::filesystem;
using generation::ImageFormat;
using generation::ImageRequest;
using generation::ImageSize;

namespace {

class OutputDir {
  public:
    OutputDir()
        : path_(stdfs::temp_directory_path() /
                ("cards-provider-test-" + std::to_string(::getpid()))) {
        stdfs::create_directories(path_);
    }
    ~OutputDir() { stdfs::remove_all(path_); }
    stdfs::path file(const std::string& name) const { return path_ / name; }

  private:
    stdfs::path path_;
};

providers::cards::CardsProvider cards() {
    return providers::cards::CardsProvider(config::CardsSettings{});
}

// A request the template accepts, with every field it draws.
ImageRequest card(const std::string& name, ImageSize size = {1080, 1080}) {
    ImageRequest request;
    request.template_name = name;
    request.size = size;
    if (name == "title") {
        request.title = "Launch week: everything we shipped";
        request.subtitle = "Five days, five features, one very tired team";
    } else if (name == "quote") {
        request.text = "Simplicity is prerequisite for reliability.";
        request.author = "Edsger W. Dijkstra";
    } else if (name == "list") {
        request.title = "Before you post";
        request.items = {"Check the link", "Add alt text to images", "Pick the right hour"};
    } else if (name == "stat") {
        request.value = "42%";
        request.label = "of posts go out in the best slot";
    }
    return request;
}

std::string read_bytes(const stdfs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int big_endian(const std::string& bytes, std::size_t at, int count) {
    int value = 0;
    for (int i = 0; i < count; ++i) value = value * 256 + static_cast<unsigned char>(bytes[at + i]);
    return value;
}

// Width and height from the PNG's IHDR chunk, which must come first.
ImageSize png_size(const std::string& png) {
    REQUIRE(png.size() > 24);
    REQUIRE(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    REQUIRE(png.compare(12, 4, "IHDR") == 0);
    return {big_endian(png, 16, 4), big_endian(png, 20, 4)};
}

// Width and height from the baseline frame header (SOF0) of a JPEG.
ImageSize jpeg_sof0_size(const std::string& jpeg) {
    REQUIRE(jpeg.size() > 4);
    REQUIRE(static_cast<unsigned char>(jpeg[0]) == 0xFF);
    REQUIRE(static_cast<unsigned char>(jpeg[1]) == 0xD8);
    std::size_t at = 2;
    while (at + 9 < jpeg.size()) {
        REQUIRE(static_cast<unsigned char>(jpeg[at]) == 0xFF);
        const auto marker = static_cast<unsigned char>(jpeg[at + 1]);
        if (marker == 0xC0) return {big_endian(jpeg, at + 7, 2), big_endian(jpeg, at + 5, 2)};
        at += 2 + static_cast<std::size_t>(big_endian(jpeg, at + 2, 2));
    }
    FAIL("no SOF0 marker");
    return {};
}

// Decodes the whole JPEG; its size as libjpeg reads it.
ImageSize decoded_jpeg_size(const std::string& jpeg) {
    jpeg_decompress_struct info{};
    jpeg_error_mgr errors{};
    info.err = jpeg_std_error(&errors);
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, reinterpret_cast<const unsigned char*>(jpeg.data()), jpeg.size());
    REQUIRE(jpeg_read_header(&info, TRUE) == JPEG_HEADER_OK);
    jpeg_start_decompress(&info);
    std::vector<unsigned char> row(static_cast<std::size_t>(info.output_width) *
                                   info.output_components);
    while (info.output_scanline < info.output_height) {
        JSAMPROW rows[] = {row.data()};
        jpeg_read_scanlines(&info, rows, 1);
    }
    const ImageSize size{static_cast<int>(info.output_width), static_cast<int>(info.output_height)};
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return size;
}

struct PixelCounts {
    std::size_t distinct = 0;
    std::size_t near_white = 0;
    std::size_t total = 0;
};

PixelCounts count_pixels(const stdfs::path& png) {
    const providers::cards::SurfacePtr surface(cairo_image_surface_create_from_png(png.c_str()));
    REQUIRE(cairo_surface_status(surface.get()) == CAIRO_STATUS_SUCCESS);
    const int width = cairo_image_surface_get_width(surface.get());
    const int height = cairo_image_surface_get_height(surface.get());
    const int stride = cairo_image_surface_get_stride(surface.get());
    const unsigned char* data = cairo_image_surface_get_data(surface.get());
    std::set<std::uint32_t> colors;
    PixelCounts counts;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            std::uint32_t pixel;
            std::memcpy(&pixel, data + y * stride + 4 * x, sizeof pixel);
            pixel &= 0xFFFFFF;
            colors.insert(pixel);
            if ((pixel >> 16 & 0xFF) > 200 && (pixel >> 8 & 0xFF) > 200 && (pixel & 0xFF) > 200)
                ++counts.near_white;
            ++counts.total;
        }
    counts.distinct = colors.size();
    return counts;
}

std::vector<std::string> fields_of(const std::vector<generation::FieldProblem>& problems) {
    std::vector<std::string> fields;
    for (const auto& problem : problems) fields.push_back(problem.field);
    return fields;
}

bool names(const std::vector<generation::FieldProblem>& problems, const std::string& field) {
    const auto fields = fields_of(problems);
    return std::find(fields.begin(), fields.end(), field) != fields.end();
}

const std::string kTemplates[] = {"title", "quote", "list", "stat"};

}  // namespace

TEST_CASE("cards lists its four templates and no models") {
    const auto provider = cards();
    CHECK(provider.templates() == std::vector<std::string>{"title", "quote", "list", "stat"});
    CHECK(provider.models().empty());
}

TEST_CASE("cards writes a PNG of the requested size for every template and size") {
    const auto provider = cards();
    const OutputDir dir;
    for (const auto& name : kTemplates)
        for (const auto& size : generation::kImageSizes) {
            INFO(name << " " << size.width << "x" << size.height);
            const auto request = card(name, size);
            REQUIRE(provider.check(request).empty());
            testing::DirectCalls calls;
            const auto output = dir.file(name + ".png");
            const auto image = provider.generate(request, output, calls);
            CHECK(image.width == size.width);
            CHECK(image.height == size.height);
            CHECK(image.mime_type == "image/png");
            CHECK(image.model == name);
            const auto written = png_size(read_bytes(output));
            CHECK(written.width == size.width);
            CHECK(written.height == size.height);
            // A gradient, anti-aliased text and the accent shapes: far from a blank fill.
            CHECK(count_pixels(output).distinct > 200);
        }
}

TEST_CASE("cards draws the text of every template in the text colour") {
    const auto provider = cards();
    const OutputDir dir;
    for (const auto& name : kTemplates) {
        INFO(name);
        auto request = card(name);
        request.background = {"#000000"};
        request.text_color = "#ffffff";
        request.accent_color = "#202020";
        testing::DirectCalls calls;
        const auto output = dir.file(name + ".png");
        provider.generate(request, output, calls);
        // Only the text is near white on this black card; a few short lines cover well over a
        // half percent of it.
        const auto counts = count_pixels(output);
        CHECK(counts.near_white > counts.total / 200);
    }
}

TEST_CASE("cards writes a JPEG with the requested size that decodes") {
    const auto provider = cards();
    const OutputDir dir;
    for (const auto& size : generation::kImageSizes) {
        INFO(size.width << "x" << size.height);
        auto request = card("stat", size);
        request.format = ImageFormat::jpeg;
        testing::DirectCalls calls;
        const auto output = dir.file("stat.jpg");
        const auto image = provider.generate(request, output, calls);
        CHECK(image.mime_type == "image/jpeg");
        const std::string jpeg = read_bytes(output);
        const auto framed = jpeg_sof0_size(jpeg);
        CHECK(framed.width == size.width);
        CHECK(framed.height == size.height);
        const auto decoded = decoded_jpeg_size(jpeg);
        CHECK(decoded.width == size.width);
        CHECK(decoded.height == size.height);
    }
}

TEST_CASE("cards shapes Latin, Cyrillic, Arabic, CJK and emoji without missing glyphs") {
    const std::string samples[] = {"Hello, world", "Привет мир", "مرحبا بالعالم", "你好，世界",
                                   "🚀✨"};
    const auto provider = cards();
    const OutputDir dir;
    for (const auto& sample : samples) {
        INFO(sample);
        CHECK(providers::cards::unknown_glyphs(sample, config::CardsSettings{}.font) == 0);
        for (const auto& name : kTemplates) {
            auto request = card(name);
            if (name == "title") request.title = sample;
            if (name == "quote") request.text = sample;
            if (name == "list") request.items = {sample, sample + " " + sample};
            if (name == "stat") request.label = sample;
            testing::DirectCalls calls;
            const auto output = dir.file(name + ".png");
            provider.generate(request, output, calls);
            CHECK(png_size(read_bytes(output)).width == 1080);
        }
    }
}

TEST_CASE("cards reports the glyphs no font has") {
    // U+10FFFD is a private-use code point no installed font draws.
    CHECK(providers::cards::unknown_glyphs("a\xF4\x8F\xBF\xBD", "Noto Sans") == 1);
}

TEST_CASE("cards fits the longest fields it accepts on the smallest card") {
    const auto provider = cards();
    const OutputDir dir;
    auto request = card("quote", {1200, 628});
    request.text = std::string(400, 'w');
    request.author = std::string(80, 'a');
    REQUIRE(provider.check(request).empty());
    testing::DirectCalls calls;
    provider.generate(request, dir.file("long.png"), calls);
    auto list = card("list", {1200, 628});
    list.title = std::string(120, 'T');
    list.items.assign(8, std::string(120, 'i'));
    REQUIRE(provider.check(list).empty());
    provider.generate(list, dir.file("long-list.png"), calls);
    CHECK(png_size(read_bytes(dir.file("long-list.png"))).height == 628);
}

TEST_CASE("cards accepts a request with every field its template draws") {
    const auto provider = cards();
    for (const auto& name : kTemplates) {
        auto request = card(name);
        request.background = {"#112233", "#AABBCC", "#ffffff"};
        request.text_color = "#000000";
        request.accent_color = "#ff8800";
        CHECK(provider.check(request).empty());
    }
}

TEST_CASE("cards names an unknown or missing template") {
    const auto provider = cards();
    auto request = card("title");
    request.template_name = "poster";
    CHECK(fields_of(provider.check(request)) == std::vector<std::string>{"template"});
    request.template_name.clear();
    CHECK(fields_of(provider.check(request)) == std::vector<std::string>{"template"});
}

TEST_CASE("cards names each template's missing required fields") {
    const auto provider = cards();
    auto title = card("title");
    title.title = "   ";
    CHECK(fields_of(provider.check(title)) == std::vector<std::string>{"title"});
    auto quote = card("quote");
    quote.text.clear();
    CHECK(fields_of(provider.check(quote)) == std::vector<std::string>{"text"});
    auto list = card("list");
    list.items.clear();
    CHECK(fields_of(provider.check(list)) == std::vector<std::string>{"items"});
    auto stat = card("stat");
    stat.value.clear();
    stat.label.clear();
    CHECK(fields_of(provider.check(stat)) == std::vector<std::string>{"value", "label"});
}

TEST_CASE("cards leaves optional fields out without a problem") {
    const auto provider = cards();
    auto title = card("title");
    title.subtitle.clear();
    CHECK(provider.check(title).empty());
    auto quote = card("quote");
    quote.author.clear();
    CHECK(provider.check(quote).empty());
    auto list = card("list");
    list.title.clear();
    CHECK(provider.check(list).empty());
}

TEST_CASE("cards names fields longer than their limit, counted in characters") {
    const auto provider = cards();
    auto title = card("title");
    title.title = std::string(121, 'x');
    CHECK(fields_of(provider.check(title)) == std::vector<std::string>{"title"});
    // 120 Cyrillic letters are 240 bytes and still within the limit.
    std::string cyrillic;
    for (int i = 0; i < 120; ++i) cyrillic += "Ж";
    title.title = cyrillic;
    CHECK(provider.check(title).empty());

    auto quote = card("quote");
    quote.text = std::string(401, 'x');
    CHECK(fields_of(provider.check(quote)) == std::vector<std::string>{"text"});
    config::CardsSettings roomy;
    roomy.max_text_chars = 500;
    CHECK(providers::cards::CardsProvider(roomy).check(quote).empty());

    auto stat = card("stat");
    stat.value = std::string(17, '9');
    stat.label = std::string(121, 'x');
    CHECK(fields_of(provider.check(stat)) == std::vector<std::string>{"value", "label"});
}

TEST_CASE("cards names list items that are missing, empty, too many or too long") {
    const auto provider = cards();
    auto list = card("list");
    list.items = {"one", "", std::string(121, 'x')};
    CHECK(fields_of(provider.check(list)) == std::vector<std::string>{"items[1]", "items[2]"});
    list.items.assign(9, "item");
    CHECK(fields_of(provider.check(list)) == std::vector<std::string>{"items"});
    list.items.assign(8, "item");
    CHECK(provider.check(list).empty());
}

TEST_CASE("cards names text that is not UTF-8") {
    const auto provider = cards();
    auto title = card("title");
    title.title = "caf\xE9";
    CHECK(fields_of(provider.check(title)) == std::vector<std::string>{"title"});
}

TEST_CASE("cards names fields the template does not draw") {
    const auto provider = cards();
    auto stat = card("stat");
    stat.title = "A heading";
    stat.items = {"an item"};
    CHECK(fields_of(provider.check(stat)) == std::vector<std::string>{"title", "items"});
}

TEST_CASE("cards names colours that are not #rrggbb and too many background colours") {
    const auto provider = cards();
    auto request = card("title");
    request.background = {"#123456", "red", "#12345g"};
    request.text_color = "#fff";
    request.accent_color = "123456";
    CHECK(fields_of(provider.check(request)) ==
          std::vector<std::string>{"background[1]", "background[2]", "text_color", "accent_color"});
    request = card("title");
    request.background.assign(4, "#000000");
    CHECK(fields_of(provider.check(request)) == std::vector<std::string>{"background"});
}

TEST_CASE("cards names a size the API does not offer") {
    const auto provider = cards();
    CHECK(fields_of(provider.check(card("title", {1024, 1024}))) ==
          std::vector<std::string>{"size"});
    CHECK(fields_of(provider.check(card("title", {628, 1200}))) ==
          std::vector<std::string>{"size"});
}

TEST_CASE("cards refuses a prompt and a model") {
    const auto provider = cards();
    auto request = card("title");
    request.prompt = "a cat in space";
    request.model = "dall-e";
    const auto problems = provider.check(request);
    CHECK(names(problems, "prompt"));
    CHECK(names(problems, "model"));
}

TEST_CASE("cards fails permanently on a request that skipped check") {
    const auto provider = cards();
    const OutputDir dir;
    auto request = card("quote");
    request.text.clear();
    testing::DirectCalls calls;
    try {
        provider.generate(request, dir.file("bad.png"), calls);
        FAIL("generate accepted a quote without text");
    } catch (const generation::ProviderError& e) {
        CHECK_FALSE(e.is_retryable());
        CHECK(e.details().at("field") == "text");
    }
    CHECK_FALSE(stdfs::exists(dir.file("bad.png")));
}

TEST_CASE("cards fails retryably when the file cannot be written") {
    const auto provider = cards();
    const OutputDir dir;
    for (const auto format : {ImageFormat::png, ImageFormat::jpeg}) {
        auto request = card("stat");
        request.format = format;
        testing::DirectCalls calls;
        try {
            provider.generate(request, dir.file("missing-folder/card"), calls);
            FAIL("generate wrote into a folder that does not exist");
        } catch (const generation::ProviderError& e) {
            CHECK(e.is_retryable());
        }
    }
}

TEST_CASE("cards stops without writing when the stop flag is set") {
    const auto provider = cards();
    const OutputDir dir;
    testing::DirectCalls calls;
    calls.request_stop();
    CHECK_THROWS_AS(provider.generate(card("title"), dir.file("stopped.png"), calls),
                    generation::ProviderStopped);
    CHECK_FALSE(stdfs::exists(dir.file("stopped.png")));
}
