// Decodes base64 (RFC 4648): the standard alphabet that services use for bytes inside JSON (image
// generations), and the URL-safe one of sealed secrets. The text comes from outside, so anything
// off the alphabet is refused rather than skipped.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace squawk::crypto {

enum class Base64Alphabet { standard, url_safe };

// Null unless `text` is base64 of `alphabet` with its padding either complete or absent.
std::optional<std::string> base64_decode(std::string_view text,
                                         Base64Alphabet alphabet = Base64Alphabet::standard);

}  // namespace squawk::crypto
