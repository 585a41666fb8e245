// The scheduler's webhook work: fan-out of outbox events into deliveries, recovery of deliveries
// whose worker died (lease expired), and the retention sweep of old delivery records.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/webhooks/webhook_settings.hpp"

namespace squawk::scheduler {

class WebhookTasks {
  public:
    WebhookTasks(db::MysqlPool& mysql, const config::WebhookSettings& settings)
        : mysql_(mysql), settings_(settings) {}

    // Dispatches every undispatched event, one transaction per batch; returns events done.
    long long dispatch_events();
    long long reclaim_deliveries();
    long long sweep_old_deliveries();

  private:
    db::MysqlPool& mysql_;
    config::WebhookSettings settings_;
};

}  // namespace squawk::scheduler
