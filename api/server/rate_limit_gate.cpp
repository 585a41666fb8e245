#include "api/server/rate_limit_gate.hpp"

#include "common/accounts/connected_accounts.hpp"
#include "common/error/api_error.hpp"
#include "common/log/logger.hpp"
#include "common/metrics/registry.hpp"

namespace squawk::api {

void apply_rate_limit(const Route& route, const RequestContext& context, Services& services,
                      std::optional<rate_limit::Decision>& decision) {
    if (!route.rate_limited || !services.config.rate_limits.enabled || !context.key) return;
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
    try {
        decision = services.redis.run([&](redis::RedisClient& r) {
            return services.rate_limiter.check(r, subject, [&] {
                return services.mysql.run([&](db::Session& s) {
                    return accounts::ConnectedAccounts::count(s, context.caller_workspace_id);
                });
            });
        });
    } catch (const redis::RedisUnavailable& e) {
        log::warn("rate limit not applied: redis unavailable",
                  {{"request_id", context.request_id}, {"error", e.what()}});
        return;
    }
    if (decision->allowed) return;
    metrics::Registry::global()
        .counter("squawk_rate_limit_refusals_total", "Requests refused by the rate limits.",
                 {{"window", decision->refused_by_second_ceiling ? "second" : "minute"}})
        .inc();
    nlohmann::json details = {{"limit", decision->limit},
                              {"retry_after_seconds", decision->retry_after_seconds}};
    if (decision->refused_by_second_ceiling)
        details["window"] = "second";
    else
        details["window"] = "minute";
    throw ApiError(ErrorCode::RateLimitExceeded, {}, std::move(details));
}

}  // namespace squawk::api
