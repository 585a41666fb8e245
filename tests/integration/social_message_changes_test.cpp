// Editing and deleting published messages through each connector against its fake platform: the
// requests each platform documents, repeats that must succeed (same text, message already gone),
// refusals, and the failures a retry may follow.
#include "tests/support/connector_fixture.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::testing;
using nlohmann::json;
using social::FailureKind;

namespace {

constexpr long long kChat = -1001234567555LL;
constexpr const char* kHookId = "123456789012345999";
constexpr const char* kHookToken = "AbCdEf-ghIjKlMnOpQrStUvWxYz_9876543210";
constexpr const char* kHookChannel = "223456789012345999";
constexpr const char* kBotChannel = "423456789012345999";

struct Fixture : ConnectorFixture {
    social::Target telegram() {
        const auto token = fake.add_telegram_bot(791, "editor_bot");
        fake.add_telegram_chat({{"id", kChat}, {"type", "channel"}, {"title", "Edits"}});
        social::Target t;
        t.identity.external_id = std::to_string(kChat);
        t.credentials = {{"bot_token", token}, {"chat", std::to_string(kChat)}};
        return t;
    }

    social::Target discord_webhook() {
        fake.add_discord_webhook(kHookId, kHookToken,
                                 {{"id", kHookId},
                                  {"name", "Squawk"},
                                  {"channel_id", kHookChannel},
                                  {"guild_id", "323456789012345999"}});
        social::Target t;
        t.identity.external_id = kHookChannel;
        t.credentials = {{"webhook_url", std::string("https://discord.com/api/webhooks/") +
                                             kHookId + "/" + kHookToken}};
        return t;
    }

    social::Target discord_bot() {
        fake.add_discord_channel(
            {{"id", kBotChannel}, {"name", "general"}, {"guild_id", "323456789012345999"}},
            {"bot-token-edit"});
        social::Target t;
        t.identity.external_id = kBotChannel;
        t.credentials = {{"bot_token", "bot-token-edit"}, {"channel_id", kBotChannel}};
        return t;
    }

    json telegram_messages() { return fake.messages()["telegram"][std::to_string(kChat)]; }
    json discord_messages(const std::string& channel) {
        return fake.messages()["discord"].value(channel, json::array());
    }
};

json only_call(FakePlatforms& fake, const std::string& match) {
    const auto calls = fake.calls(match);
    REQUIRE(calls.size() == 1);
    return json::parse(calls[0]["body"].get<std::string>());
}

}  // namespace

TEST_CASE(
    "Telegram edits text with editMessageText, a photo's caption with editMessageCaption, and "
    "an edit to the same text succeeds",
    "[integration][social]") {
    Fixture f;
    auto telegram = f.connector("telegram");
    const auto target = f.telegram();
    const auto text = telegram->publish(target, message("first"));
    const auto photo = telegram->publish(target, message("caption", {"https://img.example/a.png"}));
    REQUIRE_FALSE(text.failure);
    REQUIRE_FALSE(photo.failure);

    REQUIRE_FALSE(telegram->edit(target, text.message_id, message("second")).failure);
    const auto body = only_call(f.fake, "/editMessageText");
    CHECK(body["chat_id"] == std::to_string(kChat));
    CHECK(body["message_id"] == std::stoll(text.message_id));
    CHECK(body["text"] == "second");
    REQUIRE_FALSE(
        telegram
            ->edit(target, photo.message_id, message("new caption", {"https://img.example/a.png"}))
            .failure);
    CHECK(only_call(f.fake, "/editMessageCaption")["caption"] == "new caption");
    const auto messages = f.telegram_messages();
    REQUIRE(messages.size() == 2);
    CHECK(messages[0]["text"] == "second");
    CHECK(messages[1]["caption"] == "new caption");

    // The Bot API answers 400 "message is not modified": the message already says it.
    CHECK_FALSE(telegram->edit(target, text.message_id, message("second")).failure);
    const auto unknown = telegram->edit(target, "999999", message("x"));
    REQUIRE(unknown.failure);
    CHECK(unknown.failure->kind == FailureKind::refused);
    CHECK(unknown.failure->reason == "Bad Request: message to edit not found");
}

TEST_CASE(
    "Telegram deletes with deleteMessage, a message already gone counts as deleted and a "
    "refusal is permanent",
    "[integration][social]") {
    Fixture f;
    auto telegram = f.connector("telegram");
    const auto target = f.telegram();
    const auto sent = telegram->publish(target, message("bye"));
    REQUIRE_FALSE(sent.failure);
    REQUIRE_FALSE(telegram->remove(target, sent.message_id).failure);
    const auto body = only_call(f.fake, "/deleteMessage");
    CHECK(body["chat_id"] == std::to_string(kChat));
    CHECK(body["message_id"] == std::stoll(sent.message_id));
    CHECK(f.telegram_messages().empty());
    CHECK_FALSE(telegram->remove(target, sent.message_id).failure);

    const auto old = telegram->publish(target, message("old"));
    f.fake.program("/deleteMessage",
                   {{{"status", 400},
                     {"body",
                      {{"ok", false},
                       {"error_code", 400},
                       {"description", "Bad Request: message can't be deleted for everyone"}}}},
                    {{"status", 429},
                     {"body",
                      {{"ok", false},
                       {"error_code", 429},
                       {"description", "Too Many Requests: retry after 3"},
                       {"parameters", {{"retry_after", 3}}}}}}});
    const auto refused = telegram->remove(target, old.message_id);
    REQUIRE(refused.failure);
    CHECK(refused.failure->kind == FailureKind::refused);
    const auto limited = telegram->remove(target, old.message_id);
    REQUIRE(limited.failure);
    CHECK(limited.failure->kind == FailureKind::not_accepted);
    CHECK(limited.failure->retry_after == std::chrono::seconds(3));
    CHECK(f.telegram_messages().size() == 1);
    CHECK(telegram->remove(target, "not-a-number").failure->kind == FailureKind::refused);
}

TEST_CASE(
    "an album is stored as all its messages: its caption is edited on the first and "
    "unpublishing deletes every photo",
    "[integration][social]") {
    Fixture f;
    auto telegram = f.connector("telegram");
    const auto target = f.telegram();
    const auto album = telegram->publish(
        target, message("three", {"https://img.example/1.jpg", "https://img.example/2.jpg",
                                  "https://img.example/3.jpg"}));
    REQUIRE_FALSE(album.failure);
    const auto sent = f.telegram_messages();
    REQUIRE(sent.size() == 3);
    CHECK(album.message_id == std::to_string(sent[0]["message_id"].get<long long>()) + "," +
                                  std::to_string(sent[1]["message_id"].get<long long>()) + "," +
                                  std::to_string(sent[2]["message_id"].get<long long>()));
    CHECK(album.url->ends_with("/" + std::to_string(sent[0]["message_id"].get<long long>())));

    REQUIRE_FALSE(
        telegram
            ->edit(target, album.message_id, message("new caption", {"https://img.example/1.jpg"}))
            .failure);
    CHECK(f.telegram_messages()[0]["caption"] == "new caption");

    REQUIRE_FALSE(telegram->remove(target, album.message_id).failure);
    const auto body = only_call(f.fake, "/deleteMessages");
    CHECK(body["message_ids"].size() == 3);
    CHECK(f.telegram_messages().empty());
    CHECK(telegram->remove(target, "1,,2").failure->kind == FailureKind::refused);
}

TEST_CASE(
    "Discord edits and deletes a webhook's message through the webhook and a bot's through the "
    "channel, and an unknown message is already deleted",
    "[integration][social]") {
    Fixture f;
    auto discord = f.connector("discord");
    const auto hook = f.discord_webhook();
    const auto bot = f.discord_bot();
    const auto by_hook = discord->publish(hook, message("hook says"));
    const auto by_bot = discord->publish(bot, message("bot says"));
    REQUIRE_FALSE(by_hook.failure);
    REQUIRE_FALSE(by_bot.failure);

    REQUIRE_FALSE(discord->edit(hook, by_hook.message_id, message("hook edited")).failure);
    const auto hook_calls = f.fake.calls("/messages/" + by_hook.message_id);
    REQUIRE(hook_calls.size() == 1);
    CHECK(hook_calls[0]["method"] == "PATCH");
    CHECK(hook_calls[0]["path"] == std::string("/discord/webhooks/") + kHookId + "/" + kHookToken +
                                       "/messages/" + by_hook.message_id);
    CHECK(json::parse(hook_calls[0]["body"].get<std::string>()) ==
          json{{"content", "hook edited"}});
    CHECK(f.discord_messages(kHookChannel)[0]["content"] == "hook edited");
    CHECK_FALSE(f.discord_messages(kHookChannel)[0]["edited_timestamp"].is_null());

    REQUIRE_FALSE(discord->edit(bot, by_bot.message_id, message("bot edited")).failure);
    const auto bot_calls = f.fake.calls("/messages/" + by_bot.message_id);
    REQUIRE(bot_calls.size() == 1);
    CHECK(bot_calls[0]["path"] ==
          std::string("/discord/channels/") + kBotChannel + "/messages/" + by_bot.message_id);
    CHECK(bot_calls[0]["headers"]["authorization"] == "Bot bot-token-edit");
    CHECK(f.discord_messages(kBotChannel)[0]["content"] == "bot edited");

    REQUIRE_FALSE(discord->remove(hook, by_hook.message_id).failure);
    REQUIRE_FALSE(discord->remove(bot, by_bot.message_id).failure);
    CHECK(f.fake.calls("/messages/").size() == 4);
    CHECK(f.discord_messages(kHookChannel).empty());
    CHECK(f.discord_messages(kBotChannel).empty());
    // Gone already: Discord answers 404 Unknown Message (10008).
    CHECK_FALSE(discord->remove(hook, by_hook.message_id).failure);
    CHECK_FALSE(discord->remove(bot, by_bot.message_id).failure);
    const auto edit_gone = discord->edit(bot, by_bot.message_id, message("late"));
    REQUIRE(edit_gone.failure);
    CHECK(edit_gone.failure->kind == FailureKind::refused);
    CHECK(edit_gone.failure->http_status == 404);
}

TEST_CASE("a bot cannot edit another author's Discord message, and a 5xx may be retried",
          "[integration][social]") {
    Fixture f;
    auto discord = f.connector("discord");
    const auto bot = f.discord_bot();
    const auto native = f.fake.post_discord_native(kBotChannel, "written by a person");
    const auto refused = discord->edit(bot, native["id"].get<std::string>(), message("hijack"));
    REQUIRE(refused.failure);
    CHECK(refused.failure->kind == FailureKind::refused);
    CHECK(refused.failure->http_status == 403);

    const auto mine = discord->publish(bot, message("mine"));
    f.fake.program("/messages/" + mine.message_id,
                   {{{"status", 503}, {"body", {{"message", "upstream"}, {"code", 0}}}}});
    const auto busy = discord->remove(bot, mine.message_id);
    REQUIRE(busy.failure);
    CHECK(busy.failure->kind == FailureKind::not_accepted);
}

TEST_CASE("WhatsApp cannot edit or delete, and the limits say so before any call",
          "[integration][social]") {
    Fixture f;
    auto whatsapp = f.connector("whatsapp");
    CHECK_FALSE(whatsapp->limits().can_edit);
    CHECK_FALSE(whatsapp->limits().can_remove);
    CHECK(f.connector("telegram")->limits().can_edit);
    CHECK(f.connector("discord")->limits().can_remove);
    social::Target target;
    target.identity.external_id = "1234567890";
    const auto edit = whatsapp->edit(target, "wamid.1", message("x"));
    REQUIRE(edit.failure);
    CHECK(edit.failure->kind == FailureKind::refused);
    REQUIRE(whatsapp->remove(target, "wamid.1").failure);
    CHECK(f.fake.calls().empty());
}
