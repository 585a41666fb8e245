// A whole scheduler process minus its command line: the leader lease and the periodic tasks
// that run while this process leads. The binary and the integration tests both run this.
#pragma once

#include "common/core/config/config.hpp"
#include "common/core/daemon/service.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/metrics/registry.hpp"
#include "common/core/runtime/periodic_task.hpp"
#include "scheduler/delayed_mover.hpp"
#include "scheduler/leader_lease.hpp"
#include "scheduler/lost_work.hpp"
#include "scheduler/monthly_allowance.hpp"
#include "scheduler/queue_rebuilder.hpp"
#include "scheduler/retention_sweeper.hpp"
#include "scheduler/webhook_tasks.hpp"

#include <memory>
#include <vector>

namespace squawk::scheduler {

// How often each task runs, derived from the configuration.
struct Cadence {
    std::chrono::milliseconds lease_refresh;
    std::chrono::milliseconds move_due;
    // Scheduled posts are promised to the second's fraction: their pool's due set is checked
    // on a short cadence of its own (one cheap Redis script per check, no MySQL).
    std::chrono::milliseconds move_due_publish;
    std::chrono::milliseconds reclaim;
    std::chrono::milliseconds rebuild_check;
    std::chrono::milliseconds stale_sweep;
    std::chrono::milliseconds dispatch_events;
    std::chrono::milliseconds reclaim_deliveries;
    std::chrono::milliseconds
        retention;  // request log, idempotency records, deliveries, allowances
};
Cadence cadence_for(const config::Config& config);

class SchedulerRuntime : public daemon::Service {
  public:
    SchedulerRuntime(config::Config config, std::string owner);
    ~SchedulerRuntime() override;
    SchedulerRuntime(const SchedulerRuntime&) = delete;
    SchedulerRuntime& operator=(const SchedulerRuntime&) = delete;

    void start() override;
    // Stops every task and gives up the lease. Idempotent.
    void stop() override;
    bool is_leader() const { return lease_.is_leader(); }

  private:
    config::Config config_;
    db::MysqlPool mysql_;
    LeaderLease lease_;
    DelayedMover mover_;
    // Its own Redis connection: it runs on its own task thread.
    DelayedMover publish_mover_;
    LostWork lost_work_;
    QueueRebuilder rebuilder_;
    WebhookTasks webhook_tasks_;
    std::unique_ptr<storage::ObjectStore> storage_;
    RetentionSweeper retention_;
    MonthlyAllowance allowance_;
    metrics::CollectorHandle delivery_backlog_;
    metrics::CollectorHandle queue_gauges_;
    metrics::CollectorHandle leader_gauge_;
    std::vector<std::unique_ptr<runtime::PeriodicTask>> tasks_;
    bool stopped_ = false;
};

// hostname-pid-random.
std::string default_scheduler_owner();

}  // namespace squawk::scheduler
