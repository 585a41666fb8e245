#include "common/core/rate_limit/token_leases.hpp"

#include <algorithm>

namespace squawk::rate_limit {

void TokenLeases::count_demand(Bucket& b, Clock::time_point now) const {
    if (now - b.slice_start >= lifetime_) {
        b.last_demand = now - b.slice_start >= 2 * lifetime_ ? 0 : b.demand;
        b.demand = 0;
        b.slice_start = now;
    }
    ++b.demand;
}

TokenLeases::Bucket& TokenLeases::entry(const std::string& name, Clock::time_point now) {
    if (const auto found = buckets_.find(name); found != buckets_.end()) return found->second;
    if (buckets_.size() >= kMaxBuckets) {
        // Idle: its lease lapsed and its demand is older than what the next ask() looks at.
        std::erase_if(buckets_, [&](const auto& entry) {
            const Bucket& b = entry.second;
            return now >= b.expires && now - b.slice_start >= 2 * lifetime_;
        });
        if (buckets_.size() >= kMaxBuckets / 2) buckets_.clear();
    }
    return buckets_[name];
}

size_t TokenLeases::size() {
    std::lock_guard lock(mutex_);
    return buckets_.size();
}

std::optional<Decision> TokenLeases::spend(const std::string& bucket, long long epoch,
                                           Clock::time_point now) {
    if (lifetime_.count() == 0) return std::nullopt;
    std::lock_guard lock(mutex_);
    auto& b = entry(bucket, now);
    count_demand(b, now);
    if (b.tokens == 0 || b.epoch != epoch || now >= b.expires) return std::nullopt;
    --b.tokens;
    Decision d = b.grant;
    d.granted = 1;
    d.remaining = b.grant.remaining + b.tokens;
    return d;
}

Ask TokenLeases::ask(const std::string& bucket, Clock::time_point now) {
    Ask a;
    if (lifetime_.count() == 0) return a;
    std::lock_guard lock(mutex_);
    auto& b = entry(bucket, now);
    const long long most = std::min(kMaxLease, b.grant.limit / 100);
    a.take = std::clamp(b.last_demand, 1LL, std::max(1LL, most));
    if (b.tokens > 0 && now >= b.expires) {
        a.refund = b.tokens;
        a.refund_reset_ms = b.grant.reset_ms;
        b.tokens = 0;
    }
    return a;
}

void TokenLeases::keep(const std::string& bucket, long long epoch, const Decision& granted,
                       Clock::time_point now) {
    if (lifetime_.count() == 0 || !granted.allowed) return;
    std::lock_guard lock(mutex_);
    auto& b = entry(bucket, now);
    // Two threads may both have asked; the later grant adds to what the earlier left.
    const long long earlier = (b.epoch == epoch && now < b.expires) ? b.tokens : 0;
    b.tokens = earlier + std::max(0LL, granted.granted - 1);
    b.epoch = epoch;
    b.grant = granted;
    b.expires = now + lifetime_;
}

}  // namespace squawk::rate_limit
