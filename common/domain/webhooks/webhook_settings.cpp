#include "common/domain/webhooks/webhook_settings.hpp"

#include "common/core/config/section_schema.hpp"

namespace squawk::config {

SectionSchema<WebhookSettings> webhooks_schema() {
    using S = WebhookSettings;
    return {{
                integer("timeout_ms", &S::timeout_ms, 100, 120000),
                integer("max_attempts", &S::max_attempts, 1, 20),
                real("backoff_base_seconds", &S::backoff_base_seconds, 0.001, 86400),
                integer("retry_after_cap_seconds", &S::retry_after_cap_seconds, 1, 86400),
                integer("failing_threshold", &S::failing_threshold, 1, 1000),
                integer("retention_days", &S::retention_days, 1, 3650),
                integer("rotation_grace_seconds", &S::rotation_grace_seconds, 0, 2592000),
                integer("response_bytes_kept", &S::response_bytes_kept, 0, 1024),
                integer("max_active_per_workspace", &S::max_active_per_workspace, 1, 1000),
                integer("lease_seconds", &S::lease_seconds, 1, 3600),
                integer("dispatch_batch", &S::dispatch_batch, 1, 5000),
            },
            {}};
}

}  // namespace squawk::config
