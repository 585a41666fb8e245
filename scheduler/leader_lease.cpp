#include "scheduler/leader_lease.hpp"

#include "common/core/log/logger.hpp"

namespace squawk::scheduler {
namespace {

constexpr const char* kExtendScript = R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
)lua";

constexpr const char* kReleaseScript = R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
)lua";

long long steady_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

LeaderLease::LeaderLease(config::RedisSettings settings, std::chrono::milliseconds lease,
                         std::string owner)
    : client_(std::move(settings)), lease_(lease), owner_(std::move(owner)) {}

bool LeaderLease::is_leader() const {
    return leading_.load() && steady_ns() < valid_until_ns_.load();
}

void LeaderLease::refresh() {
    // Measured from before the request: the key cannot expire earlier than that plus the lease.
    // A tenth is kept back for clock rate differences.
    const long long started = steady_ns();
    const long long valid_until =
        started +
        std::chrono::duration_cast<std::chrono::nanoseconds>(lease_ - lease_ / 10).count();
    const std::string ms = std::to_string(lease_.count());
    if (leading_) {
        const auto reply = client_.command({"EVAL", kExtendScript, "1", key(), owner_, ms});
        if (reply.is_error()) throw redis::RedisUnavailable("lease extend failed: " + reply.text);
        if (reply.integer == 1) {
            valid_until_ns_ = valid_until;
            return;
        }
        leading_ = false;
        log::warn("lost scheduler leadership", {{"owner", owner_}});
    }
    const auto reply = client_.command({"SET", key(), owner_, "NX", "PX", ms});
    if (reply.is_error()) throw redis::RedisUnavailable("lease acquire failed: " + reply.text);
    if (reply.type == redis::Reply::Type::status && reply.text == "OK") {
        valid_until_ns_ = valid_until;
        leading_ = true;
        log::info("became scheduler leader", {{"owner", owner_}});
    }
}

void LeaderLease::release() {
    const bool was_leading = leading_.exchange(false);
    valid_until_ns_ = 0;
    if (!was_leading) return;
    try {
        client_.command({"EVAL", kReleaseScript, "1", key(), owner_});
        log::info("released scheduler leadership", {{"owner", owner_}});
    } catch (const std::exception& e) {
        log::warn("could not release the leader lease; it expires on its own",
                  {{"error", e.what()}});
    }
}

}  // namespace squawk::scheduler
