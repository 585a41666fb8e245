// Puts job references read from MySQL into their pools' streams, one pipelined call per pool.
#pragma once

#include "common/jobs/job_repository.hpp"
#include "common/queue/job_queue.hpp"

#include <vector>

namespace squawk::scheduler {

void enqueue_refs(queue::JobQueue& queue, const std::vector<jobs::QueueRef>& refs);

}  // namespace squawk::scheduler
