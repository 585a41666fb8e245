// Idempotency keys: how long a request's answer is kept and how long a first try holds its lock.
// Section [idempotency]; the rows are in idempotency_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

namespace squawk::config {

struct IdempotencySettings {
    int ttl_hours = 24;
    int lock_seconds = 60;
};

SectionSchema<IdempotencySettings> idempotency_schema();

}  // namespace squawk::config
