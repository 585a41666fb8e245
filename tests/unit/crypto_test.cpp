#include "common/core/crypto/crypto.hpp"
#include "common/core/crypto/base64.hpp"

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <regex>
#include <set>

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

TEST_CASE("uuids drawn past many refills of the random pool are well formed and all differ") {
    const std::regex shape("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    std::set<std::string> seen;
    for (int i = 0; i < 2000; ++i) {
        auto id = crypto::uuid_v4();
        REQUIRE(std::regex_match(id, shape));
        seen.insert(std::move(id));
    }
    CHECK(seen.size() == 2000);
}

TEST_CASE("a forked child draws other uuids than its parent draws next") {
    crypto::uuid_v4();  // the parent's pool now holds unused bytes the child inherits
    int pipe_ends[2];
    REQUIRE(pipe(pipe_ends) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        const auto id = crypto::uuid_v4();
        const bool written = write(pipe_ends[1], id.data(), id.size()) == 36;
        _exit(written ? 0 : 1);
    }
    close(pipe_ends[1]);
    char child_id[36];
    const auto got = read(pipe_ends[0], child_id, sizeof child_id);
    close(pipe_ends[0]);
    int status = 0;
    waitpid(child, &status, 0);
    REQUIRE(got == 36);
    CHECK(std::string(child_id, 36) != crypto::uuid_v4());
}

TEST_CASE("sha256 of many inputs in turn on one thread matches each input's own digest") {
    CHECK(crypto::sha256_hex("") ==
          "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(crypto::sha256_hex("abc") ==
          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(crypto::sha256_hex("") ==
          "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
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
