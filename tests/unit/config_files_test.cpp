// The configuration files shipped in config/ must load as they are: the local one for `make run`,
// the example one as the production default installed to /etc/squawk/squawk.toml.
#include "common/core/config/config.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

using namespace squawk;

namespace {

std::string config_file(const std::string& name) {
    const char* source_dir = std::getenv("SQUAWK_SOURCE_DIR");
    return std::string(source_dir && *source_dir ? source_dir : SQUAWK_SOURCE_DIR_DEFAULT) +
           "/config/" + name;
}

}  // namespace

TEST_CASE("the local config loads and allows loopback targets for the fakes") {
    const auto c = config::load(config_file("squawk.toml"));
    CHECK(c.security.allow_private_targets);
    CHECK(c.api.listen_host == "127.0.0.1");
    CHECK(c.mysql.port == 13306);
    CHECK(c.redis.port == 16379);
}

TEST_CASE("the example production config loads with production values") {
    const auto c = config::load(config_file("squawk.example.toml"));
    CHECK_FALSE(c.security.allow_private_targets);
    CHECK(c.time_scale == 1.0);
    CHECK(c.api.public_base_url == "https://api.example.com/v1");
    CHECK(c.mysql.password.empty());
    CHECK(c.media.dir == "/var/lib/squawk/media");
    CHECK(c.generation.default_provider.at("speech") == "espeak");
    CHECK(c.providers.espeak.binary == "/usr/bin/espeak-ng");
    CHECK(c.workers.pools.size() == std::size(config::kPoolNames));
}
