// The Discord connector against the fake Discord API: a webhook and a bot verified and posting,
// and the failures the publish worker relies on.
#include "tests/support/connector_fixture.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::testing;
using social::FailureKind;

TEST_CASE(
    "the Discord connector verifies and executes a webhook with wait=true, and a bot "
    "posts to its channel",
    "[integration][social]") {
    ConnectorFixture f;
    const std::string hook_id = "123456789012345678";
    const std::string hook_token = "AbCdEf-ghIjKlMnOpQrStUvWxYz_0123456789";
    f.fake.add_discord_webhook(hook_id, hook_token,
                               {{"id", hook_id},
                                {"name", "Squawk"},
                                {"channel_id", "223456789012345678"},
                                {"guild_id", "323456789012345678"}});
    auto discord = f.connector("discord");
    social::Credentials hook{
        {"webhook_url", "https://discord.com/api/webhooks/" + hook_id + "/" + hook_token}};
    REQUIRE(discord->check(hook).empty());
    const auto v = discord->verify(hook);
    REQUIRE(v.identity);
    CHECK(v.identity->external_id == "223456789012345678");
    social::Target target{*v.identity, hook};
    const auto sent = discord->publish(target, message("hi", {"https://img.example/a.png"}));
    REQUIRE_FALSE(sent.failure);
    CHECK(sent.url ==
          "https://discord.com/channels/323456789012345678/223456789012345678/" + sent.message_id);
    const auto executed = f.fake.calls("/discord/webhooks/");
    REQUIRE(executed.size() == 2);
    CHECK(executed[1]["target"].get<std::string>().ends_with("?wait=true"));

    f.fake.add_discord_channel(
        {{"id", "423456789012345678"}, {"name", "general"}, {"guild_id", "323456789012345678"}},
        {"bot-token-1"});
    social::Credentials bot{{"bot_token", "bot-token-1"}, {"channel_id", "423456789012345678"}};
    REQUIRE(discord->check(bot).empty());
    const auto bv = discord->verify(bot);
    REQUIRE(bv.identity);
    CHECK(bv.identity->display_name == "#general");
    const auto posted = discord->publish({*bv.identity, bot}, message("from the bot", {}));
    REQUIRE_FALSE(posted.failure);
    CHECK(f.fake.calls("/channels/423456789012345678/messages").size() == 1);
}

TEST_CASE("Discord failures: 429 carries retry_after, an unknown webhook is refused",
          "[integration][social]") {
    ConnectorFixture f;
    auto discord = f.connector("discord");
    const social::Credentials hook{{"webhook_url",
                                    "https://discord.com/api/webhooks/123456789012345679/"
                                    "AbCdEf-ghIjKlMnOpQrStUvWxYz_0123456789"}};
    const auto unknown = discord->verify(hook);
    REQUIRE(unknown.failure);
    CHECK(unknown.failure->kind == FailureKind::refused);
    CHECK(unknown.failure->field == "webhook_url");
    CHECK(unknown.failure->reason == "Unknown Webhook");
    f.fake.program("/discord/webhooks/", {{{"status", 429},
                                           {"retry_after", "3"},
                                           {"body",
                                            {{"message", "You are being rate limited."},
                                             {"retry_after", 2.5},
                                             {"global", false}}}}});
    social::Target target;
    target.identity.external_id = "223456789012345678";
    target.credentials = hook;
    const auto limited = discord->publish(target, message("x", {}));
    REQUIRE(limited.failure);
    CHECK(limited.failure->kind == FailureKind::not_accepted);
    CHECK(limited.failure->retry_after == std::chrono::seconds(3));
}
