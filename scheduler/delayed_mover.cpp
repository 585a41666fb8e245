#include "scheduler/delayed_mover.hpp"

#include "common/time/clock.hpp"

namespace squawk::scheduler {
namespace {
constexpr int kBatch = 1000;
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
    long long moved = 0;
    for (int round = 0; round < kMaxRounds; ++round) {
        const long long n = queue.move_due(name, time::to_unix_ms(time::now()), kBatch);
        moved += n;
        if (n < kBatch) break;
    }
    return moved;
}

}  // namespace squawk::scheduler
