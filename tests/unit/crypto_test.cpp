#include "common/core/crypto/crypto.hpp"
#include "common/core/crypto/base64.hpp"

#include <catch2/catch.hpp>

using namespace squawk;

TEST_CASE("sha256 matches the published test vector") {
    CHECK(crypto::sha256_hex("abc") ==
          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("hmac-sha256 matches RFC 4231 test case 2") {
    CHECK(crypto::hmac_sha256_hex("Jefe", "what do ya want for nothing?") ==
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST_CASE("hmac-sha256 takes each call's key, however keys alternate on a thread") {
    const std::string jefe = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
    const std::string empty_key =
        "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad";
    CHECK(crypto::hmac_sha256_hex("", "") == empty_key);
    CHECK(crypto::hmac_sha256_hex("Jefe", "what do ya want for nothing?") == jefe);
    CHECK(crypto::hmac_sha256_hex(std::string_view(), "") == empty_key);
    CHECK(crypto::hmac_sha256_hex("Jefe", "what do ya want for nothing?") == jefe);
}

TEST_CASE("base64url is unpadded and URL safe") {
    CHECK(crypto::base64url("") == "");
    CHECK(crypto::base64url("f") == "Zg");
    CHECK(crypto::base64url("fo") == "Zm8");
    CHECK(crypto::base64url("foo") == "Zm9v");
    CHECK(crypto::base64url("\xfb\xff") == "-_8");
}

TEST_CASE("uuid v4 has its version and variant bits") {
    const auto id = crypto::uuid_v4();
    REQUIRE(id.size() == 36);
    CHECK(id[14] == '4');
    CHECK(std::string("89ab").find(id[19]) != std::string::npos);
    CHECK(crypto::uuid_v4() != id);
}

TEST_CASE("constant-time comparison compares whole strings") {
    CHECK(crypto::constant_time_equal("abc", "abc"));
    CHECK_FALSE(crypto::constant_time_equal("abc", "abd"));
    CHECK_FALSE(crypto::constant_time_equal("abc", "abcd"));
}

TEST_CASE("base64 decodes each alphabet strictly, with or without padding") {
    using squawk::crypto::base64_decode;
    using squawk::crypto::Base64Alphabet;
    CHECK(base64_decode("Zm8=") == "fo");
    CHECK(base64_decode("Zm8") == "fo");
    CHECK(base64_decode("+/+/") == std::string("\xfb\xff\xbf", 3));
    CHECK(base64_decode("-_-_", Base64Alphabet::url_safe) == std::string("\xfb\xff\xbf", 3));
    CHECK_FALSE(base64_decode("+/+/", Base64Alphabet::url_safe));
    CHECK_FALSE(base64_decode("-_-_"));
    CHECK_FALSE(base64_decode("Zm8=x"));
}
