// Connected accounts for end-to-end tests of social features: channels the fake platforms know,
// connected through the real connect routes.
#pragma once

#include "tests/support/fake_platforms.hpp"
#include "tests/support/stack.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace squawk::testing {

// A stack of the API alone (no worker, no scheduler) whose platforms are `fake`'s.
StackOptions social_api_stack(const FakePlatforms& fake);

// A test's stack, built by `make_options` over its own fake platforms, acting with its live key.
template <StackOptions (*make_options)(const FakePlatforms&) = social_api_stack>
struct FakePlatformStack {
    FakePlatforms fake;
    Stack stack{make_options(fake)};
    const std::string& key = stack.tenant().live_key;
};
using SocialApi = FakePlatformStack<>;

// ISO 8601 time `hours` from now.
std::string hours_from_now(int hours);

// A Telegram channel the fake knows, administered by a fresh bot; returns the bot token.
std::string telegram_channel(FakePlatforms& fake, long long chat_id, const std::string& username);

// POST /v1/social/connect/telegram; throws unless it is 201; returns the account (`data`).
nlohmann::json connect_telegram(JsonApi& api, const std::string& key, const std::string& token,
                                const std::string& chat, const Headers& headers = {});

// A fresh Telegram channel connected for `key`'s workspace; returns the account's public id.
std::string connect_telegram_channel(JsonApi& api, FakePlatforms& fake, const std::string& key,
                                     long long chat_id);

// A fresh Discord webhook (channel `channel_id`) connected for `key`'s workspace; returns the
// account's public id.
std::string connect_discord_webhook(JsonApi& api, FakePlatforms& fake, const std::string& key,
                                    const std::string& channel_id);

// An account connected on a platform's fake, with what a post to it needs on that platform.
struct PlatformAccount {
    std::string id;         // the account's public id
    std::string fake_user;  // the user's id on the platform's fake
    std::vector<std::string>
        media_urls;  // Instagram, Pinterest, TikTok: an image; YouTube: a video
    nlohmann::json platform_options = nlohmann::json::object();  // Pinterest: its board
};

// The `i`-th account of `platform` (any registered one but WhatsApp), made on the fake and
// connected for `key`'s workspace through the API as its users connect it (a bot token, an app
// password, the OAuth round trip); `image_url` and `video_url` are media the fake serves.
PlatformAccount connect_platform_account(Stack& stack, FakePlatforms& fake, const std::string& key,
                                         const std::string& platform, int i,
                                         const std::string& image_url,
                                         const std::string& video_url);

// Connects `platform`'s user the fake is set to consent as (its control action next_consent)
// through GET /v1/social/connect/<platform>/authorize, the fake's consent page and the callback
// route; returns the callback's answer.
HttpResponse connect_through_oauth(Stack& stack, const std::string& key,
                                   const std::string& platform);

}  // namespace squawk::testing
