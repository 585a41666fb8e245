#include "common/core/rate_limit/rate_limiter.hpp"

#include "common/domain/accounts/connected_accounts.hpp"

#include <algorithm>
#include <stdexcept>

namespace squawk::rate_limit {
namespace {

// KEYS: bucket base, cached account count, and optionally a precondition counter. ARGV: fixed
// limit (0 = by tier), per-second flag, then the tier table: small_max, small_limit, medium_max,
// medium_limit, large_limit, then the tokens asked for, the tokens handed back and the window
// (its reset, ms) they were granted in, then the precondition's expected value.
// Returns {-2} when the precondition counter moved and {-1} when the account count is not cached
// (nothing counted in either case), else
// {allowed, limit, remaining, reset_ms, retry_after_ms, refused_by_second, granted}.
constexpr const char* kScript = R"lua(
local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local minute_start = now_ms - (now_ms % 60000)
local reset_ms = minute_start + 60000
local minute_key = KEYS[1] .. ':m:' .. minute_start
if tonumber(ARGV[9]) > 0 and tonumber(ARGV[10]) == reset_ms then
  redis.call('DECRBY', minute_key, ARGV[9])
end
if KEYS[3] and (redis.call('GET', KEYS[3]) or '0') ~= ARGV[11] then return {-2} end
local limit = tonumber(ARGV[1])
if limit == 0 then
  local count = redis.call('GET', KEYS[2])
  if not count then return {-1} end
  count = tonumber(count)
  if count <= tonumber(ARGV[3]) then limit = tonumber(ARGV[4])
  elseif count <= tonumber(ARGV[5]) then limit = tonumber(ARGV[6])
  else limit = tonumber(ARGV[7]) end
end
if ARGV[2] == '1' then
  local ceiling = math.max(6, math.floor(limit / 60))
  local second_key = KEYS[1] .. ':s:' .. math.floor(now_ms / 1000)
  local used = redis.call('INCR', second_key)
  if used == 1 then redis.call('PEXPIRE', second_key, 2000) end
  if used > ceiling then
    local left = limit - tonumber(redis.call('GET', minute_key) or '0')
    return {0, limit, math.max(0, left), reset_ms, 1000, 1, 0}
  end
end
local before = tonumber(redis.call('GET', minute_key) or '0')
if before >= limit then
  return {0, limit, 0, reset_ms, reset_ms - now_ms, 0, 0}
end
local granted = math.min(tonumber(ARGV[8]), limit - before)
local used = redis.call('INCRBY', minute_key, granted)
if used == granted then redis.call('PEXPIRE', minute_key, 61000) end
return {1, limit, limit - used, reset_ms, 0, 0, granted}
)lua";

}  // namespace

long long tier_limit(const config::RateLimitSettings& s, long long connected) {
    if (connected <= s.small_max_accounts) return s.small_per_minute;
    if (connected <= s.medium_max_accounts) return s.medium_per_minute;
    return s.large_per_minute;
}

long long per_second_ceiling(long long per_minute) {
    return std::max(6LL, per_minute / 60);
}

RateLimiter::RateLimiter(config::RateLimitSettings settings)
    : settings_(settings), script_(kScript) {}

Decision RateLimiter::check(redis::RedisClient& redis, const Subject& subject,
                            const std::function<long long()>& count_connected) const {
    return *run(redis, subject, nullptr, count_connected, Ask{});
}

std::optional<Decision> RateLimiter::check_if(redis::RedisClient& redis, const Subject& subject,
                                              const Precondition& precondition,
                                              const std::function<long long()>& count_connected,
                                              const Ask& ask) const {
    return run(redis, subject, &precondition, count_connected, ask);
}

std::optional<Decision> RateLimiter::run(redis::RedisClient& redis, const Subject& subject,
                                         const Precondition* precondition,
                                         const std::function<long long()>& count_connected,
                                         const Ask& ask) const {
    // The bucket and count keys carry the workspace's hash tag (one Redis Cluster slot); a
    // precondition key is global, so checks with one need a single Redis, which hiredis is.
    const std::string base =
        redis.key("rl:{ws:" + std::to_string(subject.workspace_id) + "}:" + subject.bucket);
    std::vector<std::string> keys = {
        base, accounts::ConnectedAccounts::cache_key(redis, subject.workspace_id)};
    std::vector<std::string> args = {std::to_string(subject.fixed_limit.value_or(0)),
                                     subject.per_second_ceiling ? "1" : "0",
                                     std::to_string(settings_.small_max_accounts),
                                     std::to_string(settings_.small_per_minute),
                                     std::to_string(settings_.medium_max_accounts),
                                     std::to_string(settings_.medium_per_minute),
                                     std::to_string(settings_.large_per_minute),
                                     std::to_string(std::max(1LL, ask.take)),
                                     std::to_string(std::max(0LL, ask.refund)),
                                     std::to_string(ask.refund_reset_ms)};
    if (precondition) {
        keys.push_back(precondition->key);
        args.push_back(std::to_string(precondition->expected));
    }
    for (int attempt = 0; attempt < 2; ++attempt) {
        const auto reply = script_.run(redis, keys, args);
        if (reply.is_error()) throw redis::RedisUnavailable("rate limit script: " + reply.text);
        if (reply.type != redis::Reply::Type::array || reply.elements.empty())
            throw redis::RedisUnavailable("rate limit script gave an unexpected reply");
        const auto& e = reply.elements;
        if (e[0].integer == -2) return std::nullopt;
        if (e[0].integer == -1) {
            accounts::ConnectedAccounts::cache(redis, subject.workspace_id, count_connected(),
                                               settings_.account_count_cache_seconds);
            continue;
        }
        if (e.size() < 7) throw redis::RedisUnavailable("rate limit script gave a short reply");
        Decision d;
        d.allowed = e[0].integer == 1;
        d.limit = e[1].integer;
        d.remaining = e[2].integer;
        d.retry_after_seconds = std::max(1LL, (e[4].integer + 999) / 1000);
        d.refused_by_second_ceiling = e[5].integer == 1;
        d.reset_ms = e[3].integer;
        d.granted = e[6].integer;
        return d;
    }
    throw redis::RedisUnavailable("connected-account count vanished from the cache twice");
}

}  // namespace squawk::rate_limit
