#include "scheduler/webhook_tasks.hpp"

#include "common/core/log/logger.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/webhooks/delivery_repository.hpp"

namespace squawk::scheduler {
namespace {
constexpr int kWebhookBatch = 1000;
// One sweep deletes at most this much per run, so it never holds locks for long.
constexpr int kSweepRounds = 20;
}  // namespace

using webhooks::DeliveryRepository;

long long WebhookTasks::dispatch_events() {
    long long total = 0;
    for (;;) {
        // Read committed: the outbox rows it claims lock no gaps, so the events being written
        // meanwhile (a publish burst's outcomes) never wait for the fan-out to commit.
        const int done = mysql_.transaction(
            [&](db::Session& s) {
                return DeliveryRepository::dispatch(s, settings_.dispatch_batch, settings_);
            },
            db::Isolation::read_committed);
        total += done;
        if (done < settings_.dispatch_batch) break;
    }
    return total;
}

long long WebhookTasks::reclaim_deliveries() {
    const int n = mysql_.transaction(
        [&](db::Session& s) { return DeliveryRepository::reclaim_expired(s, kWebhookBatch); });
    if (n > 0) log::info("reclaimed deliveries of stopped workers", {{"deliveries", n}});
    return n;
}

long long WebhookTasks::sweep_old_deliveries() {
    // Retention is calendar time: time_scale does not shorten how long records are kept.
    const auto before = time::now() - std::chrono::hours(24) * settings_.retention_days;
    long long total = 0;
    for (int round = 0; round < kSweepRounds; ++round) {
        const int n = mysql_.transaction(
            [&](db::Session& s) { return DeliveryRepository::sweep(s, before, kWebhookBatch); });
        total += n;
        if (n < kWebhookBatch) break;
    }
    if (total > 0) log::info("swept old delivery records", {{"deliveries", total}});
    return total;
}

}  // namespace squawk::scheduler
