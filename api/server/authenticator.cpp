#include "api/server/authenticator.hpp"

#include "api/server/rate_limit_gate.hpp"
#include "common/core/error/api_error.hpp"

namespace squawk::api {
namespace {

void act_as(RequestContext& context, auth::ApiKey key, std::optional<long long> epoch) {
    context.workspace_id = context.caller_workspace_id = key.workspace_id;
    context.is_test = key.type == auth::KeyType::test;
    context.key = std::move(key);
    context.identity_epoch = epoch;
}

}  // namespace

void authenticate(const Route& route, std::string_view key, RequestContext& context,
                  Services& services, std::optional<rate_limit::Decision>& decision) {
    const bool limited = route_is_limited(route, services);
    if (limited) {
        if (auto cached = services.key_cache.peek(key)) {
            act_as(context, std::move(cached->value), cached->epoch);
            if (apply_rate_limit_if_epoch(route, context, services, decision, cached->epoch))
                return;
        }
    }
    // A limited route confirms the epoch in its rate-limit check (or its lease); once that check
    // failed the epoch moved, so only a fresh read may follow.
    const auto read = limited ? KeyCache::EpochRead::fresh : KeyCache::EpochRead::recent;
    auto found = services.key_cache.find(services.mysql, services.redis, key, read);
    if (!found.key || found.key->revoked) throw ApiError(ErrorCode::InvalidApiKey);
    act_as(context, std::move(*found.key), found.epoch);
    apply_rate_limit(route, context, services, decision);
}

void authorize(const Access& access, const auth::ApiKey& key) {
    if (access.kind != Access::Kind::scope || key.has_scope(access.scope)) return;
    throw ApiError(ErrorCode::InsufficientScope, {},
                   {{"required_scope", std::string(access.scope)}});
}

}  // namespace squawk::api
