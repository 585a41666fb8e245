#include "common/core/daemon/scheduler_settings.hpp"

#include "common/core/config/section_schema.hpp"

namespace squawk::config {

SectionSchema<SchedulerSettings> scheduler_schema() {
    using S = SchedulerSettings;
    return {{
                integer("tick_ms", &S::tick_ms, 1, 60000),
                integer("leader_lease_ms", &S::leader_lease_ms, 100, 600000),
                integer("reconcile_after_seconds", &S::reconcile_after_seconds, 1, 86400),
                integer("metrics_port", &S::metrics_port, 0, 65535),
            },
            {}};
}

}  // namespace squawk::config
