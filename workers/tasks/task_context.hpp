// What a running task may use besides its job: the blocking executor, MySQL, configuration, the
// object store, progress reporting and a cancellation check for its safe points.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/http/http_client.hpp"
#include "common/core/storage/object_store.hpp"
#include "common/domain/jobs/job.hpp"
#include "workers/runtime/blocking_executor.hpp"

#include <atomic>

namespace squawk::workers {

class TaskContext {
  public:
    TaskContext(const jobs::ClaimedJob& job, BlockingExecutor& executor, db::MysqlPool& mysql,
                const config::Config& config, const std::atomic<bool>& stop_requested,
                storage::ObjectStore& storage, http::Client* http = nullptr)
        : job_(job),
          executor_(executor),
          mysql_(mysql),
          config_(config),
          stop_requested_(stop_requested),
          storage_(storage),
          http_(http) {}

    BlockingExecutor& executor() { return executor_; }
    db::MysqlPool& mysql() { return mysql_; }
    const config::Config& config() const { return config_; }
    // Where media files live; its calls block, so they run on the executor.
    storage::ObjectStore& storage() { return storage_; }
    // The worker's HTTP client; its send() parks only the calling fiber. Null when the
    // process runs no pool that calls out.
    http::Client* http() { return http_; }

    // Records progress (0-100) and what the job is doing now ("composing") on the job row; a
    // failure to write it does not fail the task.
    void report_progress(int percent, const std::string& stage);
    // True once the job was cancelled or the worker gave the job back at shutdown.
    bool is_cancelled();
    // Throws TaskCancelled when is_cancelled(); call it at safe points.
    void stop_if_cancelled();
    // Parks the fiber until `when` (at once when it has passed).
    void wait_until(time::TimePoint when);

    // Runs f(Session&) in one MySQL transaction on the blocking executor: only the fiber waits.
    template <class F>
    auto in_transaction(F&& f) {
        return executor_.run([&] { return mysql_.transaction(f); });
    }
    // Runs f(Session&) in autocommit mode on the blocking executor.
    template <class F>
    auto in_database(F&& f) {
        return executor_.run([&] { return mysql_.run(f); });
    }
    // Cheap flag for loops inside blocking work (no query): the worker is giving jobs back.
    const std::atomic<bool>& stop_requested() const { return stop_requested_; }

  private:
    const jobs::ClaimedJob& job_;
    BlockingExecutor& executor_;
    db::MysqlPool& mysql_;
    const config::Config& config_;
    const std::atomic<bool>& stop_requested_;
    storage::ObjectStore& storage_;
    http::Client* http_;
};

}  // namespace squawk::workers
