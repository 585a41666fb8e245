// Reading multipart/form-data uploads (RFC 7578) as they arrive: the boundary from the
// Content-Type, each part's name, filename and bytes however the body is cut into pieces, and
// refusals of malformed or oversized framing.
#include "api/server/multipart_form.hpp"
#include "tests/support/form_collector.hpp"

#include <catch2/catch.hpp>

using namespace squawk::api;
using squawk::test::read_form;

namespace {

std::string form(const std::string& boundary, const std::string& parts) {
    return parts + "--" + boundary + "--\r\n";
}

std::string part(const std::string& boundary, const std::string& headers, const std::string& body) {
    return "--" + boundary + "\r\n" + headers + "\r\n\r\n" + body + "\r\n";
}

}  // namespace

TEST_CASE("the boundary is read from a multipart/form-data Content-Type, quoted or not") {
    CHECK(form_boundary("multipart/form-data; boundary=abc123") == "abc123");
    CHECK(form_boundary("Multipart/Form-Data;boundary=\"a b:c\"") == "a b:c");
    CHECK(form_boundary("multipart/form-data; charset=utf-8; boundary=x-y") == "x-y");
}

TEST_CASE("a Content-Type of another type or without a usable boundary has no boundary") {
    CHECK_FALSE(form_boundary("application/json"));
    CHECK_FALSE(form_boundary("multipart/mixed; boundary=abc"));
    CHECK_FALSE(form_boundary("multipart/form-data"));
    CHECK_FALSE(form_boundary("multipart/form-data; boundary="));
    CHECK_FALSE(form_boundary("multipart/form-data; boundary=\"ends with space \""));
    CHECK_FALSE(form_boundary("multipart/form-data; boundary=" + std::string(71, 'a')));
    CHECK_FALSE(form_boundary("multipart/form-data; boundary=\"bad;char\""));
    CHECK_FALSE(form_boundary("multipart/form-data; boundary=\"unclosed"));
}

TEST_CASE("a form's parts are read with their names, file names and bytes") {
    const std::string binary("\x89PNG\r\n\x1a\n\0\r\n-", 13);
    const std::string body =
        "preamble\r\n" +
        form("XyZ", part("XyZ", "Content-Disposition: form-data; name=\"title\"", "Hello") +
                        part("XyZ",
                             "content-disposition: form-data; name=\"file\"; "
                             "filename=\"a \\\"b\\\".png\"\r\nContent-Type: image/png",
                             binary)) +
        "epilogue";
    for (const size_t piece : {size_t(0), size_t(1), size_t(2), size_t(7), size_t(64)}) {
        INFO("pieces of " << piece << " bytes");
        const auto parsed = read_form(body, "XyZ", piece);
        REQUIRE(parsed.error.empty());
        REQUIRE(parsed.parts.size() == 2);
        CHECK(parsed.parts[0].head.name == "title");
        CHECK(parsed.parts[0].bytes == "Hello");
        CHECK_FALSE(parsed.parts[0].head.filename);
        const auto* file = parsed.part("file");
        REQUIRE(file);
        CHECK(file->ended);
        CHECK(file->head.filename == "a \"b\".png");
        CHECK(file->head.content_type == "image/png");
        CHECK(file->bytes == binary);
    }
}

TEST_CASE("an empty part and a form of no parts are read") {
    const std::string body = form("b", part("b", "Content-Disposition: form-data; name=x", ""));
    const auto empty = read_form(body, "b");
    REQUIRE(empty.error.empty());
    REQUIRE(empty.parts.size() == 1);
    CHECK(empty.parts[0].bytes.empty());
    const auto none = read_form("--b--\r\n", "b");
    CHECK(none.error.empty());
    CHECK(none.parts.empty());
}

TEST_CASE("malformed forms are refused with a reason") {
    const std::string ok_part = part("b", "Content-Disposition: form-data; name=\"f\"", "x");
    for (const auto& [body, why] : std::vector<std::pair<std::string, std::string>>{
             {"no delimiter at all", "no boundary delimiter"},
             {ok_part, "not closed"},
             {form("b", part("b", "Content-Type: text/plain", "x")), "no Content-Disposition"},
             {form("b", part("b", "Content-Disposition: attachment; name=\"f\"", "x")),
              "not form-data"},
             {form("b", part("b", "Content-Disposition: form-data", "x")), "no name"},
             {form("b", part("b", "Content-Disposition form-data", "x")), "without a colon"},
             {form("b", "--b\r\n\r\nx\r\n"), "no Content-Disposition"},
             {form("b", "--b junk\r\nContent-Disposition: form-data; name=f\r\n\r\nx\r\n"),
              "trailing bytes"},
         }) {
        INFO(why);
        const auto parsed = read_form(body, "b", 3);
        CHECK(parsed.error.find(why) != std::string::npos);
    }
}

TEST_CASE("part headers past their bound and forms of too many parts are refused") {
    const std::string long_header = "Content-Disposition: form-data; name=\"f\"\r\nX-Pad: " +
                                    std::string(kMaxPartHeaderBytes, 'a');
    const auto big = read_form(form("b", part("b", long_header, "x")), "b", 100);
    CHECK(big.error.find("longer than") != std::string::npos);

    std::string many;
    for (size_t i = 0; i <= kMaxFormParts; ++i)
        many += part("b", "Content-Disposition: form-data; name=\"p\"", "x");
    const auto parsed = read_form(form("b", many), "b");
    CHECK(parsed.error.find("more than") != std::string::npos);
}

TEST_CASE("a boundary that does not open a line is part of the bytes") {
    const std::string bytes = "--b at the start, x--b inside\n--b after a bare newline";
    const std::string body = form("b", part("b", "Content-Disposition: form-data; name=f", bytes));
    for (const size_t piece : {size_t(0), size_t(1), size_t(5)}) {
        const auto parsed = read_form(body, "b", piece);
        REQUIRE(parsed.error.empty());
        REQUIRE(parsed.parts.size() == 1);
        CHECK(parsed.parts[0].bytes == bytes);
    }
}
