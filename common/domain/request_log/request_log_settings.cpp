#include "common/domain/request_log/request_log_settings.hpp"

#include "common/core/config/section_schema.hpp"

namespace squawk::config {

SectionSchema<RequestLogSettings> request_log_schema() {
    using S = RequestLogSettings;
    return {{
                integer("retention_days", &S::retention_days, 1, 3650),
                integer("flush_interval_ms", &S::flush_interval_ms, 1, 60000),
                integer("max_pending", &S::max_pending, 100, 10000000),
            },
            {}};
}

}  // namespace squawk::config
