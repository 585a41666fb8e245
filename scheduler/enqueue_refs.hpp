// Puts job references read from MySQL into their pools' streams, one pipelined call per pool.
#pragma once

#include "common/core/queue/job_queue.hpp"
#include "common/domain/jobs/job_repository.hpp"

#include <vector>

namespace squawk::scheduler {

void enqueue_refs(queue::JobQueue& queue, const std::vector<jobs::QueueRef>& refs);

}  // namespace squawk::scheduler
