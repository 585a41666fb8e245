// Settings of squawk-scheduler: its tick, its leader lease and when lost work is enqueued again.
// Section [scheduler]; the rows are in scheduler_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

namespace squawk::config {

struct SchedulerSettings {
    int tick_ms = 100;
    int leader_lease_ms = 5000;
    int reconcile_after_seconds = 30;
    int metrics_port = 0;
};

SectionSchema<SchedulerSettings> scheduler_schema();

}  // namespace squawk::config
