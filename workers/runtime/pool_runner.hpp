// One worker pool in one process: a fetch thread reads stream entries in batches and claims them
// with one MySQL statement, `threads` threads run `fibers` fibers each that execute the claimed
// jobs, and a completion writer records their outcomes in batches.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/http/http_client.hpp"
#include "common/core/metrics/registry.hpp"
#include "common/core/queue/job_queue.hpp"
#include "common/domain/jobs/job.hpp"
#include "workers/runtime/blocking_executor.hpp"
#include "workers/runtime/completion_writer.hpp"
#include "workers/runtime/pool_fiber_scheduler.hpp"
#include "workers/runtime/worker_pool.hpp"
#include "workers/tasks/task_registry.hpp"

#include <boost/fiber/buffered_channel.hpp>
#include <boost/fiber/condition_variable.hpp>
#include <boost/fiber/mutex.hpp>

#include <atomic>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace squawk::workers {

struct PoolSpec {
    std::string name;
    int threads = 1;
    int fibers = 16;
    int batch = 100;
    // How much of each fiber's stack is resident from the start (workers::FiberStack).
    size_t mapped_stack_bytes = 0;
};

// What every pool of one worker process shares.
struct WorkerServices {
    const config::Config& config;
    std::string worker_id;
    db::MysqlPool& mysql;
    BlockingExecutor& executor;
    const TaskRegistry& registry;
    // Turns true when the process gives its remaining jobs back; tasks stop at safe points.
    std::atomic<bool>& stop_requested;
    storage::ObjectStore& storage;
    // The process's HTTP loops for tasks that call out (publish), each a client with its own
    // thread; empty when no pool does. A task sends through one of them (http_for).
    std::vector<http::Client*> http_loops;

    // The loop the `n`-th task of a pool sends through, so that consecutive tasks spread over
    // the loops; null when there is none.
    http::Client* http_for(unsigned long long n) const {
        return http_loops.empty() ? nullptr : http_loops[n % http_loops.size()];
    }
};

class PoolRunner final : public WorkerPool {
  public:
    PoolRunner(PoolSpec spec, WorkerServices& services);
    ~PoolRunner();
    PoolRunner(const PoolRunner&) = delete;
    PoolRunner& operator=(const PoolRunner&) = delete;

    void start() override;
    // True once the consumer group exists and the fetch thread reads from it.
    bool reading() const override { return reading_.load(); }
    // When the fetch loop last went round; a stuck loop stops the watchdog.
    std::chrono::steady_clock::time_point last_alive() const override;
    const PoolSpec& spec() const { return spec_; }

    // Shutdown, in this order: stop reading; wait for in_flight() to reach 0 (the grace
    // period); give back whatever still runs; then finish.
    void stop_fetching() override;
    int in_flight() const override { return in_flight_.load(); }
    void release_in_flight() override;
    void finish(std::chrono::milliseconds flush_budget) override;

  private:
    struct Work {
        jobs::ClaimedJob job;
        std::string entry_id;
    };
    struct Claim {
        std::string entry_id;
        bool released = false;
    };
    using ClaimKey = std::pair<long long, std::string>;  // job id, claim token

    void fetch_loop();
    void dispatch(queue::JobQueue& queue, const std::vector<queue::Entry>& entries);
    std::optional<std::vector<jobs::ClaimedJob>> claim(const std::vector<long long>& ids);
    void fiber_thread();
    void fiber_loop();
    bool still_ours(const Work& work);
    bool settle_claim(const Work& work);
    void job_finished();
    void pause(std::chrono::milliseconds how_long);
    int block_ms() const;

    PoolSpec spec_;
    WorkerServices& services_;
    const int capacity_;
    SharedReadyQueue ready_queue_;
    boost::fibers::buffered_channel<Work> channel_;
    CompletionWriter completions_;

    std::atomic<int> in_flight_{0};
    std::atomic<unsigned long long> tasks_started_{0};
    std::atomic<bool> stop_fetch_{false};
    std::atomic<bool> reading_{false};
    std::atomic<long long> last_alive_ns_;
    std::mutex wake_mutex_;  // fetch thread waits here for capacity or for a backoff
    std::condition_variable wake_;

    std::mutex claims_mutex_;
    std::map<ClaimKey, Claim> claims_;

    boost::fibers::mutex live_mutex_;
    boost::fibers::condition_variable live_changed_;
    int live_fibers_ = 0;

    metrics::CollectorHandle in_flight_gauge_;
    std::thread fetch_thread_;
    std::vector<std::thread> fiber_threads_;
    bool finished_ = false;
};

}  // namespace squawk::workers
