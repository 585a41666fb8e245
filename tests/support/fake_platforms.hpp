// Runs tests/fakes' social platforms (each platform of tests/fakes/platforms/, a media host) as a
// child process and talks to its control API: register bots, chats, webhooks, channels
// and phone numbers, revoke tokens, program failures and delays, read back every call received.
#pragma once

#include "tests/support/fake_server.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace squawk::testing {

class FakePlatforms {
  public:
    FakePlatforms();

    // The API base URL of a platform (by its id) on this fake.
    std::string base_url(const std::string& platform) const;
    // A file on the fake media host: HEAD and GET answer `content_type` and `bytes` (the bytes
    // are generated, not stored). `extra_query` is appended ("&head=refused").
    std::string media_url(const std::string& name, const std::string& content_type, long long bytes,
                          const std::string& extra_query = "") const;
    // [social.<platform>] sections pointing every registered platform here, for
    // StackOptions::extra_config; OAuth platforms get this fake's consent page and the
    // application registered with it.
    std::string config() const;
    // The consent page of an OAuth platform on this fake: the path of its factory's
    // default_authorize_url under the platform's base URL.
    std::string authorize_url(const std::string& platform) const;
    // Its token endpoint on this fake when the platform keeps it on its own host (the path of
    // default_token_url under the platform's base URL); empty otherwise.
    std::string token_url(const std::string& platform) const;
    // The OAuth application every OAuth platform's fake knows (control action "oauth_client",
    // registered at start with credentials random per fake).
    const std::string& oauth_client_id() const { return oauth_client_id_; }
    const std::string& oauth_client_secret() const { return oauth_client_secret_; }
    // POST /_control/<platform>/<action> on the fake: what any platform's fake takes to set up its
    // accounts (the helpers below are shorthands for the first platforms).
    nlohmann::json control_platform(const std::string& platform, const std::string& action,
                                    const nlohmann::json& body);

    // A bot whose token is valid and a channel it administers; returns the token.
    std::string add_telegram_bot(long long bot_id, const std::string& username);
    void add_telegram_chat(const nlohmann::json& chat);
    void add_discord_webhook(const std::string& id, const std::string& token,
                             const nlohmann::json& webhook);
    void add_discord_channel(const nlohmann::json& channel, const nlohmann::json& bot_tokens);
    void add_whatsapp_phone(const nlohmann::json& phone, const nlohmann::json& tokens);
    // A message a person posts in a Discord channel (or edits, given `id`); returns it.
    nlohmann::json post_discord_native(const std::string& channel_id, const std::string& content,
                                       const std::string& id = "");
    void revoke(const std::string& token);
    // The next calls whose path contains `match` get `responses`, one each, in order.
    void program(const std::string& match, const nlohmann::json& responses);
    // Calls received whose path contains `match` (all when empty).
    nlohmann::json calls(const std::string& match = "");
    // The messages on the platforms now: {"telegram": {chat id: [...]}, "discord": {channel id:
    // [...]}}, oldest first.
    nlohmann::json messages();
    // Forgets the calls received so far (benchmark rounds).
    void clear_calls();

  private:
    // The path of `url` (a platform's real address) under the platform's base URL here.
    std::string under_base_url(const std::string& platform, std::string_view url) const;
    nlohmann::json control(const std::string& method, const std::string& path,
                           const nlohmann::json& body = nullptr) {
        return server_.control(method, path, body);
    }

    FakeServer server_;
    std::string oauth_client_id_;
    std::string oauth_client_secret_;
};

// A token of the form BotFather issues, random per call.
std::string random_telegram_token(long long bot_id);

}  // namespace squawk::testing
