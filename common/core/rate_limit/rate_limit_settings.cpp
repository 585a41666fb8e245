#include "common/core/rate_limit/rate_limit_settings.hpp"

#include "common/core/config/section_schema.hpp"

namespace squawk::config {

SectionSchema<RateLimitSettings> rate_limits_schema() {
    using S = RateLimitSettings;
    return {{
                boolean("enabled", &S::enabled),
                integer("small_max_accounts", &S::small_max_accounts, 0, 1000000),
                integer("small_per_minute", &S::small_per_minute, 1, 10000000),
                integer("medium_max_accounts", &S::medium_max_accounts, 0, 1000000),
                integer("medium_per_minute", &S::medium_per_minute, 1, 10000000),
                integer("large_per_minute", &S::large_per_minute, 1, 10000000),
                integer("account_count_cache_seconds", &S::account_count_cache_seconds, 1, 86400),
                integer("lease_ms", &S::lease_ms, 0, 1000),
            },
            [](S& limits, const std::string& section) {
                if (limits.medium_max_accounts < limits.small_max_accounts)
                    bad_value(section + ".medium_max_accounts",
                              "must not be below small_max_accounts");
            }};
}

}  // namespace squawk::config
