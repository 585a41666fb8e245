#include "common/domain/users/totp.hpp"

#include "common/core/crypto/crypto.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>
#include <cctype>
#include <stdexcept>

namespace squawk::users {
namespace {

constexpr std::string_view kBase32Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

// Percent-encodes everything but RFC 3986's unreserved characters.
std::string uri_component(std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (const unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 0x0f];
        }
    }
    return out;
}

}  // namespace

std::string base32_encode(std::string_view bytes) {
    std::string out;
    unsigned buffer = 0;
    int bits = 0;
    for (const unsigned char c : bytes) {
        buffer = (buffer << 8) | c;
        bits += 8;
        while (bits >= 5) {
            out += kBase32Alphabet[(buffer >> (bits - 5)) & 0x1f];
            bits -= 5;
        }
    }
    if (bits > 0) out += kBase32Alphabet[(buffer << (5 - bits)) & 0x1f];
    return out;
}

std::optional<std::string> base32_decode(std::string_view text) {
    std::string out;
    unsigned buffer = 0;
    int bits = 0;
    for (const char raw : text) {
        if (raw == ' ' || raw == '=') continue;
        const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(raw)));
        const auto value = kBase32Alphabet.find(c);
        if (value == std::string_view::npos) return std::nullopt;
        buffer = (buffer << 5) | static_cast<unsigned>(value);
        bits += 5;
        if (bits >= 8) {
            out += static_cast<char>((buffer >> (bits - 8)) & 0xff);
            bits -= 8;
        }
    }
    return out;
}

long long totp_step(time::TimePoint at) {
    return time::to_unix_ms(at) / 1000 / kTotpStepSeconds;
}

std::string totp_code(std::string_view secret, long long step, int digits) {
    std::array<unsigned char, 8> counter{};
    for (int i = 7; i >= 0; --i) {
        counter[static_cast<size_t>(i)] = static_cast<unsigned char>(step & 0xff);
        step >>= 8;
    }
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (!HMAC(EVP_sha1(), secret.data(), static_cast<int>(secret.size()), counter.data(),
              counter.size(), mac, &length) ||
        length < 20)
        throw std::runtime_error("HMAC-SHA1 failed");
    // RFC 4226 5.3: dynamic truncation to 31 bits, then the last `digits` decimal digits.
    const unsigned offset = mac[length - 1] & 0x0f;
    const unsigned long binary = (static_cast<unsigned long>(mac[offset] & 0x7f) << 24) |
                                 (static_cast<unsigned long>(mac[offset + 1]) << 16) |
                                 (static_cast<unsigned long>(mac[offset + 2]) << 8) |
                                 static_cast<unsigned long>(mac[offset + 3]);
    unsigned long modulus = 1;
    for (int i = 0; i < digits; ++i) modulus *= 10;
    std::string code = std::to_string(binary % modulus);
    return std::string(static_cast<size_t>(digits) - code.size(), '0') + code;
}

std::optional<long long> totp_matching_step(std::string_view secret, std::string_view code,
                                            time::TimePoint at) {
    if (code.size() != kTotpDigits) return std::nullopt;
    const long long now = totp_step(at);
    std::optional<long long> matched;
    for (const long long step : {now - 1, now, now + 1})
        if (crypto::constant_time_equal(totp_code(secret, step), code) && !matched) matched = step;
    return matched;
}

std::string otpauth_uri(std::string_view issuer, std::string_view account,
                        std::string_view secret) {
    return "otpauth://totp/" + uri_component(issuer) + ":" + uri_component(account) +
           "?secret=" + base32_encode(secret) + "&issuer=" + uri_component(issuer) +
           "&algorithm=SHA1&digits=" + std::to_string(kTotpDigits) +
           "&period=" + std::to_string(kTotpStepSeconds);
}

}  // namespace squawk::users
