#include "common/core/crypto/security_settings.hpp"

#include "common/core/config/section_schema.hpp"

namespace squawk::config {

SectionSchema<SecuritySettings> security_schema() {
    using S = SecuritySettings;
    return {{
                boolean("allow_private_targets", &S::allow_private_targets),
                text("secret_key", &S::secret_key),
            },
            [](S& security, const std::string& section) {
                const auto& key = security.secret_key;
                if (!key.empty() &&
                    (key.size() != 64 ||
                     key.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos))
                    bad_value(section + ".secret_key",
                              "expected 64 hexadecimal characters (32 bytes)");
            }};
}

}  // namespace squawk::config
