// Telegram Bot API connector: verifies a bot token and a chat (getMe, getChat), publishes
// (sendMessage, sendPhoto, sendDocument, sendMediaGroup), edits and deletes.
#pragma once

#include "common/domain/social/connector.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace squawk::social::telegram {

// A bot token as BotFather issues it: "<bot id>:<secret>".
bool is_bot_token(std::string_view text);
// The chat_id the Bot API takes for what a user typed: "@name" for a public username or a
// t.me / telegram.me link, the number for a numeric id; nullopt when it is neither.
std::optional<std::string> parse_chat(std::string_view text);

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http);

}  // namespace squawk::social::telegram
