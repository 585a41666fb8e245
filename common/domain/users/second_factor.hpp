// A dashboard user's optional second factor: a TOTP secret enrolled from the account page,
// enabled only once a code made from it is right, and asked for at every sign-in after the
// password. Secrets are sealed with security.secret_key; a code is accepted once at most.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace squawk::users {

class SecondFactor {
  public:
    // `key`: the 32 raw bytes of security.secret_key.
    explicit SecondFactor(std::string key) : key_(std::move(key)) {}

    bool enabled(db::Session& s, long long user_id) const;
    // A new secret (raw bytes) awaiting its first code; it replaces an earlier pending one.
    std::string start_enrollment(db::Session& s, long long user_id) const;
    std::optional<std::string> pending(db::Session& s, long long user_id) const;
    // Enables the pending secret when `code` is one of its codes; false otherwise.
    bool confirm(db::Session& s, long long user_id, std::string_view code,
                 time::TimePoint at) const;
    // Whether `code` is a current code of the enabled secret not accepted before; accepting it
    // uses up its step and every earlier one.
    bool verify(db::Session& s, long long user_id, std::string_view code, time::TimePoint at) const;
    void disable(db::Session& s, long long user_id) const;

  private:
    std::string key_;
};

}  // namespace squawk::users
