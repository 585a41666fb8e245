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

PlatformAccount connect_platform_account(Stack& stack, FakePlatforms& fake, const std::string& key,
                                         const std::string& platform, int i,
                                         const std::string& image_url,
                                         const std::string& video_url) {
    const std::string n = std::to_string(i);
    const std::string user = "90" + std::string(platform.size() % 2 ? "1" : "2") +
                             std::to_string(1000000 + i) + std::to_string(platform.size());
    PlatformAccount account;
    if (platform == "telegram") {
        account.id = connect_telegram_channel(stack, fake, key, -1002000000000LL - i);
        return account;
    }
    if (platform == "discord") {
        account.id =
            connect_discord_webhook(stack, fake, key, std::to_string(823456789012345678LL + i));
        return account;
    }
    const auto created = [](const HttpResponse& r) {
        if (r.status / 100 != 2) throw std::runtime_error("connect failed: " + r.body);
        return r.json["data"]["id"].get<std::string>();
    };
    if (platform == "bluesky") {
        const std::string handle = "account" + n + ".bsky.social";
        fake.control_platform("bluesky", "account",
                              {{"did", "did:plc:squawkaccount" + n},
                               {"handle", handle},
                               {"app_password", "acct-pass-word-abcd"}});
        account.id = created(stack.request(
            "POST", "/v1/social/connect/bluesky",
            {{"identifier", "@" + handle}, {"app_password", "acct-pass-word-abcd"}}, key));
        return account;
    }
    if (platform == "x") {
        fake.control_platform(platform, "user",
                              {{"id", user}, {"username", "account" + n}, {"name", "Account"}});
    } else if (platform == "facebook") {
        fake.control_platform("facebook", "page", {{"id", "104" + user}, {"name", "P" + n}});
        fake.control_platform("facebook", "user",
                              {{"id", user}, {"name", "Account"}, {"pages", {"104" + user}}});
    } else if (platform == "instagram") {
        fake.control_platform("instagram", "user", {{"id", user}, {"name", "Account"}});
        fake.control_platform("instagram", "page",
                              {{"id", "104" + user},
                               {"name", "P" + n},
                               {"user_id", user},
                               {"instagram", {{"id", "178" + user}, {"username", "account" + n}}}});
        account.media_urls = {image_url};
    } else if (platform == "threads") {
        fake.control_platform("threads", "user",
                              {{"id", user}, {"username", "account" + n}, {"name", "Account"}});
    } else if (platform == "linkedin") {
        fake.control_platform("linkedin", "user", {{"id", user}, {"name", "Account " + n}});
    } else if (platform == "pinterest") {
        fake.control_platform("pinterest", "user", {{"id", user}, {"username", "account" + n}});
        const auto board =
            fake.control_platform("pinterest", "board", {{"user_id", user}, {"name", "B"}});
        account.media_urls = {image_url};
        account.platform_options = {{"pinterest", {{"board_id", board["id"]}}}};
    } else if (platform == "tiktok") {
        fake.control_platform(
            "tiktok", "user",
            {{"open_id", user}, {"username", "account" + n}, {"display_name", "Account"}});
        account.media_urls = {image_url};
    } else if (platform == "youtube") {
        fake.control_platform(
            "youtube", "channel",
            {{"user_id", user}, {"id", "UCacct" + user}, {"title", "Account " + n}});
        account.media_urls = {video_url};
    }
    fake.control_platform(platform, "next_consent", {{"user_id", user}});
    account.fake_user = user;
    account.id = created(connect_through_oauth(stack, key, platform));
    return account;
}

}  // namespace squawk::testing
