#include "common/domain/users/second_factor.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/domain/users/totp.hpp"
#include "common/domain/users/user_repository.hpp"

namespace squawk::users {

bool SecondFactor::enabled(db::Session& s, long long user_id) const {
    return TotpRepository::find(s, user_id).sealed_secret.has_value();
}

std::string SecondFactor::start_enrollment(db::Session& s, long long user_id) const {
    std::string secret = crypto::random_bytes(kTotpSecretBytes);
    TotpRepository::set_pending(s, user_id, crypto::seal(key_, secret));
    return secret;
}

std::optional<std::string> SecondFactor::pending(db::Session& s, long long user_id) const {
    const auto record = TotpRepository::find(s, user_id);
    if (!record.sealed_pending_secret) return std::nullopt;
    return crypto::open(key_, *record.sealed_pending_secret);
}

bool SecondFactor::confirm(db::Session& s, long long user_id, std::string_view code,
                           time::TimePoint at) const {
    const auto record = TotpRepository::find(s, user_id);
    if (!record.sealed_pending_secret) return false;
    const auto step =
        totp_matching_step(crypto::open(key_, *record.sealed_pending_secret), code, at);
    if (!step) return false;
    TotpRepository::enable(s, user_id, *record.sealed_pending_secret, *step);
    return true;
}

bool SecondFactor::verify(db::Session& s, long long user_id, std::string_view code,
                          time::TimePoint at) const {
    const auto record = TotpRepository::find(s, user_id);
    if (!record.sealed_secret) return false;
    const auto step = totp_matching_step(crypto::open(key_, *record.sealed_secret), code, at);
    // The conditional update settles a race of two browsers sending the same code at once.
    return step && TotpRepository::claim_step(s, user_id, *step);
}

void SecondFactor::disable(db::Session& s, long long user_id) const {
    TotpRepository::disable(s, user_id);
}

}  // namespace squawk::users
