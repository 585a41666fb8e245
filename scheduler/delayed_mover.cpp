#include "scheduler/delayed_mover.hpp"

#include "common/core/time/clock.hpp"

namespace squawk::scheduler {
namespace {
constexpr int kMoveBatch = 1000;
constexpr int kMaxRounds = 20;  // keeps one tick short; the rest moves on the next
}  // namespace

long long DelayedMover::run_once() {
    long long moved = 0;
    for (const char* pool : config::kPoolNames) moved += run_pool(pool);
    return moved;
}

long long DelayedMover::run_pool(std::string_view pool) {
    queue::JobQueue queue(client_);
    const std::string name(pool);
    const auto settings = workers_.pools.find(name);
    const long long lead_ms = settings == workers_.pools.end() ? 0 : settings->second.lead_ms;
    long long moved = 0;
    for (int round = 0; round < kMaxRounds; ++round) {
        const long long n =
            queue.move_due(name, time::to_unix_ms(time::now()) + lead_ms, kMoveBatch);
        moved += n;
        if (n < kMoveBatch) break;
    }
    return moved;
}

}  // namespace squawk::scheduler
