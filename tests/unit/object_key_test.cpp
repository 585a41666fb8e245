// Object keys are relative paths that can neither leave the store's root nor be read two ways:
// what validate_object_key accepts and refuses.
#include "common/core/storage/object_key.hpp"
#include "common/core/storage/s3_error_body.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace squawk::storage;

TEST_CASE("object keys that are plain relative paths are accepted") {
    CHECK_NOTHROW(validate_object_key("ws_12/med_abc.png"));
    CHECK_NOTHROW(validate_object_key("a"));
    CHECK_NOTHROW(validate_object_key("ws_1/with space/and+plus=eq&amp.txt"));
    CHECK_NOTHROW(validate_object_key("ws_1/caf\xc3\xa9/\xe6\x97\xa5\xe6\x9c\xac.png"));
    CHECK_NOTHROW(validate_object_key("ws_1/..hidden/a..b"));
    CHECK_NOTHROW(validate_object_key(std::string(1024, 'k')));
}

TEST_CASE("object keys that climb, are absolute or have empty segments are refused") {
    for (const std::string& key : std::vector<std::string>{
             "", "/abs", "ws/../etc", "..", "ws/.", "./a", "a//b", "a/", std::string(1025, 'k')})
        CHECK_THROWS_AS(validate_object_key(key), InvalidObjectKey);
}

TEST_CASE("object keys with control characters, backslashes or broken UTF-8 are refused") {
    for (const std::string& key : std::vector<std::string>{
             std::string("a\0b", 3), std::string("a\nb"), std::string("a\x7f"), std::string("a\\b"),
             std::string("\xc3"), std::string("\xc0\xaf"), std::string("\xed\xa0\x80"),
             std::string("\xf4\x90\x80\x80"), std::string("\xff")})
        CHECK_THROWS_AS(validate_object_key(key), InvalidObjectKey);
}

TEST_CASE("an S3 error body gives its code and message with entities decoded") {
    const auto body = parse_s3_error(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>SignatureDoesNotMatch</Code>"
        "<Message>The request signature we calculated does not match &amp; &#x41;&#66;"
        "</Message><StringToSign>x</StringToSign></Error>");
    REQUIRE(body);
    CHECK(body->code == "SignatureDoesNotMatch");
    CHECK(body->message == "The request signature we calculated does not match & AB");
}

TEST_CASE("bodies that are not S3 errors read as nothing") {
    CHECK_FALSE(parse_s3_error(""));
    CHECK_FALSE(parse_s3_error("<html>Bad Gateway</html>"));
    CHECK_FALSE(parse_s3_error("<Error><Message>no code</Message></Error>"));
    CHECK_FALSE(parse_s3_error("<Error><Code>  </Code></Error>"));
    CHECK_FALSE(parse_s3_error("<Error><Code>Unclosed"));
    const auto no_message = parse_s3_error("<Error><Code>SlowDown</Code></Error>");
    REQUIRE(no_message);
    CHECK(no_message->message.empty());
    const auto odd_entities = parse_s3_error("<Error><Code>A&#0;&bogus;&#xD800;&</Code></Error>");
    REQUIRE(odd_entities);
    CHECK(odd_entities->code == "A&#0;&bogus;&#xD800;&");
}
