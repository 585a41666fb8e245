// The one key that seals secrets at rest (webhook signing secrets, platform tokens), read from
// config security.secret_key so every feature encrypts with the same configured key.
#pragma once

#include "common/core/crypto/security_settings.hpp"

#include <string>

namespace squawk::crypto {

// The 32 raw bytes of security.secret_key; throws std::runtime_error when it is not set.
std::string secret_key_bytes(const config::SecuritySettings& settings);

}  // namespace squawk::crypto
