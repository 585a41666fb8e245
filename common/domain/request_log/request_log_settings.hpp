// The request log: how long rows are kept and how the API writes them in batches. Section
// [request_log]; the rows are in request_log_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

namespace squawk::config {

struct RequestLogSettings {
    int retention_days = 90;
    int flush_interval_ms = 200;
    int max_pending = 100000;
};

SectionSchema<RequestLogSettings> request_log_schema();

}  // namespace squawk::config
