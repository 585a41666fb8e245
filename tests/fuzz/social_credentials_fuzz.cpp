// Fuzzes the parsers of connect fields a client sends: the Telegram chat and bot token forms and
// the Discord webhook URL. They must accept or refuse, never crash, and what they accept must be
// the shape the platform calls rely on.
#include "common/extensions/platforms/discord/connector.hpp"
#include "common/extensions/platforms/telegram/connector.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace squawk::social;
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    if (const auto chat = telegram::parse_chat(input)) {
        // A chat id never carries a path or query into the Bot API call.
        if (chat->empty() || chat->find_first_of("/?#&") != std::string::npos) std::abort();
    }
    (void)telegram::is_bot_token(input);
    if (const auto hook = discord::parse_webhook_url(input)) {
        if (!discord::is_snowflake(hook->id) || hook->token.find('/') != std::string::npos)
            std::abort();
    }
    return 0;
}
