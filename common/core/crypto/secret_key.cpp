#include "common/core/crypto/secret_key.hpp"

#include "common/core/crypto/crypto.hpp"

#include <stdexcept>

namespace squawk::crypto {

std::string secret_key_bytes(const config::SecuritySettings& settings) {
    if (settings.secret_key.empty())
        throw std::runtime_error("security.secret_key is not configured");
    return from_hex(settings.secret_key);
}

}  // namespace squawk::crypto
