// SQL for posting queues: tenant-scoped reads and writes, and the scheduled times of the queue's
// posts that the slot walk must skip.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/social/queue_calendar.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace squawk::social {

struct PostingQueue {
    long long id = 0;
    long long workspace_id = 0;
    std::string name;
    std::string timezone;
    std::vector<WeeklySlot> slots;
    time::TimePoint created_at;
    time::TimePoint updated_at;
};

struct QueuePage {
    std::vector<PostingQueue> items;
    long long total = 0;
};

// The slots as stored, and as the API shows them: [{"day": "monday", "time": "09:30"}, ...].
nlohmann::json slots_json(const std::vector<WeeklySlot>& slots);

class QueueRepository {
  public:
    // Locks the workspace row so that concurrent creations count one after the other.
    static long long count_locked(db::Session& s, long long workspace_id);
    static PostingQueue insert(db::Session& s, const PostingQueue& queue);
    static std::optional<PostingQueue> find(db::Session& s, long long workspace_id, long long id,
                                            bool for_update = false);
    static QueuePage list(db::Session& s, long long workspace_id, long long offset, int limit);
    static void update(db::Session& s, const PostingQueue& queue);
    static void remove(db::Session& s, long long id);
    // Scheduled times in (after, until] held by the queue's live posts (not drafts, not deleted).
    static std::set<time::TimePoint> taken(db::Session& s, long long queue_id,
                                           time::TimePoint after, time::TimePoint until);
};

}  // namespace squawk::social
