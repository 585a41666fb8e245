// Requests per minute by connected social accounts (spec 8.1), and how API processes share the
// allowance. Section [rate_limits]; the rows are in rate_limit_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

namespace squawk::config {

// Tiers: up to small_max_accounts, up to medium_max_accounts, above.
struct RateLimitSettings {
    bool enabled = true;
    int small_max_accounts = 2;
    int small_per_minute = 60;
    int medium_max_accounts = 2000;
    int medium_per_minute = 600;
    int large_per_minute = 1200;
    int account_count_cache_seconds = 300;
    // How long a busy bucket spends tokens granted in one batch (TokenLeases); 0 = one each.
    int lease_ms = 100;
};

SectionSchema<RateLimitSettings> rate_limits_schema();

}  // namespace squawk::config
