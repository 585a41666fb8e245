#include "common/domain/webhooks/delivery_metrics.hpp"

#include "common/core/db/sql_text.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/time/clock.hpp"

namespace squawk::webhooks {

namespace {

// Looked up once: a registry lookup takes the registry's lock and builds its keys, and every
// attempt of every fiber thread is counted here.
struct DeliverySeries {
    std::vector<std::pair<DeliveryStatus, metrics::Counter*>> outcomes;
    metrics::Histogram* duration = nullptr;
};

const DeliverySeries& delivery_series() {
    static const DeliverySeries series = [] {
        auto& registry = metrics::Registry::global();
        DeliverySeries s;
        for (const auto outcome :
             {DeliveryStatus::delivered, DeliveryStatus::retrying, DeliveryStatus::dead_letter,
              DeliveryStatus::failed, DeliveryStatus::held})
            s.outcomes.emplace_back(
                outcome, &registry.counter("squawk_webhook_deliveries_total",
                                           "Delivery attempts by the status they left the "
                                           "delivery in: delivered, retrying, dead_letter, "
                                           "failed, held.",
                                           {{"outcome", name_of(outcome)}}));
        s.duration =
            &registry.histogram("squawk_webhook_attempt_duration_seconds",
                                "Time from sending a delivery to its answer (or failure).");
        return s;
    }();
    return series;
}

}  // namespace

void record_delivery_metrics(const DeliveryResult& result) {
    const auto& series = delivery_series();
    for (const auto& [outcome, counter] : series.outcomes)
        if (outcome == result.status) counter->inc();
    if (result.attempt)
        series.duration->observe(static_cast<double>(result.attempt->duration_ms) / 1000.0);
}

metrics::CollectorHandle export_delivery_backlog(db::MysqlPool& mysql) {
    return metrics::Registry::global().add_collector([&mysql](metrics::SampleWriter& w) {
        const auto now = time::now();
        const char* pending = name_of(DeliveryStatus::pending);
        const char* retrying = name_of(DeliveryStatus::retrying);
        const char* held = name_of(DeliveryStatus::held);
        std::optional<db::Row> row;
        try {
            row = mysql.run([&](db::Session& s) {
                return s.query_one(
                    "SELECT SUM(status IN (?, ?) AND next_attempt_at <= ?),"
                    " SUM(status = ? AND next_attempt_at > ?),"
                    " MIN(CASE WHEN status IN (?, ?) AND next_attempt_at <= ?"
                    " THEN next_attempt_at END), SUM(status = ?)"
                    " FROM webhook_deliveries WHERE status IN (?, ?, ?)",
                    {pending, retrying, db::time_param(now), retrying, db::time_param(now), pending,
                     retrying, db::time_param(now), held, pending, retrying, held});
            });
        } catch (const std::exception& e) {
            log::warn("cannot read the webhook backlog for metrics", {{"error", e.what()}});
            return;
        }
        const metrics::Labels labels{{"pool", "webhooks"}};
        const auto number = [&](int i) {
            return static_cast<double>(row->optional_integer(i).value_or(0));
        };
        const auto oldest = db::optional_time_column(*row, 2);
        w.gauge("squawk_queue_ready", "Entries waiting for a worker.", labels, number(0));
        w.gauge("squawk_queue_delayed", "Entries waiting for their backoff or scheduled time.",
                labels, number(1));
        w.gauge("squawk_queue_oldest_ready_age_seconds", "Age of the oldest waiting entry.", labels,
                oldest ? std::chrono::duration<double>(now - *oldest).count() : 0.0);
        w.gauge("squawk_webhook_deliveries_held",
                "Deliveries held while their endpoint is failing.", {}, number(3));
    });
}

}  // namespace squawk::webhooks
