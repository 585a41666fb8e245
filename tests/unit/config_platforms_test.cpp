// The [social.<platform>] sections: exactly the registered platforms have one, each defaulting to
// its factory's public API address; an unknown platform's section stops the process.
#include "common/core/config/config.hpp"
#include "common/domain/social/connector.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>

using namespace squawk;
using Catch::Matchers::Contains;

namespace {
const std::map<std::string, std::string> kNoVariables;
}

TEST_CASE("every registered platform has settings defaulting to its public API") {
    const auto c = config::parse("", kNoVariables);
    CHECK(c.social.platforms.size() == social::registered_platforms().size());
    for (const auto& platform : social::registered_platforms()) {
        INFO(platform.id);
        const auto& settings = c.social.platforms.at(std::string(platform.settings_section));
        CHECK(settings.api_base_url == platform.default_base_url);
        CHECK(settings.timeout_ms == 10000);
    }
}

TEST_CASE("a registered platform's section sets its address and timeout") {
    const auto c = config::parse(
        "[social.discord]\napi_base_url = \"http://127.0.0.1:9/discord\"\ntimeout_ms = 500\n",
        kNoVariables);
    CHECK(c.social.platforms.at("discord").api_base_url == "http://127.0.0.1:9/discord");
    CHECK(c.social.platforms.at("discord").timeout_ms == 500);
    CHECK(c.social.platforms.at("telegram").api_base_url == "https://api.telegram.org");
}

TEST_CASE("a section for a platform this build does not register stops config loading") {
    CHECK_THROWS_WITH(
        config::parse("[social.myspace]\napi_base_url = \"https://myspace.example\"\n",
                      kNoVariables),
        Contains("social.myspace.api_base_url"));
    CHECK_THROWS_AS(config::parse("[social.tg]\ntimeout_ms = 500\n", kNoVariables),
                    config::ConfigError);
}
