#include "api/server/rate_limit_gate.hpp"

#include "common/core/config/config.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/metrics/registry.hpp"
#include "common/domain/accounts/connected_accounts.hpp"
#include "common/domain/auth/identity_epoch.hpp"

namespace squawk::api {
namespace {

rate_limit::Subject subject_of(const Route& route, const RequestContext& context) {
    const auto& key = context.api_key();
    rate_limit::Subject subject;
    subject.workspace_id = context.caller_workspace_id;
    if (key.rate_limit) {
        subject.bucket = "key:" + std::to_string(key.id);
        subject.fixed_limit = key.rate_limit;
    } else {
        subject.bucket = context.is_test ? "test" : "live";
    }
    subject.per_second_ceiling =
        route.access.kind == Access::Kind::scope && route.access.scope == "analytics:read";
    return subject;
}

std::string leased_bucket(const rate_limit::Subject& subject) {
    return std::to_string(subject.workspace_id) + ":" + subject.bucket;
}

// One check in Redis (with the epoch precondition when given); nothing when it did not hold.
std::optional<rate_limit::Decision> check(const rate_limit::Subject& subject,
                                          const RequestContext& context, Services& services,
                                          std::optional<long long> epoch,
                                          const rate_limit::Ask& ask = {}) {
    return services.redis.run([&](redis::RedisClient& r) -> std::optional<rate_limit::Decision> {
        const auto count_connected = [&] {
            return services.mysql.run([&](db::Session& s) {
                return accounts::ConnectedAccounts::count(s, context.caller_workspace_id);
            });
        };
        if (!epoch) return services.rate_limiter.check(r, subject, count_connected);
        const rate_limit::Precondition current{auth::IdentityEpoch::key(r), *epoch};
        return services.rate_limiter.check_if(r, subject, current, count_connected, ask);
    });
}

// A cached key's check is paid from this process's lease on its bucket while one lasts, else it
// asks Redis for the next lease. Analytics routes also count a per-second window: never leased.
std::optional<rate_limit::Decision> check_cached(const Route& route, const RequestContext& context,
                                                 Services& services, long long epoch) {
    const auto subject = subject_of(route, context);
    if (subject.per_second_ceiling) return check(subject, context, services, epoch);
    const auto bucket = leased_bucket(subject);
    const auto now = rate_limit::TokenLeases::Clock::now();
    if (auto paid = services.leases.spend(bucket, epoch, now)) return paid;
    auto decision = check(subject, context, services, epoch, services.leases.ask(bucket, now));
    if (decision) services.leases.keep(bucket, epoch, *decision, now);
    return decision;
}

}  // namespace

void refuse_if_limited(const std::optional<rate_limit::Decision>& limited) {
    if (!limited || limited->allowed) return;
    const auto& decision = *limited;
    metrics::Registry::global()
        .counter("squawk_rate_limit_refusals_total", "Requests refused by the rate limits.",
                 {{"window", decision.refused_by_second_ceiling ? "second" : "minute"}})
        .inc();
    nlohmann::json details = {{"limit", decision.limit},
                              {"retry_after_seconds", decision.retry_after_seconds}};
    if (decision.refused_by_second_ceiling)
        details["window"] = "second";
    else
        details["window"] = "minute";
    throw ApiError(ErrorCode::RateLimitExceeded, {}, std::move(details));
}

bool route_is_limited(const Route& route, const Services& services) {
    return route.rate_limited && services.config.rate_limits.enabled;
}

void apply_rate_limit(const Route& route, const RequestContext& context, Services& services,
                      std::optional<rate_limit::Decision>& decision) {
    if (!route_is_limited(route, services) || !context.key) return;
    try {
        decision = check(subject_of(route, context), context, services, std::nullopt);
    } catch (const redis::RedisUnavailable& e) {
        log::warn("rate limit not applied: redis unavailable",
                  {{"request_id", context.request_id}, {"error", e.what()}});
    }
}

bool apply_rate_limit_if_epoch(const Route& route, const RequestContext& context,
                               Services& services, std::optional<rate_limit::Decision>& decision,
                               long long epoch) {
    try {
        decision = check_cached(route, context, services, epoch);
    } catch (const redis::RedisUnavailable&) {
        return false;
    }
    return decision.has_value();
}

}  // namespace squawk::api
