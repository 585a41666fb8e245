// Decodes standard base64 (RFC 4648 section 4), the encoding OpenAI-style services use for image
// bytes inside JSON. The text comes from the network, so anything off the alphabet is refused.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace squawk::providers::openai {

// Null unless `text` is base64 with its padding either complete or absent.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace squawk::providers::openai
