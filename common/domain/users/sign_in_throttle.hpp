// The throttle on proving who one is: every attempt at a password or a second-factor code,
// right or wrong, counted per account and per client address in Redis by the API's own rate
// limiter, so a guesser gets a few tries a minute whoever they aim at.
#pragma once

#include "common/core/rate_limit/rate_limiter.hpp"
#include "common/core/redis/redis_pool.hpp"

#include <optional>
#include <string_view>

namespace squawk::users {

inline constexpr int kAttemptsPerAccount = 5;
inline constexpr int kAttemptsPerAddress = 20;

// Counts one attempt of `kind` ("dashboard-login": signing in; "dashboard-account": proving the
// password or a code again while signed in, each kind its own allowance) at `email` from
// `address`; the refusal of whichever limit it exceeds, or nothing.
std::optional<rate_limit::Decision> count_attempt(redis::RedisPool& redis,
                                                  rate_limit::RateLimiter& limiter,
                                                  std::string_view kind, std::string_view email,
                                                  std::string_view address);

}  // namespace squawk::users
