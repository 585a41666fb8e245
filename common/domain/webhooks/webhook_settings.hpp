// Outgoing webhook deliveries (spec 6): their schedule and limits. Section [webhooks]; the rows
// are in webhook_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

namespace squawk::config {

struct WebhookSettings {
    int timeout_ms = 10000;
    int max_attempts = 5;
    double backoff_base_seconds = 120.0;  // 2, 4, 8, 16, 32 minutes
    int retry_after_cap_seconds = 3600;
    int failing_threshold = 10;
    int retention_days = 90;
    int rotation_grace_seconds = 86400;
    int response_bytes_kept = 1024;
    int max_active_per_workspace = 10;
    int lease_seconds = 60;
    int dispatch_batch = 500;
};

SectionSchema<WebhookSettings> webhooks_schema();

}  // namespace squawk::config
