#include "common/core/redis/redis_settings.hpp"

#include "common/core/config/section_schema.hpp"

namespace squawk::config {

SectionSchema<RedisSettings> redis_schema() {
    using S = RedisSettings;
    return {{
                text("host", &S::host, false),
                integer("port", &S::port, 1, 65535),
                host_port_list("sentinels", &S::sentinels),
                text("sentinel_master", &S::sentinel_master, false),
                text("password", &S::password),
                text("prefix", &S::prefix, false),
                integer("timeout_ms", &S::timeout_ms, 100, 60000),
            },
            {}};
}

}  // namespace squawk::config
