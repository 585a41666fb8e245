// Discord connector: an incoming webhook or a bot token and channel; verifies, publishes, edits and
// deletes messages (execute ?wait=true, POST/PATCH/DELETE .../messages).
#pragma once

#include "common/domain/social/connector.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace squawk::social::discord {

struct WebhookAddress {
    std::string id;
    std::string token;
};

// The id and token of a Discord webhook URL (https://discord.com/api/webhooks/<id>/<token>, also
// discordapp.com, ptb. and canary., with an optional /v<n>); nullopt for anything else. The
// connector calls the configured base URL with them, never the host the client sent.
std::optional<WebhookAddress> parse_webhook_url(std::string_view url);
// A Discord id (snowflake): 17 to 20 digits.
bool is_snowflake(std::string_view text);

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http);

}  // namespace squawk::social::discord
