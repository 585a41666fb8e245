#include "tests/support/social_fixtures.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/time/clock.hpp"
#include "tests/support/http_client.hpp"

#include <stdexcept>

namespace squawk::testing {
namespace {

// Fixtures serve benchmarks too, which run without Catch: a refused connect throws.
void require_created(const HttpResponse& response) {
    if (response.status != 201)
        throw std::runtime_error("connect answered " + std::to_string(response.status) + ": " +
                                 response.body);
}

}  // namespace

StackOptions social_api_stack(const FakePlatforms& fake) {
    StackOptions options = api_only();
    options.extra_config = fake.config();
    return options;
}

std::string hours_from_now(int hours) {
    return time::format_iso8601(time::now() + std::chrono::hours(hours));
}

std::string telegram_channel(FakePlatforms& fake, long long chat_id, const std::string& username) {
    const auto token = fake.add_telegram_bot(chat_id % 100000 + 100000, username + "_bot");
    fake.add_telegram_chat({{"id", chat_id},
                            {"type", "channel"},
                            {"title", username + " news"},
                            {"username", username}});
    return token;
}

nlohmann::json connect_telegram(JsonApi& api, const std::string& key, const std::string& token,
                                const std::string& chat, const Headers& headers) {
    const auto r = api.request("POST", "/v1/social/connect/telegram",
                               {{"bot_token", token}, {"chat", chat}}, key, headers);
    require_created(r);
    return r.json["data"];
}

std::string connect_telegram_channel(JsonApi& api, FakePlatforms& fake, const std::string& key,
                                     long long chat_id) {
    const std::string name = "squawk" + std::to_string(chat_id < 0 ? -chat_id : chat_id);
    const auto token = telegram_channel(fake, chat_id, name);
    return connect_telegram(api, key, token, "@" + name)["id"].get<std::string>();
}

std::string connect_discord_webhook(JsonApi& api, FakePlatforms& fake, const std::string& key,
                                    const std::string& channel_id) {
    const std::string webhook_id = "5" + channel_id.substr(1);
    const std::string token = crypto::random_token(40);
    fake.add_discord_webhook(webhook_id, token,
                             {{"id", webhook_id},
                              {"name", "Announcements " + channel_id},
                              {"channel_id", channel_id},
                              {"guild_id", "723456789012345678"}});
    const auto r = api.request(
        "POST", "/v1/social/connect/discord",
        {{"webhook_url", "https://discord.com/api/webhooks/" + webhook_id + "/" + token}}, key);
    require_created(r);
    return r.json["data"]["id"].get<std::string>();
}

HttpResponse connect_through_oauth(Stack& stack, const std::string& key,
                                   const std::string& platform) {
    const auto started =
        stack.request("GET", "/v1/social/connect/" + platform + "/authorize", nullptr, key);
    if (started.status != 200)
        throw std::runtime_error("authorize answered " + std::to_string(started.status) + ": " +
                                 started.body);
    const std::string consent_url = started.json["data"]["authorization_url"];
    const size_t path = consent_url.find('/', consent_url.find("://") + 3);
    HttpClient browser(consent_url.substr(0, path));
    const auto consent = browser.send("GET", consent_url.substr(path), std::nullopt, {});
    const auto redirect = consent.header("location");
    if (consent.status / 100 != 3)
        throw std::runtime_error("the consent page did not send the user back: " + consent.body);
    return stack.request("GET", stack.path_of(redirect), nullptr, "");
}

}  // namespace squawk::testing
