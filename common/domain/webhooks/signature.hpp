// The delivery signature of spec 6.3: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`,
// one v1= per secret that is valid right now (two during a rotation's grace period).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace squawk::webhooks {

std::string signature_header(const std::vector<std::string>& secrets, long long unix_seconds,
                             std::string_view body);

// What a receiver does: true when one v1= matches `secret` and t is within `tolerance_seconds`
// of `now_unix_seconds`.
bool verify_signature(std::string_view header, std::string_view secret, std::string_view body,
                      long long now_unix_seconds, long long tolerance_seconds);

// A new signing secret: "whsec_" + 32 random bytes in base64url. The whole string is the key.
std::string new_secret();

}  // namespace squawk::webhooks
