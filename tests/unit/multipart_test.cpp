// The multipart/form-data builder media uploads use: fields and files framed by a random boundary
// as RFC 7578 lays out, names that cannot break out of their header, an empty type defaulted.
#include "common/core/http/multipart.hpp"

#include <catch2/catch.hpp>

using squawk::http::Multipart;

TEST_CASE("a media upload form frames each field and file between boundaries and closes") {
    Multipart form;
    const std::string b = form.boundary();
    form.field("chat_id", "-100123");
    form.file("photo", "poster.png", "image/png", std::string("\x89PNG\r\n\0x", 8));
    CHECK(form.content_type() == "multipart/form-data; boundary=" + b);
    const std::string body = std::move(form).finish();
    CHECK(body == "--" + b +
                      "\r\nContent-Disposition: form-data; name=\"chat_id\"\r\n\r\n-100123\r\n"
                      "--" +
                      b +
                      "\r\nContent-Disposition: form-data; name=\"photo\"; "
                      "filename=\"poster.png\"\r\nContent-Type: image/png\r\n\r\n" +
                      std::string("\x89PNG\r\n\0x", 8) + "\r\n--" + b + "--\r\n");
}

TEST_CASE("media upload forms get a fresh random boundary each") {
    const Multipart one;
    const Multipart two;
    CHECK(one.boundary() != two.boundary());
    CHECK(one.boundary().size() >= 32);
}

TEST_CASE("a media upload form escapes quotes and line breaks in names and defaults the type") {
    Multipart form;
    form.file("file0", "a\"b\r\nX-Evil: 1.png", "", "data");
    const std::string body = std::move(form).finish();
    CHECK(body.find("filename=\"a%22b%0D%0AX-Evil: 1.png\"") != std::string::npos);
    CHECK(body.find("\r\nX-Evil") == std::string::npos);
    CHECK(body.find("Content-Type: application/octet-stream\r\n") != std::string::npos);
}
