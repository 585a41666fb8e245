// What the queue routes do: posting queues of a workspace, the walk over their free slots
// (next slot, preview) and the slot a post sent to a queue takes. Raises ApiError; returns domain
// types.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/social/queue_repository.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::social {

inline constexpr int kMaxQueuesPerWorkspace = 50;
inline constexpr size_t kMaxSlotsPerQueue = 200;
inline constexpr int kDefaultPreviewCount = 10;
inline constexpr int kMaxPreviewCount = 50;

struct QueueChange {
    std::optional<std::string> name;
    std::optional<std::string> timezone;
    std::optional<std::vector<WeeklySlot>> slots;
};

// The free slots of a queue found by a walk from now, in its time zone.
struct FreeSlots {
    long long queue_id = 0;
    std::string timezone;
    std::vector<time::TimePoint> slots;
};

class QueueService {
  public:
    explicit QueueService(db::MysqlPool& mysql) : mysql_(mysql) {}

    PostingQueue create(long long workspace_id, const QueueChange& change);
    QueuePage list(long long workspace_id, long long offset, int limit);
    PostingQueue get(long long workspace_id, long long id);
    PostingQueue update(long long workspace_id, long long id, const QueueChange& change);
    void remove(long long workspace_id, long long id);
    // The next `count` free slots from now (spec 2.8); next_slot is the first, if any.
    FreeSlots preview(long long workspace_id, long long id, int count);
    FreeSlots next_slot(long long workspace_id, long long id);

    // The first free slot of the queue after `not_before`, taken for a post written in the same
    // transaction: the queue row stays locked until it commits, so two posts never share one.
    static time::TimePoint take_next_slot(db::Session& s, long long workspace_id,
                                          long long queue_id, time::TimePoint not_before);

  private:
    db::MysqlPool& mysql_;
};

}  // namespace squawk::social
