#include "common/core/config/config.hpp"

#include "common/core/config/platform_sections.hpp"
#include "common/domain/generation/modality.hpp"
#include "common/extensions/providers/registered.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <variant>

extern char** environ;

namespace squawk::config {
namespace {

// A value as written in the file or in the environment, before it is checked against its field.
using Scalar = std::variant<long long, double, bool, std::string>;

struct Field {
    std::string path;
    std::function<void(Config&, const Scalar&)> assign;
};

[[noreturn]] void bad_value(const std::string& path, const std::string& why) {
    throw ConfigError("config key '" + path + "': " + why);
}

template <class Get>
Field integer(std::string path, Get get, long long lo, long long hi) {
    return {path, [path, get, lo, hi](Config& c, const Scalar& s) {
                const auto* v = std::get_if<long long>(&s);
                if (!v) bad_value(path, "expected an integer");
                if (*v < lo || *v > hi)
                    bad_value(path, "must be between " + std::to_string(lo) + " and " +
                                        std::to_string(hi));
                get(c) = static_cast<std::remove_reference_t<decltype(get(c))>>(*v);
            }};
}

template <class Get>
Field real(std::string path, Get get, double lo, double hi) {
    return {path, [path, get, lo, hi](Config& c, const Scalar& s) {
                double value;
                if (const auto* d = std::get_if<double>(&s)) {
                    value = *d;
                } else if (const auto* i = std::get_if<long long>(&s)) {
                    value = static_cast<double>(*i);
                } else {
                    bad_value(path, "expected a number");
                }
                if (!(value >= lo && value <= hi)) {
                    std::ostringstream range;
                    range << "must be between " << lo << " and " << hi;
                    bad_value(path, range.str());
                }
                get(c) = value;
            }};
}

template <class Get>
Field boolean(std::string path, Get get) {
    return {path, [path, get](Config& c, const Scalar& s) {
                const auto* v = std::get_if<bool>(&s);
                if (!v) bad_value(path, "expected true or false");
                get(c) = *v;
            }};
}

template <class Get>
Field text(std::string path, Get get, bool may_be_empty = true) {
    return {path, [path, get, may_be_empty](Config& c, const Scalar& s) {
                const auto* v = std::get_if<std::string>(&s);
                if (!v) bad_value(path, "expected a string");
                if (!may_be_empty && v->empty()) bad_value(path, "must not be empty");
                get(c) = *v;
            }};
}

Field listen_address() {
    return {"api.listen", [](Config& c, const Scalar& s) {
                const auto* v = std::get_if<std::string>(&s);
                if (!v) bad_value("api.listen", "expected \"host:port\"");
                const auto colon = v->rfind(':');
                int port = 0;
                const char* end = v->data() + v->size();
                if (colon == std::string::npos || colon == 0 ||
                    std::from_chars(v->data() + colon + 1, end, port).ptr != end || port < 0 ||
                    port > 65535)
                    bad_value("api.listen", "expected \"host:port\" with a port from 0 to 65535");
                c.api.listen_host = v->substr(0, colon);
                c.api.listen_port = port;
            }};
}

// A credit amount: a non-negative number with at most 4 fraction digits, kept as units.
template <class Get>
Field credits(std::string path, Get get) {
    return {path, [path, get](Config& c, const Scalar& s) {
                double value;
                if (const auto* d = std::get_if<double>(&s))
                    value = *d;
                else if (const auto* i = std::get_if<long long>(&s))
                    value = static_cast<double>(*i);
                else
                    bad_value(path, "expected a number of credits");
                if (!(value >= 0 && value <= 1e9)) bad_value(path, "must be between 0 and 1e9");
                const double units = value * 10000;
                if (std::fabs(units - std::round(units)) > 1e-6)
                    bad_value(path, "must have at most 4 fraction digits");
                get(c) = std::llround(units);
            }};
}

Field currency() {
    return {"billing.currency", [](Config& c, const Scalar& s) {
                const auto* v = std::get_if<std::string>(&s);
                if (!v || v->size() != 3 || !std::all_of(v->begin(), v->end(), [](char ch) {
                        return ch >= 'A' && ch <= 'Z';
                    }))
                    bad_value("billing.currency", "expected a three-letter upper-case code");
                c.billing.currency = *v;
            }};
}

Field log_level() {
    return {"log.level", [](Config& c, const Scalar& s) {
                const auto* v = std::get_if<std::string>(&s);
                if (!v || (*v != "debug" && *v != "info" && *v != "warn" && *v != "error"))
                    bad_value("log.level", "expected one of debug, info, warn, error");
                c.log.level = *v;
            }};
}

// generation.<modality>: one of the providers of that modality compiled into this build.
Field default_provider(generation::Modality modality) {
    const std::string name(generation::name_of(modality));
    const std::string path = "generation." + name;
    return {path, [path, name, modality](Config& c, const Scalar& s) {
                const auto* v = std::get_if<std::string>(&s);
                if (!v) bad_value(path, "expected a provider name");
                const auto& registry = providers::registered();
                if (!registry.has(modality, *v)) {
                    std::string listed;
                    for (const auto& known : registry.names(modality))
                        listed += (listed.empty() ? "" : ", ") + known;
                    bad_value(path, "unknown " + name + " provider '" + *v + "' (registered: " +
                                        (listed.empty() ? "none" : listed) + ")");
                }
                c.generation.default_provider[name] = *v;
            }};
}

std::vector<Field> schema() {
    std::vector<Field> f = {
        real(
            "time_scale", [](Config& c) -> double& { return c.time_scale; }, 1e-6, 1000),
        listen_address(),
        integer(
            "api.threads", [](Config& c) -> int& { return c.api.threads; }, 1, 256),
        integer(
            "api.max_body_bytes", [](Config& c) -> long long& { return c.api.max_body_bytes; },
            1024, 64LL << 20),
        integer(
            "api.key_cache_seconds", [](Config& c) -> int& { return c.api.key_cache_seconds; }, 0,
            3600),
        text(
            "api.public_base_url", [](Config& c) -> std::string& { return c.api.public_base_url; },
            false),
        text(
            "mysql.host", [](Config& c) -> std::string& { return c.mysql.host; }, false),
        integer(
            "mysql.port", [](Config& c) -> int& { return c.mysql.port; }, 1, 65535),
        text(
            "mysql.user", [](Config& c) -> std::string& { return c.mysql.user; }, false),
        text("mysql.password", [](Config& c) -> std::string& { return c.mysql.password; }),
        text(
            "mysql.database", [](Config& c) -> std::string& { return c.mysql.database; }, false),
        integer(
            "mysql.pool_size", [](Config& c) -> int& { return c.mysql.pool_size; }, 1, 512),
        integer(
            "mysql.connect_timeout_ms",
            [](Config& c) -> int& { return c.mysql.connect_timeout_ms; }, 100, 60000),
        text(
            "redis.host", [](Config& c) -> std::string& { return c.redis.host; }, false),
        integer(
            "redis.port", [](Config& c) -> int& { return c.redis.port; }, 1, 65535),
        text("redis.password", [](Config& c) -> std::string& { return c.redis.password; }),
        text(
            "redis.prefix", [](Config& c) -> std::string& { return c.redis.prefix; }, false),
        integer(
            "redis.timeout_ms", [](Config& c) -> int& { return c.redis.timeout_ms; }, 100, 60000),
        integer(
            "jobs.max_attempts", [](Config& c) -> int& { return c.jobs.max_attempts; }, 1, 50),
        real(
            "jobs.backoff_base_seconds",
            [](Config& c) -> double& { return c.jobs.backoff_base_seconds; }, 0.001, 3600),
        real(
            "jobs.backoff_max_seconds",
            [](Config& c) -> double& { return c.jobs.backoff_max_seconds; }, 0.001, 86400),
        integer(
            "jobs.lease_seconds", [](Config& c) -> int& { return c.jobs.lease_seconds; }, 1, 3600),
        integer(
            "workers.blocking_threads",
            [](Config& c) -> int& { return c.workers.blocking_threads; }, 1, 256),
        integer(
            "workers.shutdown_grace_seconds",
            [](Config& c) -> int& { return c.workers.shutdown_grace_seconds; }, 0, 3600),
        integer(
            "workers.metrics_port", [](Config& c) -> int& { return c.workers.metrics_port; }, 0,
            65535),
        integer(
            "scheduler.tick_ms", [](Config& c) -> int& { return c.scheduler.tick_ms; }, 1, 60000),
        integer(
            "scheduler.leader_lease_ms",
            [](Config& c) -> int& { return c.scheduler.leader_lease_ms; }, 100, 600000),
        integer(
            "scheduler.reconcile_after_seconds",
            [](Config& c) -> int& { return c.scheduler.reconcile_after_seconds; }, 1, 86400),
        integer(
            "scheduler.metrics_port", [](Config& c) -> int& { return c.scheduler.metrics_port; }, 0,
            65535),
        boolean("security.allow_private_targets",
                [](Config& c) -> bool& { return c.security.allow_private_targets; }),
        text("security.secret_key",
             [](Config& c) -> std::string& { return c.security.secret_key; }),
        integer(
            "social.max_groups_per_workspace",
            [](Config& c) -> int& { return c.social.max_groups_per_workspace; }, 1, 10000),
        integer(
            "social.max_accounts_per_group",
            [](Config& c) -> int& { return c.social.max_accounts_per_group; }, 1, 100000),
        integer(
            "social.media_probe_timeout_ms",
            [](Config& c) -> int& { return c.social.media_probe_timeout_ms; }, 100, 120000),
        integer(
            "social.media_download_timeout_ms",
            [](Config& c) -> int& { return c.social.media_download_timeout_ms; }, 100, 600000),
        integer(
            "webhooks.timeout_ms", [](Config& c) -> int& { return c.webhooks.timeout_ms; }, 100,
            120000),
        integer(
            "webhooks.max_attempts", [](Config& c) -> int& { return c.webhooks.max_attempts; }, 1,
            20),
        real(
            "webhooks.backoff_base_seconds",
            [](Config& c) -> double& { return c.webhooks.backoff_base_seconds; }, 0.001, 86400),
        integer(
            "webhooks.retry_after_cap_seconds",
            [](Config& c) -> int& { return c.webhooks.retry_after_cap_seconds; }, 1, 86400),
        integer(
            "webhooks.failing_threshold",
            [](Config& c) -> int& { return c.webhooks.failing_threshold; }, 1, 1000),
        integer(
            "webhooks.retention_days", [](Config& c) -> int& { return c.webhooks.retention_days; },
            1, 3650),
        integer(
            "webhooks.rotation_grace_seconds",
            [](Config& c) -> int& { return c.webhooks.rotation_grace_seconds; }, 0, 2592000),
        integer(
            "webhooks.response_bytes_kept",
            [](Config& c) -> int& { return c.webhooks.response_bytes_kept; }, 0, 1024),
        integer(
            "webhooks.max_active_per_workspace",
            [](Config& c) -> int& { return c.webhooks.max_active_per_workspace; }, 1, 1000),
        integer(
            "webhooks.lease_seconds", [](Config& c) -> int& { return c.webhooks.lease_seconds; }, 1,
            3600),
        integer(
            "webhooks.dispatch_batch", [](Config& c) -> int& { return c.webhooks.dispatch_batch; },
            1, 5000),
        text(
            "media.dir", [](Config& c) -> std::string& { return c.media.dir; }, false),
        text(
            "providers.espeak.binary",
            [](Config& c) -> std::string& { return c.providers.espeak.binary; }, false),
        integer(
            "providers.espeak.timeout_seconds",
            [](Config& c) -> int& { return c.providers.espeak.timeout_seconds; }, 1, 3600),
        currency(),
        credits("billing.monthly_allowance",
                [](Config& c) -> long long& { return c.billing.monthly_allowance_units; }),
        boolean("rate_limits.enabled", [](Config& c) -> bool& { return c.rate_limits.enabled; }),
        integer(
            "rate_limits.small_max_accounts",
            [](Config& c) -> int& { return c.rate_limits.small_max_accounts; }, 0, 1000000),
        integer(
            "rate_limits.small_per_minute",
            [](Config& c) -> int& { return c.rate_limits.small_per_minute; }, 1, 10000000),
        integer(
            "rate_limits.medium_max_accounts",
            [](Config& c) -> int& { return c.rate_limits.medium_max_accounts; }, 0, 1000000),
        integer(
            "rate_limits.medium_per_minute",
            [](Config& c) -> int& { return c.rate_limits.medium_per_minute; }, 1, 10000000),
        integer(
            "rate_limits.large_per_minute",
            [](Config& c) -> int& { return c.rate_limits.large_per_minute; }, 1, 10000000),
        integer(
            "rate_limits.account_count_cache_seconds",
            [](Config& c) -> int& { return c.rate_limits.account_count_cache_seconds; }, 1, 86400),
        integer(
            "rate_limits.lease_ms", [](Config& c) -> int& { return c.rate_limits.lease_ms; }, 0,
            1000),
        integer(
            "request_log.retention_days",
            [](Config& c) -> int& { return c.request_log.retention_days; }, 1, 3650),
        integer(
            "request_log.flush_interval_ms",
            [](Config& c) -> int& { return c.request_log.flush_interval_ms; }, 1, 60000),
        integer(
            "request_log.max_pending", [](Config& c) -> int& { return c.request_log.max_pending; },
            100, 10000000),
        integer(
            "idempotency.ttl_hours", [](Config& c) -> int& { return c.idempotency.ttl_hours; }, 1,
            24 * 30),
        integer(
            "idempotency.lock_seconds",
            [](Config& c) -> int& { return c.idempotency.lock_seconds; }, 1, 3600),
        log_level(),
    };
    for (const auto& operation : billable_operations()) {
        const std::string name(operation);
        f.push_back(credits("billing.prices." + name, [name](Config& c) -> long long& {
            return c.billing.price_units[name];
        }));
    }
    for (const auto modality : generation::kModalities) f.push_back(default_provider(modality));
    for (const auto& section : platform_sections()) {
        const std::string name(section.name);
        const std::string base = "social." + name + ".";
        f.push_back(text(
            base + "api_base_url",
            [name](Config& c) -> std::string& { return c.social.platforms[name].api_base_url; },
            false));
        f.push_back(integer(
            base + "timeout_ms",
            [name](Config& c) -> int& { return c.social.platforms[name].timeout_ms; }, 100,
            120000));
    }
    for (const char* pool : kPoolNames) {
        const std::string name = pool;
        const std::string base = "workers." + name + ".";
        f.push_back(integer(
            base + "threads", [name](Config& c) -> int& { return c.workers.pools[name].threads; },
            1, 64));
        f.push_back(integer(
            base + "fibers", [name](Config& c) -> int& { return c.workers.pools[name].fibers; }, 1,
            10000));
        f.push_back(integer(
            base + "batch", [name](Config& c) -> int& { return c.workers.pools[name].batch; }, 1,
            100));
        f.push_back(integer(
            base + "lead_ms", [name](Config& c) -> int& { return c.workers.pools[name].lead_ms; },
            0, kMaxPoolLeadMs));
        f.push_back(integer(
            base + "http_connections",
            [name](Config& c) -> int& { return c.workers.pools[name].http_connections; }, 0,
            100000));
    }
    return f;
}

std::string env_name(const std::string& path) {
    std::string name = "SQUAWK_";
    for (char ch : path) name += ch == '.' ? '_' : static_cast<char>(std::toupper(ch));
    return name;
}

Scalar from_toml(const toml::node& node, const std::string& path) {
    if (auto v = node.value_exact<int64_t>()) return static_cast<long long>(*v);
    if (auto v = node.value_exact<double>()) return *v;
    if (auto v = node.value_exact<bool>()) return *v;
    if (auto v = node.value_exact<std::string>()) return *v;
    bad_value(path, "expected a string, number or boolean");
}

// Environment values are text; the field decides what they must look like.
Scalar from_environment(const std::string& raw) {
    if (raw == "true") return true;
    if (raw == "false") return false;
    long long integer_value = 0;
    const char* end = raw.data() + raw.size();
    if (!raw.empty() && std::from_chars(raw.data(), end, integer_value).ptr == end)
        return integer_value;
    double real_value = 0;
    if (!raw.empty() && std::from_chars(raw.data(), end, real_value).ptr == end) return real_value;
    return raw;
}

void collect(const toml::table& table, const std::string& prefix,
             std::vector<std::pair<std::string, const toml::node*>>& out) {
    for (const auto& [key, node] : table) {
        const std::string path =
            prefix.empty() ? std::string(key.str()) : prefix + "." + std::string(key.str());
        if (const auto* sub = node.as_table())
            collect(*sub, path, out);
        else
            out.emplace_back(path, &node);
    }
}

void validate(Config& c) {
    if (c.jobs.backoff_max_seconds < c.jobs.backoff_base_seconds)
        bad_value("jobs.backoff_max_seconds", "must not be below jobs.backoff_base_seconds");
    for (const char* pool : kPoolNames) c.workers.pools.try_emplace(pool);
    // A deployment may point any platform elsewhere; unset, it talks to the public API.
    for (const auto& section : platform_sections()) {
        auto& settings = c.social.platforms[std::string(section.name)];
        if (settings.api_base_url.empty())
            settings.api_base_url = std::string(section.default_base_url);
        if (!settings.api_base_url.starts_with("https://") &&
            !settings.api_base_url.starts_with("http://"))
            bad_value("social." + std::string(section.name) + ".api_base_url",
                      "expected an http or https URL");
    }
    const auto& key = c.security.secret_key;
    if (!key.empty() &&
        (key.size() != 64 || key.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos))
        bad_value("security.secret_key", "expected 64 hexadecimal characters (32 bytes)");
    for (const auto& operation : billable_operations())
        c.billing.price_units.try_emplace(std::string(operation), 0);
    if (c.rate_limits.medium_max_accounts < c.rate_limits.small_max_accounts)
        bad_value("rate_limits.medium_max_accounts", "must not be below small_max_accounts");
}

}  // namespace

Config parse(const std::string& toml_text, const std::map<std::string, std::string>& environment) {
    toml::table document;
    try {
        document = toml::parse(toml_text);
    } catch (const toml::parse_error& e) {
        std::ostringstream message;
        message << "config is not valid TOML: " << e.description() << " (line "
                << e.source().begin.line << ")";
        throw ConfigError(message.str());
    }
    const auto fields = schema();
    std::vector<std::pair<std::string, const toml::node*>> entries;
    collect(document, "", entries);

    Config config;
    for (const auto& entry : entries) {
        const std::string& path = entry.first;
        auto it = std::find_if(fields.begin(), fields.end(),
                               [&](const Field& f) { return f.path == path; });
        if (it == fields.end()) throw ConfigError("unknown config key '" + path + "'");
        it->assign(config, from_toml(*entry.second, path));
    }
    for (const auto& field : fields) {
        const auto found = environment.find(env_name(field.path));
        if (found != environment.end()) {
            try {
                field.assign(config, from_environment(found->second));
            } catch (const ConfigError& e) {
                throw ConfigError(std::string(e.what()) + " (from " + found->first + ")");
            }
        }
    }
    validate(config);
    return config;
}

Config load(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw ConfigError("cannot read config file '" + path + "'");
    std::ostringstream text;
    text << in.rdbuf();
    std::map<std::string, std::string> environment;
    for (char** e = environ; *e; ++e) {
        std::string entry = *e;
        const auto eq = entry.find('=');
        if (eq != std::string::npos && entry.starts_with("SQUAWK_"))
            environment.emplace(entry.substr(0, eq), entry.substr(eq + 1));
    }
    return parse(text.str(), environment);
}

std::string resolve_path(const std::string& from_command_line) {
    if (!from_command_line.empty()) return from_command_line;
    if (const char* env = std::getenv("SQUAWK_CONFIG"); env && *env) return env;
    return "config/squawk.toml";
}

}  // namespace squawk::config

namespace squawk::config {

std::span<const std::string_view> billable_operations() {
    static constexpr std::string_view operations[] = {"text_to_speech"};
    return operations;
}

}  // namespace squawk::config
