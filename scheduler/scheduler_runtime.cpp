#include "scheduler/scheduler_runtime.hpp"

#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/metrics/queue_metrics.hpp"
#include "common/core/storage/object_store_factory.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/jobs/dead_letter_hooks.hpp"
#include "common/domain/jobs/job_types.hpp"
#include "common/domain/social/publish_repository.hpp"
#include "common/domain/webhooks/delivery_metrics.hpp"

#include <unistd.h>
#include <algorithm>

namespace squawk::scheduler {

using runtime::PeriodicTask;
using std::chrono::milliseconds;

Cadence cadence_for(const config::Config& config) {
    const milliseconds tick(config.scheduler.tick_ms);
    const milliseconds lease(config.scheduler.leader_lease_ms);
    const milliseconds job_lease = std::chrono::seconds(config.jobs.lease_seconds);
    const milliseconds stale_after = std::chrono::seconds(config.scheduler.reconcile_after_seconds);
    Cadence c;
    c.lease_refresh = std::max(milliseconds(10), lease / 3);
    c.move_due = tick;
    c.move_due_publish = std::min(tick, milliseconds(5));
    // Queries over the jobs table run a few times per lease, not every tick.
    c.reclaim = std::clamp(job_lease / 4, tick, std::max(tick, milliseconds(5000)));
    // One EXISTS per second notices a Redis data loss quickly at no cost.
    c.rebuild_check = std::max(tick, milliseconds(1000));
    c.stale_sweep = std::clamp(stale_after / 2, std::max(tick, milliseconds(1000)),
                               std::max(tick, milliseconds(15000)));
    // Events reach receivers one tick after they are raised.
    c.dispatch_events = tick;
    const milliseconds delivery_lease = std::chrono::seconds(config.webhooks.lease_seconds);
    c.reclaim_deliveries = std::clamp(delivery_lease / 4, tick, std::max(tick, milliseconds(5000)));
    // A minute in production; time_scale shrinks it for tests and demos.
    c.retention = std::max(
        tick, std::chrono::duration_cast<milliseconds>(time::scaled(std::chrono::seconds(60))));
    return c;
}

std::string default_scheduler_owner() {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "scheduler");
    return std::string(host) + "-" + std::to_string(::getpid()) + "-" +
           crypto::hex(crypto::random_bytes(3));
}

SchedulerRuntime::SchedulerRuntime(config::Config config, std::string owner)
    : config_(std::move(config)),
      mysql_(config_.mysql),
      lease_(config_.redis, milliseconds(config_.scheduler.leader_lease_ms), std::move(owner)),
      mover_(config_.redis, config_.workers),
      publish_mover_(config_.redis, config_.workers),
      lost_work_(mysql_, config_.redis, std::chrono::seconds(config_.jobs.lease_seconds),
                 std::chrono::seconds(config_.scheduler.reconcile_after_seconds)),
      rebuilder_(mysql_, config_.redis),
      webhook_tasks_(mysql_, config_.webhooks),
      storage_(storage::make_object_store(config_.storage, config_.media.dir)),
      retention_(mysql_, config_, *storage_),
      allowance_(mysql_, config_.billing.monthly_allowance_units) {
    delivery_backlog_ = webhooks::export_delivery_backlog(mysql_);
    queue_gauges_ = metrics::export_queue_depths(
        config_.redis, {std::begin(config::kPoolNames), std::end(config::kPoolNames)});
    leader_gauge_ = metrics::Registry::global().add_collector([this](metrics::SampleWriter& w) {
        w.gauge("squawk_scheduler_leader", "1 while this scheduler holds the leader lease.", {},
                is_leader() ? 1 : 0);
    });
    jobs::on_dead_letter(jobs::kPublishTarget.name, social::fail_abandoned_target);
    const Cadence c = cadence_for(config_);
    const auto leading = [this] { return lease_.is_leader(); };
    const auto task = [&](std::string name, milliseconds every, PeriodicTask::Body body,
                          PeriodicTask::Gate gate) {
        tasks_.push_back(std::make_unique<PeriodicTask>(
            PeriodicTask::Options{std::move(name), every, std::max(every, milliseconds(5000))},
            std::move(body), std::move(gate)));
    };
    task("leader-lease", c.lease_refresh, [this] { lease_.refresh(); }, {});
    task(
        "delayed-mover", c.move_due, [this] { mover_.run_once(); }, leading);
    task(
        "publish-due-mover", c.move_due_publish,
        [this] { publish_mover_.run_pool(jobs::kPublishTarget.pool); }, leading);
    task(
        "reclaimer", c.reclaim, [this] { lost_work_.reclaim_expired(); }, leading);
    task(
        "queue-rebuilder", c.rebuild_check, [this] { rebuilder_.run_once(); }, leading);
    task(
        "stale-sweeper", c.stale_sweep, [this] { lost_work_.enqueue_stale(); }, leading);
    task(
        "event-dispatcher", c.dispatch_events, [this] { webhook_tasks_.dispatch_events(); },
        leading);
    task(
        "delivery-reclaimer", c.reclaim_deliveries, [this] { webhook_tasks_.reclaim_deliveries(); },
        leading);
    task(
        "delivery-retention", c.retention, [this] { webhook_tasks_.sweep_old_deliveries(); },
        leading);
    task(
        "retention-sweeper", c.retention, [this] { retention_.run_once(); }, leading);
    task(
        "monthly-allowance", c.retention, [this] { allowance_.run_once(); }, leading);
}

SchedulerRuntime::~SchedulerRuntime() {
    stop();
}

void SchedulerRuntime::start() {
    // Tasks gated on leadership run first at once; with the lease taken before them, a scheduler
    // that can lead does its first rebuild check and moves now rather than one interval later.
    try {
        lease_.refresh();
    } catch (const redis::RedisUnavailable&) {
        // The leader-lease task retries and reports it.
    }
    for (auto& t : tasks_) t->start();
    log::info("scheduler started", {{"owner", lease_.owner()}});
}

void SchedulerRuntime::stop() {
    if (stopped_) return;
    stopped_ = true;
    for (auto& t : tasks_) t->stop();
    lease_.release();
    log::info("scheduler stopped", {{"owner", lease_.owner()}});
}

}  // namespace squawk::scheduler
