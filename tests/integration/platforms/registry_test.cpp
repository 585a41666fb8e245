// The platform registry: every platform is found by its id and its aliases, its limits are data
// read without a connector and equal what its connector reports, and each connector is built
// against the configured address (an alias builds the platform it names).
#include "common/domain/social/post_validation.hpp"
#include "tests/support/connector_fixture.hpp"

#include <catch2/catch.hpp>

#include <set>

using namespace squawk;
using namespace squawk::testing;

TEST_CASE("platform limits are data the posts validator can read", "[integration][social]") {
    ConnectorFixture f;
    const auto& telegram = f.connector("telegram")->limits();
    CHECK(telegram.max_text_chars == 4096);
    CHECK(telegram.min_album_items == 2);
    CHECK(telegram.max_album_items == 10);
    const auto& discord = f.connector("discord")->limits();
    CHECK(discord.max_text_chars == 2000);
    CHECK(discord.max_images == 10);
    CHECK(social::known_limits().at("telegram").max_caption_chars == 1024);
}

TEST_CASE("every registered platform is found by its id and its aliases, and builds its connector",
          "[integration][social]") {
    ConnectorFixture f;
    std::set<std::string_view> names;
    for (const auto& platform : social::registered_platforms()) {
        INFO(platform.id);
        CHECK(social::find_platform(platform.id) == &platform);
        CHECK(names.insert(platform.id).second);
        for (const auto alias : platform.aliases) {
            CHECK(social::find_platform(alias) == &platform);
            CHECK(names.insert(alias).second);
        }
        CHECK_FALSE(platform.display_name.empty());
        if (platform.connect_style != social::ConnectStyle::oauth)
            CHECK_FALSE(platform.credential_fields.empty());
        CHECK(platform.default_base_url.starts_with("https://"));
        const auto connector = f.connector(std::string(platform.id));
        REQUIRE(connector);
        CHECK(connector->platform() == platform.id);
        CHECK(connector->limits().max_text_chars == platform.limits.max_text_chars);
        CHECK(connector->limits().can_publish == platform.limits.can_publish);
    }
    CHECK(social::find_platform("myspace") == nullptr);
    CHECK(social::make_connector("myspace", f.settings, f.http) == nullptr);
}

TEST_CASE("an alias builds the connector of the platform it names", "[integration][social]") {
    ConnectorFixture f;
    const auto* telegram = social::find_platform("tg");
    REQUIRE(telegram);
    CHECK(telegram->id == "telegram");
    const auto connector = f.connector("tg");
    REQUIRE(connector);
    CHECK(connector->platform() == "telegram");
}

TEST_CASE("OAuth platforms name a consent page and scopes and the others take credential fields",
          "[integration][social]") {
    for (const auto& platform : social::registered_platforms()) {
        INFO(platform.id);
        if (platform.connect_style == social::ConnectStyle::oauth) {
            CHECK(platform.default_authorize_url.starts_with("https://"));
            CHECK_FALSE(platform.oauth_scopes.empty());
        } else {
            CHECK_FALSE(platform.credential_fields.empty());
            CHECK(platform.default_authorize_url.empty());
        }
    }
}
