#include "common/domain/social/queue_repository.hpp"

#include "common/core/db/sql_text.hpp"

namespace squawk::social {
namespace {

using db::time_param;

// Whole literals: GCC 12 warns (-Warray-bounds) on chains of std::string concatenation.
constexpr const char* kFind =
    "SELECT id, workspace_id, name, timezone, slots, created_at, updated_at FROM social_queues"
    " WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL";
constexpr const char* kFindForUpdate =
    "SELECT id, workspace_id, name, timezone, slots, created_at, updated_at FROM social_queues"
    " WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL FOR UPDATE";
constexpr const char* kListPage =
    "SELECT id, workspace_id, name, timezone, slots, created_at, updated_at FROM social_queues"
    " WHERE workspace_id = ? AND deleted_at IS NULL ORDER BY id LIMIT ? OFFSET ?";

nlohmann::json slots_json(const std::vector<WeeklySlot>& slots) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& slot : slots)
        out.push_back(
            {{"day", weekday_name(slot.weekday)}, {"time", format_time_of_day(slot.minute)}});
    return out;
}

// Rows hold only slots the API validated; anything else in the column is skipped.
std::vector<WeeklySlot> read_slots(const std::string& text) {
    std::vector<WeeklySlot> slots;
    const auto parsed = nlohmann::json::parse(text, nullptr, false);
    if (!parsed.is_array()) return slots;
    for (const auto& item : parsed) {
        if (!item.is_object()) continue;
        const auto day = parse_weekday(item.value("day", ""));
        const auto minute = parse_time_of_day(item.value("time", ""));
        if (day && minute) slots.push_back({*day, *minute});
    }
    return slots;
}

PostingQueue read_queue(const db::Row& r) {
    PostingQueue q;
    q.id = r.integer(0);
    q.workspace_id = r.integer(1);
    q.name = r.text(2);
    q.timezone = r.text(3);
    q.slots = read_slots(r.text(4));
    q.created_at = db::time_column(r, 5);
    q.updated_at = db::time_column(r, 6);
    return q;
}

}  // namespace

nlohmann::json to_api_json(const PostingQueue& q) {
    return {{"id", q.id},
            {"name", q.name},
            {"timezone", q.timezone},
            {"slots", slots_json(q.slots)},
            {"created_at", time::format_iso8601(q.created_at)},
            {"updated_at", time::format_iso8601(q.updated_at)}};
}

long long QueueRepository::count_locked(db::Session& s, long long workspace_id) {
    s.query("SELECT id FROM workspaces WHERE id = ? FOR UPDATE", {workspace_id});
    return s
        .query_one(
            "SELECT COUNT(*) FROM social_queues WHERE workspace_id = ?"
            " AND deleted_at IS NULL",
            {workspace_id})
        ->integer(0);
}

PostingQueue QueueRepository::insert(db::Session& s, const PostingQueue& queue) {
    PostingQueue q = queue;
    q.created_at = q.updated_at = time::now();
    s.execute(
        "INSERT INTO social_queues (workspace_id, name, timezone, slots, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        {q.workspace_id, q.name, q.timezone, slots_json(q.slots).dump(), time_param(q.created_at),
         time_param(q.updated_at)});
    q.id = s.last_insert_id();
    return q;
}

std::optional<PostingQueue> QueueRepository::find(db::Session& s, long long workspace_id,
                                                  long long id, bool for_update) {
    auto row = s.query_one(for_update ? kFindForUpdate : kFind, {id, workspace_id});
    if (!row) return std::nullopt;
    return read_queue(*row);
}

QueuePage QueueRepository::list(db::Session& s, long long workspace_id, long long offset,
                                int limit) {
    QueuePage page;
    page.total = s.query_one(
                      "SELECT COUNT(*) FROM social_queues WHERE workspace_id = ?"
                      " AND deleted_at IS NULL",
                      {workspace_id})
                     ->integer(0);
    for (const auto& r : s.query(kListPage, {workspace_id, static_cast<long long>(limit), offset}))
        page.items.push_back(read_queue(r));
    return page;
}

void QueueRepository::update(db::Session& s, const PostingQueue& q) {
    s.execute(
        "UPDATE social_queues SET name = ?, timezone = ?, slots = ?, updated_at = ?"
        " WHERE id = ?",
        {q.name, q.timezone, slots_json(q.slots).dump(), time_param(time::now()), q.id});
}

void QueueRepository::remove(db::Session& s, long long id) {
    s.execute("UPDATE social_queues SET deleted_at = ? WHERE id = ?",
              {time_param(time::now()), id});
}

std::set<time::TimePoint> QueueRepository::taken(db::Session& s, long long queue_id,
                                                 time::TimePoint after, time::TimePoint until) {
    std::set<time::TimePoint> out;
    for (const auto& r : s.query("SELECT scheduled_time FROM social_posts WHERE queue_id = ?"
                                 " AND scheduled_time > ? AND scheduled_time <= ?"
                                 " AND deleted_at IS NULL AND status <> 'draft'",
                                 {queue_id, time_param(after), time_param(until)}))
        out.insert(db::time_column(r, 0));
    return out;
}

}  // namespace squawk::social
