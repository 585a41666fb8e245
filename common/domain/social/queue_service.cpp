#include "common/domain/social/queue_service.hpp"

#include "common/core/error/api_error.hpp"

#include <algorithm>

namespace squawk::social {
namespace {

// The walk looks ahead four weeks at a time, at most two years in all.
constexpr auto kWindow = std::chrono::hours(24 * 28);
constexpr int kMaxWindows = 27;

[[noreturn]] void queue_not_found() {
    throw ApiError(ErrorCode::NotFound, "No queue with this id.");
}

PostingQueue require(db::Session& s, long long workspace_id, long long id, bool for_update) {
    auto queue = QueueRepository::find(s, workspace_id, id, for_update);
    if (!queue) queue_not_found();
    return *queue;
}

// The queue's slot instants after `after` that no live post of the queue holds, in order.
std::vector<time::TimePoint> free_slots(db::Session& s, const PostingQueue& queue,
                                        time::TimePoint after, size_t count) {
    const QueueCalendar calendar(queue.timezone, queue.slots);
    std::vector<time::TimePoint> out;
    auto cursor = after;
    for (int window = 0; window < kMaxWindows && out.size() < count; ++window) {
        const auto until = cursor + kWindow;
        const auto taken = QueueRepository::taken(s, queue.id, cursor, until);
        for (const auto instant : calendar.instants(cursor, until)) {
            if (taken.contains(instant)) continue;
            out.push_back(instant);
            if (out.size() == count) break;
        }
        cursor = until;
    }
    return out;
}

void apply(PostingQueue& queue, const QueueChange& change) {
    if (change.name) queue.name = *change.name;
    if (change.timezone) queue.timezone = *change.timezone;
    if (change.slots) {
        // Kept in week order, each slot once, so reads and the walk see one canonical list.
        queue.slots = *change.slots;
        std::sort(queue.slots.begin(), queue.slots.end());
        queue.slots.erase(std::unique(queue.slots.begin(), queue.slots.end()), queue.slots.end());
    }
}

}  // namespace

PostingQueue QueueService::create(long long workspace_id, const QueueChange& change) {
    return mysql_.transaction([&](db::Session& s) {
        if (QueueRepository::count_locked(s, workspace_id) >= kMaxQueuesPerWorkspace)
            throw ApiError(ErrorCode::Conflict,
                           "The workspace already has the most queues allowed.",
                           {{"limit", kMaxQueuesPerWorkspace}});
        PostingQueue queue;
        queue.workspace_id = workspace_id;
        apply(queue, change);
        return QueueRepository::insert(s, queue);
    });
}

QueuePage QueueService::list(long long workspace_id, long long offset, int limit) {
    return mysql_.run(
        [&](db::Session& s) { return QueueRepository::list(s, workspace_id, offset, limit); });
}

PostingQueue QueueService::get(long long workspace_id, long long id) {
    return mysql_.run([&](db::Session& s) { return require(s, workspace_id, id, false); });
}

PostingQueue QueueService::update(long long workspace_id, long long id, const QueueChange& change) {
    return mysql_.transaction([&](db::Session& s) {
        auto queue = require(s, workspace_id, id, true);
        apply(queue, change);
        QueueRepository::update(s, queue);
        return require(s, workspace_id, id, false);
    });
}

void QueueService::remove(long long workspace_id, long long id) {
    mysql_.transaction([&](db::Session& s) {
        require(s, workspace_id, id, true);
        QueueRepository::remove(s, id);
    });
}

FreeSlots QueueService::preview(long long workspace_id, long long id, int count) {
    return mysql_.run([&](db::Session& s) {
        const auto queue = require(s, workspace_id, id, false);
        return FreeSlots{queue.id, queue.timezone,
                         free_slots(s, queue, time::now(), static_cast<size_t>(count))};
    });
}

FreeSlots QueueService::next_slot(long long workspace_id, long long id) {
    return preview(workspace_id, id, 1);
}

time::TimePoint QueueService::take_next_slot(db::Session& s, long long workspace_id,
                                             long long queue_id, time::TimePoint not_before) {
    const auto queue = QueueRepository::find(s, workspace_id, queue_id, true);
    if (!queue) throw validation_error({{"queue_id", "is not a queue of this workspace"}});
    const auto found = free_slots(s, *queue, not_before, 1);
    if (found.empty())
        throw validation_error({{"queue_id", "the queue has no free slot in the next two years"}});
    return found.front();
}

}  // namespace squawk::social
