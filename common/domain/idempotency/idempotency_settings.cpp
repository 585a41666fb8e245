#include "common/domain/idempotency/idempotency_settings.hpp"

#include "common/core/config/section_schema.hpp"

namespace squawk::config {

SectionSchema<IdempotencySettings> idempotency_schema() {
    using S = IdempotencySettings;
    return {{
                integer("ttl_hours", &S::ttl_hours, 1, 24 * 30),
                integer("lock_seconds", &S::lock_seconds, 1, 3600),
            },
            {}};
}

}  // namespace squawk::config
