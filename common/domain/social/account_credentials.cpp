#include "common/domain/social/account_credentials.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/crypto/secret_key.hpp"

namespace squawk::social {

std::string seal_credentials(const config::SecuritySettings& security,
                             const Credentials& credentials) {
    return crypto::seal(crypto::secret_key_bytes(security), nlohmann::json(credentials).dump());
}

Credentials open_credentials(const config::SecuritySettings& security, const std::string& sealed) {
    return nlohmann::json::parse(crypto::open(crypto::secret_key_bytes(security), sealed))
        .get<Credentials>();
}

Target target_of(const Account& account, const config::SecuritySettings& security) {
    return Target{account.identity, open_credentials(security, account.credentials_sealed)};
}

}  // namespace squawk::social
