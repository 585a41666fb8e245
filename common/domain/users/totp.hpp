// Time-based one-time passwords (RFC 6238 over RFC 4226): HMAC-SHA1 of the 30-second step since
// the Unix epoch, 6 digits, as authenticator apps compute them; secrets travel as base32.
#pragma once

#include "common/core/time/clock.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace squawk::users {

inline constexpr int kTotpDigits = 6;
inline constexpr long long kTotpStepSeconds = 30;
inline constexpr size_t kTotpSecretBytes = 20;  // RFC 4226's recommended 160 bits

// RFC 4648 base32, upper case, unpadded (what authenticator apps expect in an otpauth:// URI).
std::string base32_encode(std::string_view bytes);
// Nothing for a character outside the alphabet; spaces, '=' and lower case are accepted.
std::optional<std::string> base32_decode(std::string_view text);

long long totp_step(time::TimePoint at);
// The code of `step` for `secret` (raw bytes), `digits` long with leading zeros.
std::string totp_code(std::string_view secret, long long step, int digits = kTotpDigits);
// The step whose code `code` is, among the step of `at` and one either side (a clock a little
// off, a code typed at a step's end); nothing when none matches. Constant time per comparison.
std::optional<long long> totp_matching_step(std::string_view secret, std::string_view code,
                                            time::TimePoint at);
// otpauth://totp/<issuer>:<account>?secret=...&issuer=...: the text an authenticator app takes.
std::string otpauth_uri(std::string_view issuer, std::string_view account, std::string_view secret);

}  // namespace squawk::users
