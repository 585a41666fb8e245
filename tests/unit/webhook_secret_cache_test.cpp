#include "common/core/crypto/crypto.hpp"
#include "common/domain/webhooks/secret_cache.hpp"

#include <catch2/catch.hpp>

using namespace squawk;

namespace {

const std::string kKey(32, 'k');

}  // namespace

TEST_CASE("a secret cache opens each sealed secret with the configured key") {
    webhooks::SecretCache cache(kKey);
    const auto first = crypto::seal(kKey, "whsec_first");
    const auto second = crypto::seal(kKey, "whsec_second");
    CHECK(cache.open(first) == "whsec_first");
    CHECK(cache.open(second) == "whsec_second");
    CHECK(cache.open(first) == "whsec_first");
}

TEST_CASE("a secret cache past its capacity still opens every secret") {
    webhooks::SecretCache cache(kKey, 2);
    std::vector<std::string> sealed;
    for (int i = 0; i < 5; ++i) sealed.push_back(crypto::seal(kKey, "whsec_" + std::to_string(i)));
    for (int round = 0; round < 2; ++round)
        for (int i = 0; i < 5; ++i) CHECK(cache.open(sealed[i]) == "whsec_" + std::to_string(i));
}

TEST_CASE("a secret cache refuses a secret sealed with another key, every time") {
    webhooks::SecretCache cache(kKey);
    const auto foreign = crypto::seal(std::string(32, 'x'), "whsec_other");
    CHECK_THROWS(cache.open(foreign));
    CHECK_THROWS(cache.open(foreign));
}

TEST_CASE("a secret cache without a usable key opens nothing") {
    webhooks::SecretCache cache("");
    CHECK_THROWS(cache.open(crypto::seal(kKey, "whsec_any")));
}
