#include "common/domain/social/queue_repository.hpp"

#include "common/core/db/row_mapper.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/domain/social/post_status.hpp"

namespace squawk::social {
namespace {

using db::time_param;

// Whole literals: GCC 12 warns (-Warray-bounds) on chains of std::string concatenation.
constexpr const char* kFindQueue =
    "SELECT id, workspace_id, name, timezone, slots, created_at, updated_at FROM social_queues"
    " WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL";
constexpr const char* kFindQueueForUpdate =
    "SELECT id, workspace_id, name, timezone, slots, created_at, updated_at FROM social_queues"
    " WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL FOR UPDATE";
constexpr const char* kListPage =
    "SELECT id, workspace_id, name, timezone, slots, created_at, updated_at FROM social_queues"
    " WHERE workspace_id = ? AND deleted_at IS NULL ORDER BY id LIMIT ? OFFSET ?";

// Rows hold only slots the API validated; anything else in the column is skipped.
void read_slots(PostingQueue& q, const db::Row& r, size_t i) {
    const auto parsed = nlohmann::json::parse(r.text(i), nullptr, false);
    if (!parsed.is_array()) return;
    for (const auto& item : parsed) {
        if (!item.is_object()) continue;
        const auto day = parse_weekday(item.value("day", ""));
        const auto minute = parse_time_of_day(item.value("time", ""));
        if (day && minute) q.slots.push_back({*day, *minute});
    }
}

const db::RowMapper<PostingQueue> kQueueRows{db::field<&PostingQueue::id>("id"),
                                             db::field<&PostingQueue::workspace_id>("workspace_id"),
                                             db::field<&PostingQueue::name>("name"),
                                             db::field<&PostingQueue::timezone>("timezone"),
                                             {"slots", &read_slots},
                                             db::field<&PostingQueue::created_at>("created_at"),
                                             db::field<&PostingQueue::updated_at>("updated_at")};

}  // namespace

nlohmann::json slots_json(const std::vector<WeeklySlot>& slots) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& slot : slots)
        out.push_back(
            {{"day", weekday_name(slot.weekday)}, {"time", format_time_of_day(slot.minute)}});
    return out;
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
    q.id = s.insert(
        "INSERT INTO social_queues (workspace_id, name, timezone, slots, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        {q.workspace_id, q.name, q.timezone, slots_json(q.slots).dump(), time_param(q.created_at),
         time_param(q.updated_at)});
    return q;
}

std::optional<PostingQueue> QueueRepository::find(db::Session& s, long long workspace_id,
                                                  long long id, bool for_update) {
    return kQueueRows.first(
        s.select(for_update ? kFindQueueForUpdate : kFindQueue, {id, workspace_id}));
}

QueuePage QueueRepository::list(db::Session& s, long long workspace_id, long long offset,
                                int limit) {
    QueuePage page;
    page.total = s.query_one(
                      "SELECT COUNT(*) FROM social_queues WHERE workspace_id = ?"
                      " AND deleted_at IS NULL",
                      {workspace_id})
                     ->integer(0);
    page.items =
        kQueueRows.all(s.select(kListPage, {workspace_id, static_cast<long long>(limit), offset}));
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
    for (const auto& r :
         s.query("SELECT scheduled_time FROM social_posts WHERE queue_id = ?"
                 " AND scheduled_time > ? AND scheduled_time <= ?"
                 " AND deleted_at IS NULL AND status <> ?",
                 {queue_id, time_param(after), time_param(until), name_of(PostStatus::draft)}))
        out.insert(db::time_column(r, 0));
    return out;
}

}  // namespace squawk::social
