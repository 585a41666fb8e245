#include "common/domain/webhooks/delivery_log_repository.hpp"

#include "common/core/db/row_mapper.hpp"
#include "common/core/db/sql_text.hpp"

#include <unordered_map>

namespace squawk::webhooks {
namespace {

using db::Params;
using db::placeholders;

constexpr const char* kDeliveries = " FROM webhook_deliveries d";
constexpr const char* kJoins =
    " JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN events e ON e.id = d.event_id";
constexpr const char* kLogColumns =
    "SELECT d.id AS delivery_id, w.public_id AS endpoint_id, e.public_id AS event_id,"
    " d.event_name AS event, d.status, d.attempts AS attempt_count, d.max_attempts,"
    " d.next_attempt_at, NULLIF(d.last_status_code, 0) AS last_status_code, d.last_error,"
    " d.created_at, d.updated_at, IF(d.status = ?, d.updated_at, NULL) AS delivered_at";

const db::RowMapper<DeliveryLog> kLogRows{
    db::field<&DeliveryLog::delivery_id>("delivery_id"),
    db::field<&DeliveryLog::endpoint_id>("endpoint_id"),
    db::field<&DeliveryLog::event_id>("event_id"),
    db::field<&DeliveryLog::event>("event"),
    db::field<&DeliveryLog::status>("status"),
    db::field<&DeliveryLog::attempt_count>("attempt_count"),
    db::field<&DeliveryLog::max_attempts>("max_attempts"),
    db::field<&DeliveryLog::next_attempt_at>("next_attempt_at"),
    db::field<&DeliveryLog::last_status_code>("last_status_code"),
    db::field<&DeliveryLog::last_error>("last_error"),
    db::field<&DeliveryLog::created_at>("created_at"),
    db::field<&DeliveryLog::updated_at>("updated_at"),
    db::field<&DeliveryLog::delivered_at>("delivered_at")};

const db::RowMapper<AttemptLog> kAttemptRows{
    db::field<&AttemptLog::delivery_id>("delivery_id"),
    db::field<&AttemptLog::attempt>("attempt"),
    db::field<&AttemptLog::started_at>("started_at"),
    db::field<&AttemptLog::status_code>("status_code"),
    db::field<&AttemptLog::duration_ms>("duration_ms"),
    db::field<&AttemptLog::error>("error"),
    db::field<&AttemptLog::response_excerpt>("response_excerpt")};

// The next attempt time means something only while another attempt is due.
void drop_stale_next_attempt(std::vector<DeliveryLog>& items) {
    for (auto& d : items)
        if (d.status != DeliveryStatus::pending && d.status != DeliveryStatus::retrying)
            d.next_attempt_at.reset();
}

void attach_attempts(db::Session& s, std::vector<DeliveryLog>& items) {
    if (items.empty()) return;
    Params ids;
    std::unordered_map<long long, DeliveryLog*> by_id;
    for (auto& item : items) {
        ids.emplace_back(item.delivery_id);
        by_id[item.delivery_id] = &item;
    }
    for (auto& a : kAttemptRows.all(s.select("SELECT " + kAttemptRows.select_list() +
                                                 " FROM webhook_attempts WHERE delivery_id IN (" +
                                                 placeholders(ids.size()) + ") ORDER BY id",
                                             ids)))
        by_id.at(a.delivery_id)->attempts.push_back(std::move(a));
}

// The log's SELECT, with `rest` (conditions, order, limit) after its FROM and `hint` on the
// deliveries.
std::string select_logs(std::string_view rest, std::string_view hint = "") {
    std::string sql(kLogColumns);
    sql.append(kDeliveries).append(hint).append(kJoins).append(rest);
    return sql;
}

std::vector<DeliveryLog> read_logs(db::Session& s, const std::string& sql, const Params& params) {
    auto items = kLogRows.all(s.select(sql, params));
    drop_stale_next_attempt(items);
    attach_attempts(s, items);
    return items;
}

}  // namespace

LogPage DeliveryLogRepository::list(db::Session& s, long long workspace_id, const LogFilter& filter,
                                    long long offset, int limit) {
    std::string where = " WHERE d.workspace_id = ?";
    Params params{workspace_id};
    if (!filter.endpoint_public_id.empty()) {
        where += " AND w.public_id = ?";
        params.emplace_back(filter.endpoint_public_id);
    }
    if (!filter.event_name.empty()) {
        where += " AND d.event_name = ?";
        params.emplace_back(filter.event_name);
    }
    if (filter.status) {
        where += " AND d.status = ?";
        params.emplace_back(name_of(*filter.status));
    }
    LogPage page;
    page.total = s.query_one("SELECT COUNT(*)" + std::string(kDeliveries) + kJoins + where, params)
                     ->integer(0);
    // The select list's own parameter comes first.
    params.insert(params.begin(), name_of(DeliveryStatus::delivered));
    params.emplace_back(static_cast<long long>(limit));
    params.emplace_back(offset);
    page.items = read_logs(s, select_logs(where + " ORDER BY d.id DESC LIMIT ? OFFSET ?"), params);
    return page;
}

std::optional<DeliveryLog> DeliveryLogRepository::find(db::Session& s, long long workspace_id,
                                                       long long delivery_id) {
    auto items = read_logs(s, select_logs(" WHERE d.id = ? AND d.workspace_id = ?"),
                           {name_of(DeliveryStatus::delivered), delivery_id, workspace_id});
    if (items.empty()) return std::nullopt;
    return std::move(items.front());
}

std::vector<DeliveryLog> DeliveryLogRepository::page_before(db::Session& s, long long workspace_id,
                                                            const LogFilter& filter,
                                                            std::optional<long long> before,
                                                            int limit) {
    std::string where = " WHERE d.workspace_id = ?";
    Params params{name_of(DeliveryStatus::delivered), workspace_id};
    if (!filter.event_name.empty()) {
        where += " AND d.event_name = ?";
        params.emplace_back(filter.event_name);
    }
    if (filter.status) {
        where += " AND d.status = ?";
        params.emplace_back(name_of(*filter.status));
    }
    // Unhinted, MariaDB reads the index from its equality to the end of the log and skips what is
    // past the cursor, row by row. The hint makes it a range that starts at the cursor. With a
    // status the planner chooses: the index by status is shorter for rare ones (dead letters).
    const auto hint = [&](std::string_view index) {
        return filter.status ? std::string() : " FORCE INDEX (" + std::string(index) + ")";
    };
    if (filter.endpoint_public_id.empty()) {
        if (before) {
            where += " AND d.id < ?";
            params.emplace_back(*before);
        }
        params.emplace_back(static_cast<long long>(limit));
        return read_logs(s,
                         select_logs(where + " ORDER BY d.id DESC LIMIT ?",
                                     hint("ix_webhook_deliveries_workspace")),
                         params);
    }
    // The endpoint's index is by creation time: the cursor is the time and id of `before`. Its
    // id is read first so that the planner sees an equality on the index's first column.
    const auto endpoint =
        s.query_one("SELECT id FROM webhook_endpoints WHERE public_id = ? AND workspace_id = ?",
                    {filter.endpoint_public_id, workspace_id});
    if (!endpoint) return {};
    where += " AND d.endpoint_id = ?";
    params.emplace_back(endpoint->integer(0));
    if (before) {
        const auto row = s.query_one(
            "SELECT created_at FROM webhook_deliveries WHERE id = ? AND workspace_id = ?",
            {*before, workspace_id});
        if (!row) return {};
        const std::string created = row->text(0);
        where += " AND d.created_at <= ? AND (d.created_at < ? OR d.id < ?)";
        params.emplace_back(created);
        params.emplace_back(created);
        params.emplace_back(*before);
    }
    params.emplace_back(static_cast<long long>(limit));
    return read_logs(s,
                     select_logs(where + " ORDER BY d.created_at DESC, d.id DESC LIMIT ?",
                                 hint("ix_webhook_deliveries_endpoint_created")),
                     params);
}

}  // namespace squawk::webhooks
