// Deployment settings for every Squawk process: one TOML file plus SQUAWK_* environment overrides.
// Loading validates everything up front so a daemon never starts on a half-understood file.
#pragma once

#include <algorithm>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace squawk::config {

// Raised for an unreadable file, an unknown key or a bad value; daemons exit with code 2 on it.
class ConfigError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct ApiSettings {
    std::string listen_host = "127.0.0.1";
    int listen_port = 8080;
    int threads = 4;
    long long max_body_bytes = 1048576;
    std::string public_base_url = "http://127.0.0.1:8080/v1";
    int key_cache_seconds = 30;  // keys and workspace records; 0 reads them from MySQL each time
};

struct MysqlSettings {
    std::string host = "127.0.0.1";
    int port = 3306;
    std::string user = "squawk";
    std::string password;
    std::string database = "squawk";
    int pool_size = 8;
    int connect_timeout_ms = 2000;
};

struct RedisSettings {
    std::string host = "127.0.0.1";
    int port = 6379;
    std::string password;
    std::string prefix = "squawk";
    int timeout_ms = 3000;
};

struct JobSettings {
    int max_attempts = 5;
    double backoff_base_seconds = 2.0;
    double backoff_max_seconds = 600.0;
    int lease_seconds = 60;
};

struct PoolSettings {
    int threads = 1;
    int fibers = 16;
    int batch = 100;
    // How long before their run_after the scheduler hands the pool's jobs over, so that the work
    // that may come early (loading, checks) is done when the time comes. Tasks still act at
    // run_after.
    int lead_ms = 0;
    // The pool's share of its worker's HTTP requests in flight (the worker's HTTP client holds the
    // sum of its pools' shares; more wait their turn); 0: one per fiber.
    int http_connections = 0;
};

// The pool's share of its worker's HTTP connections.
inline int http_connections_of(const PoolSettings& p) {
    const int per_fiber = p.threads * p.fibers;
    return p.http_connections > 0 ? std::min(per_fiber, p.http_connections) : per_fiber;
}

// Workers claim a job at most this long before its run_after, whatever the scheduler's lead
// (so a scheduler configured with a longer lead than a worker never has its jobs refused).
inline constexpr int kMaxPoolLeadMs = 5000;

// Publishing prepares scheduled posts ahead: at their time only the send remains. Its fibers
// mostly wait for their posts' time, so it needs far fewer connections than fibers.
inline PoolSettings publish_pool_defaults() {
    PoolSettings p;
    p.lead_ms = 100;
    p.http_connections = 512;
    return p;
}

struct WorkerSettings {
    int blocking_threads = 4;
    int shutdown_grace_seconds = 20;
    int metrics_port = 0;
    // Keyed by pool name: publish, generate, webhooks, sync.
    std::map<std::string, PoolSettings> pools{{"publish", publish_pool_defaults()}};
};

struct SchedulerSettings {
    int tick_ms = 100;
    int leader_lease_ms = 5000;
    int reconcile_after_seconds = 30;
    int metrics_port = 0;
};

struct SecuritySettings {
    bool allow_private_targets = false;
    // 64 hex characters (AES-256) sealing every secret at rest: webhook signing secrets and
    // platform tokens. Required where secrets are used.
    std::string secret_key;
};

// A social platform's API: its base URL (self-hosted Bot API servers, fakes in tests) and the
// timeout of one call.
struct PlatformSettings {
    std::string api_base_url;
    int timeout_ms = 10000;
};

// Connected social platforms (issue 4); keyed by platform identifier.
struct SocialSettings {
    std::map<std::string, PlatformSettings> platforms;
    int max_groups_per_workspace = 50;
    int max_accounts_per_group = 100;
    // Per request of the publish worker's media probe (HEAD or one-byte GET of a media URL).
    int media_probe_timeout_ms = 10000;
    // For the whole download of an image the platform takes only as an upload.
    int media_download_timeout_ms = 60000;
};

// Outgoing webhook deliveries (spec 6): schedule and limits.
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

struct MediaSettings {
    std::string dir = "media";
};

// The provider each generation modality uses, keyed by modality ("speech"); every name must be
// one of the providers compiled in (common/extensions/providers/registered.cpp).
struct GenerationSettings {
    std::map<std::string, std::string> default_provider{{"speech", "espeak"}};
};

// The espeak-ng speech provider: its program and how long one synthesis may take.
struct EspeakSettings {
    std::string binary = "espeak-ng";
    int timeout_seconds = 60;
};

// Each generation provider's own section, [providers.<name>].
struct ProviderSettings {
    EspeakSettings espeak;
};

// Credits are configured as decimal numbers and kept as integers of 1/10,000 credit.
struct BillingSettings {
    std::string currency = "USD";
    long long monthly_allowance_units = 0;
    std::map<std::string, long long>
        price_units;  // per billable operation (billing/operations.hpp)
};

// Requests per minute by connected social accounts (spec 8.1): up to small_max_accounts,
// up to medium_max_accounts, above.
struct RateLimitSettings {
    bool enabled = true;
    int small_max_accounts = 2;
    int small_per_minute = 60;
    int medium_max_accounts = 2000;
    int medium_per_minute = 600;
    int large_per_minute = 1200;
    int account_count_cache_seconds = 300;
    // How long a busy bucket spends tokens granted in one batch (TokenLeases); 0 = one each.
    int lease_ms = 100;
};

struct RequestLogSettings {
    int retention_days = 90;
    int flush_interval_ms = 200;
    int max_pending = 100000;
};

struct IdempotencySettings {
    int ttl_hours = 24;
    int lock_seconds = 60;
};

struct LogSettings {
    std::string level = "info";
};

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
    GenerationSettings generation;
    ProviderSettings providers;
    BillingSettings billing;
    RateLimitSettings rate_limits;
    RequestLogSettings request_log;
    IdempotencySettings idempotency;
    LogSettings log;
};

// The worker pools a process may run.
inline constexpr const char* kPoolNames[] = {"publish", "generate", "webhooks", "sync"};
// The pool whose work waits in MySQL (webhook deliveries) instead of a Redis queue.
inline constexpr std::string_view kWebhookPool = "webhooks";

// Operations a route may be billed as; each has a price `billing.prices.<name>` (0 = free).
std::span<const std::string_view> billable_operations();

// Parses `path`, applies SQUAWK_* overrides from the environment and validates the result.
Config load(const std::string& path);

// Same as load() for a TOML text (tests); `environment` replaces the process environment.
Config parse(const std::string& toml_text, const std::map<std::string, std::string>& environment);

// The config file a process uses: --config wins, then SQUAWK_CONFIG, then config/squawk.toml.
std::string resolve_path(const std::string& from_command_line);

}  // namespace squawk::config
