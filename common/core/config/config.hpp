// Deployment settings for every Squawk process: one TOML file plus SQUAWK_* environment overrides.
// Each module owns its settings struct and its keys; Config only composes them, and loading
// validates everything up front so a daemon never starts on a half-understood file.
#pragma once

#include "common/core/config/config_error.hpp"
#include "common/core/crypto/security_settings.hpp"
#include "common/core/daemon/api_settings.hpp"
#include "common/core/daemon/scheduler_settings.hpp"
#include "common/core/daemon/worker_settings.hpp"
#include "common/core/db/mysql_settings.hpp"
#include "common/core/log/log_settings.hpp"
#include "common/core/rate_limit/rate_limit_settings.hpp"
#include "common/core/redis/redis_settings.hpp"
#include "common/core/storage/storage_settings.hpp"
#include "common/domain/billing/billing_settings.hpp"
#include "common/domain/generation/content_policy_settings.hpp"
#include "common/domain/generation/generation_settings.hpp"
#include "common/domain/idempotency/idempotency_settings.hpp"
#include "common/domain/jobs/job_settings.hpp"
#include "common/domain/media/media_settings.hpp"
#include "common/domain/request_log/request_log_settings.hpp"
#include "common/domain/social/social_settings.hpp"
#include "common/domain/webhooks/webhook_settings.hpp"
#include "common/extensions/providers/provider_settings.hpp"

#include <map>
#include <string>

namespace squawk::config {

// Headers that only hold a Config include config_fwd.hpp; clients take their module's struct.
struct Config {
    double time_scale = 1.0;
    ApiSettings api;
    MysqlSettings mysql;
    RedisSettings redis;
    JobSettings jobs;
    WorkerSettings workers;
    SchedulerSettings scheduler;
    SecuritySettings security;
    WebhookSettings webhooks;
    SocialSettings social;
    MediaSettings media;
    StorageSettings storage;
    GenerationSettings generation;
    ContentPolicySettings content_policy;
    ProviderSettings providers;
    BillingSettings billing;
    RateLimitSettings rate_limits;
    RequestLogSettings request_log;
    IdempotencySettings idempotency;
    LogSettings log;
};

// Parses `path`, applies SQUAWK_* overrides from the environment and validates the result.
Config load(const std::string& path);

// Same as load() for a TOML text (tests); `environment` replaces the process environment.
Config parse(const std::string& toml_text, const std::map<std::string, std::string>& environment);

// The config file a process uses: --config wins, then SQUAWK_CONFIG, then config/squawk.toml.
std::string resolve_path(const std::string& from_command_line);

}  // namespace squawk::config
