#include "scheduler/stale_sweeper.hpp"

#include "common/core/log/logger.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "scheduler/enqueue_refs.hpp"

namespace squawk::scheduler {
namespace {
constexpr int kBatch = 1000;
}  // namespace

long long StaleSweeper::run_once() {
    queue::JobQueue queue(client_);
    const auto stale = mysql_.run([&](db::Session& s) {
        return jobs::JobRepository::take_stale_queued(s, time::now() - stale_after_, kBatch);
    });
    enqueue_refs(queue, stale);
    if (!stale.empty()) log::info("enqueued stale jobs again", {{"jobs", stale.size()}});
    return static_cast<long long>(stale.size());
}

}  // namespace squawk::scheduler
