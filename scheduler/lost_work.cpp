#include "scheduler/lost_work.hpp"

#include "common/core/daemon/worker_settings.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "scheduler/enqueue_refs.hpp"

namespace squawk::scheduler {
namespace {
constexpr int kLostWorkBatch = 1000;
}  // namespace

long long LostWork::reclaim_expired() {
    queue::JobQueue queue(reclaim_client_);
    const auto requeued = mysql_.transaction(
        [&](db::Session& s) { return jobs::JobRepository::reclaim_expired(s, kLostWorkBatch); });
    // If this enqueue fails the rows are queued anyway and enqueue_stale enqueues them later.
    enqueue_refs(queue, requeued);
    long long dropped = 0;
    for (const char* pool : config::kPoolNames)
        dropped += queue.drop_abandoned(pool, lease_.count(), kLostWorkBatch);
    if (!requeued.empty() || dropped > 0)
        log::info("reclaimed work of stopped workers",
                  {{"requeued_jobs", requeued.size()}, {"dropped_entries", dropped}});
    return static_cast<long long>(requeued.size());
}

long long LostWork::enqueue_stale() {
    queue::JobQueue queue(stale_client_);
    const auto stale = mysql_.run([&](db::Session& s) {
        return jobs::JobRepository::take_stale_queued(s, time::now() - stale_after_,
                                                      kLostWorkBatch);
    });
    enqueue_refs(queue, stale);
    if (!stale.empty()) log::info("enqueued stale jobs again", {{"jobs", stale.size()}});
    return static_cast<long long>(stale.size());
}

}  // namespace squawk::scheduler
