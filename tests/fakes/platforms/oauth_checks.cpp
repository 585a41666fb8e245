#include "tests/fakes/platforms/oauth_checks.hpp"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>

namespace squawk::fakes::platforms {
namespace {

// Standard base64 with padding; nothing when it is not that.
std::optional<std::string> base64_decode(std::string_view encoded) {
    if (encoded.empty() || encoded.size() % 4 != 0) return std::nullopt;
    std::string decoded(encoded.size() / 4 * 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(decoded.data()),
                                  reinterpret_cast<const unsigned char*>(encoded.data()),
                                  static_cast<int>(encoded.size()));
    if (n < 0) return std::nullopt;
    // EVP_DecodeBlock counts the padding as zero bytes.
    size_t length = static_cast<size_t>(n);
    for (size_t i = encoded.size(); i > 0 && encoded[i - 1] == '='; --i) --length;
    decoded.resize(length);
    return decoded;
}

}  // namespace

std::string s256_challenge(std::string_view verifier) {
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(verifier.data()), verifier.size(), digest);
    unsigned char encoded[64];
    const int n = EVP_EncodeBlock(encoded, digest, SHA256_DIGEST_LENGTH);
    std::string out(reinterpret_cast<const char*>(encoded), static_cast<size_t>(n));
    out.erase(std::remove(out.begin(), out.end(), '='), out.end());
    std::replace(out.begin(), out.end(), '+', '-');
    std::replace(out.begin(), out.end(), '/', '_');
    return out;
}

std::optional<std::pair<std::string, std::string>> basic_credentials(std::string_view header) {
    constexpr std::string_view kScheme = "Basic ";
    if (!header.starts_with(kScheme)) return std::nullopt;
    const std::string_view encoded = header.substr(kScheme.size());
    if (encoded.size() > 4096) return std::nullopt;
    const auto decoded = base64_decode(encoded);
    if (!decoded) return std::nullopt;
    const size_t colon = decoded->find(':');
    if (colon == std::string::npos) return std::nullopt;
    return std::make_pair(decoded->substr(0, colon), decoded->substr(colon + 1));
}

}  // namespace squawk::fakes::platforms
