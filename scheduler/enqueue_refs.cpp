#include "scheduler/enqueue_refs.hpp"

#include <map>

namespace squawk::scheduler {

void enqueue_refs(queue::JobQueue& queue, const std::vector<jobs::QueueRef>& refs) {
    std::map<std::string, std::vector<long long>> by_pool;
    for (const auto& r : refs) by_pool[r.pool].push_back(r.id);
    for (const auto& [pool, ids] : by_pool) queue.enqueue(pool, ids);
}

}  // namespace squawk::scheduler
