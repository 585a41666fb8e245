// Which targets outbound calls may reach and the key that seals secrets at rest. Section
// [security]; the rows are in security_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <string>

namespace squawk::config {

struct SecuritySettings {
    bool allow_private_targets = false;
    // 64 hex characters (AES-256) sealing every secret at rest: webhook signing secrets and
    // platform tokens. Required where secrets are used.
    std::string secret_key;
};

SectionSchema<SecuritySettings> security_schema();

}  // namespace squawk::config
