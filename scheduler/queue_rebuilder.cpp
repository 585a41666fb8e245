#include "scheduler/queue_rebuilder.hpp"

#include "common/core/daemon/worker_settings.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "scheduler/enqueue_refs.hpp"

#include <map>

namespace squawk::scheduler {
namespace {
constexpr int kPage = 1000;
}  // namespace

bool QueueRebuilder::run_once() {
    queue::JobQueue queue(client_);
    if (queue.epoch_present()) return false;
    log::warn("redis holds no queue epoch; rebuilding the queues from mysql");
    for (const char* pool : config::kPoolNames) queue.ensure_group(pool);

    long long queued = 0;
    for (jobs::QueuedCursor after;;) {
        const auto page = mysql_.run(
            [&](db::Session& s) { return jobs::JobRepository::queued_after(s, after, kPage); });
        enqueue_refs(queue, page.jobs);
        queued += static_cast<long long>(page.jobs.size());
        if (static_cast<int>(page.jobs.size()) < kPage) break;
        after = page.last;
    }
    long long retrying = 0;
    for (jobs::WaitingCursor after;;) {
        const auto page = mysql_.run(
            [&](db::Session& s) { return jobs::JobRepository::retrying_after(s, after, kPage); });
        std::map<std::string, std::vector<queue::Delayed>> by_pool;
        for (const auto& [ref, due] : page)
            by_pool[ref.pool].push_back({ref.id, time::to_unix_ms(due)});
        for (const auto& [pool, delayed] : by_pool) queue.schedule_many(pool, delayed);
        retrying += static_cast<long long>(page.size());
        if (static_cast<int>(page.size()) < kPage) break;
        after = {page.back().second, page.back().first.id};
    }
    // Marked last: a rebuild cut short by an error runs again from the start next time.
    queue.mark_epoch();
    log::info("queues rebuilt from mysql", {{"queued_jobs", queued}, {"retrying_jobs", retrying}});
    return true;
}

}  // namespace squawk::scheduler
