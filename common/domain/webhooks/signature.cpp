#include "common/domain/webhooks/signature.hpp"

#include "common/core/crypto/crypto.hpp"

#include <charconv>
#include <cstdlib>

namespace squawk::webhooks {

std::string signature_header(const std::vector<std::string>& secrets, long long unix_seconds,
                             std::string_view body) {
    const std::string t = std::to_string(unix_seconds);
    std::string signed_text;
    signed_text.reserve(t.size() + 1 + body.size());
    signed_text.append(t).append(".").append(body);
    std::string header = "t=" + t;
    for (const auto& secret : secrets)
        header += ",v1=" + crypto::hmac_sha256_hex(secret, signed_text);
    return header;
}

bool verify_signature(std::string_view header, std::string_view secret, std::string_view body,
                      long long now_unix_seconds, long long tolerance_seconds) {
    std::string_view t;
    std::vector<std::string_view> candidates;
    while (!header.empty()) {
        const auto comma = header.find(',');
        const auto item = header.substr(0, comma);
        if (item.starts_with("t=")) t = item.substr(2);
        if (item.starts_with("v1=")) candidates.push_back(item.substr(3));
        if (comma == std::string_view::npos) break;
        header.remove_prefix(comma + 1);
    }
    long long stamp = 0;
    if (t.empty() ||
        std::from_chars(t.data(), t.data() + t.size(), stamp).ptr != t.data() + t.size())
        return false;
    if (std::llabs(now_unix_seconds - stamp) > tolerance_seconds) return false;
    const std::string expected =
        crypto::hmac_sha256_hex(secret, std::string(t) + "." + std::string(body));
    for (const auto& c : candidates)
        if (crypto::constant_time_equal(c, expected)) return true;
    return false;
}

std::string new_secret() {
    return "whsec_" + crypto::random_token(32);
}

}  // namespace squawk::webhooks
