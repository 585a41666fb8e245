// Platform credentials at rest: sealed with the one secrets key (AES-256-GCM), opened only to
// call the platform. Also the connector Target of a stored account.
#pragma once

#include "common/core/crypto/security_settings.hpp"
#include "common/domain/social/account_repository.hpp"
#include "common/domain/social/connector.hpp"

#include <string>

namespace squawk::social {

std::string seal_credentials(const config::SecuritySettings& security,
                             const Credentials& credentials);
// Throws when the credentials were sealed under another key or were altered.
Credentials open_credentials(const config::SecuritySettings& security, const std::string& sealed);
// What a connector needs to act for `account`: its identity and opened credentials.
Target target_of(const Account& account, const config::SecuritySettings& security);

}  // namespace squawk::social
