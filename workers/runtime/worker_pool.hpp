// What the worker process needs from a pool, whatever runs it: job pools (PoolRunner) or the
// webhook delivery pool, which claims deliveries instead of jobs.
#pragma once

#include <chrono>

namespace squawk::workers {

class WorkerPool {
  public:
    virtual ~WorkerPool() = default;
    virtual void start() = 0;
    // True once the pool takes work.
    virtual bool reading() const = 0;
    // When the pool's fetch loop last went round; a stuck loop stops the watchdog.
    virtual std::chrono::steady_clock::time_point last_alive() const = 0;
    // Shutdown, in this order: stop_fetching, wait for in_flight() == 0 within the grace period,
    // release_in_flight, finish.
    virtual void stop_fetching() = 0;
    virtual int in_flight() const = 0;
    virtual void release_in_flight() = 0;
    virtual void finish(std::chrono::milliseconds flush_budget) = 0;
};

}  // namespace squawk::workers
