#include "common/domain/webhooks/dead_delivery_admin.hpp"

#include "common/core/db/sql_text.hpp"
#include "common/domain/webhooks/statuses.hpp"

namespace squawk::webhooks {

std::vector<DeadDelivery> DeadDeliveryAdmin::list(db::Session& s,
                                                  const DeadDeliveryFilter& filter) {
    // Absent filters are bound as NULL so the statement text never depends on the input.
    const db::Param event = db::optional_param(filter.event_name);
    const db::Param workspace = db::optional_param(filter.workspace_id);
    std::vector<DeadDelivery> out;
    for (const auto& r :
         s.query("SELECT d.id, d.workspace_id, e.public_id, d.event_name, d.attempts,"
                 " d.last_status_code, d.last_error, d.created_at, d.updated_at"
                 " FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id"
                 " WHERE d.status = ? AND (? IS NULL OR d.event_name = ?)"
                 " AND (? IS NULL OR d.workspace_id = ?) ORDER BY d.id DESC LIMIT ?",
                 {name_of(DeliveryStatus::dead_letter), event, event, workspace, workspace,
                  static_cast<long long>(filter.limit)})) {
        DeadDelivery d;
        d.id = r.integer(0);
        d.workspace_id = r.integer(1);
        d.endpoint_id = r.text(2);
        d.event_name = r.text(3);
        d.attempts = static_cast<int>(r.integer(4));
        d.last_status_code = r.optional_integer(5);
        d.last_error = r.optional_text(6).value_or("");
        d.created_at = db::time_column(r, 7);
        d.updated_at = db::time_column(r, 8);
        out.push_back(std::move(d));
    }
    return out;
}

long long DeadDeliveryAdmin::count(db::Session& s) {
    return s
        .query_one("SELECT COUNT(*) FROM webhook_deliveries WHERE status = ?",
                   {name_of(DeliveryStatus::dead_letter)})
        ->integer(0);
}

std::optional<long long> DeadDeliveryAdmin::workspace_of(db::Session& s, long long id) {
    const auto row =
        s.query_one("SELECT workspace_id FROM webhook_deliveries WHERE id = ? AND status = ?",
                    {id, name_of(DeliveryStatus::dead_letter)});
    if (!row) return std::nullopt;
    return row->integer(0);
}

bool DeadDeliveryAdmin::discard(db::Session& s, long long id) {
    return s.execute(
               "UPDATE webhook_deliveries SET status = ?, updated_at = ?"
               " WHERE id = ? AND status = ?",
               {name_of(DeliveryStatus::failed), db::time_param(time::now()), id,
                name_of(DeliveryStatus::dead_letter)}) > 0;
}

}  // namespace squawk::webhooks
