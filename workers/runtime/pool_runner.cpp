#include "workers/runtime/pool_runner.hpp"

#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/metrics/registry.hpp"
#include "common/core/redis/redis_client.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "workers/runtime/backoff.hpp"
#include "workers/runtime/fiber_stack.hpp"
#include "workers/runtime/task_runner.hpp"

#include <boost/fiber/operations.hpp>

#include <unordered_map>
#include <unordered_set>

namespace squawk::workers {
namespace {

// Room for handler code, JSON and logging; a guard page turns an overflow into a crash, not
// silent corruption.
constexpr size_t kFiberStackBytes = 256 * 1024;

size_t channel_capacity(int items) {
    // A buffered_channel holds capacity - 1 items and its capacity must be a power of two.
    size_t capacity = 2;
    while (capacity < static_cast<size_t>(items) + 1) capacity <<= 1;
    return capacity;
}

void record_task_metrics(const std::string& pool, const std::string& type,
                         const jobs::Outcome& outcome, std::chrono::steady_clock::duration took) {
    auto& registry = metrics::Registry::global();
    const metrics::Labels labels{{"pool", pool}, {"type", type}};
    registry.histogram("squawk_task_duration_seconds", "Time a task ran on a fiber.", labels)
        .observe(std::chrono::duration<double>(took).count());
    const char* result = outcome.kind == jobs::Outcome::Kind::completed ? "completed"
                         : outcome.kind == jobs::Outcome::Kind::retry   ? "retry"
                         : outcome.dead_lettered                        ? "dead_letter"
                                                                        : "failed";
    registry
        .counter("squawk_task_outcomes_total",
                 "Task attempts by how they ended: completed, retry, failed, dead_letter.",
                 {{"pool", pool}, {"type", type}, {"outcome", result}})
        .inc();
}

long long steady_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

PoolRunner::PoolRunner(PoolSpec spec, WorkerServices& services)
    : spec_(std::move(spec)),
      services_(services),
      capacity_(spec_.threads * spec_.fibers),
      channel_(channel_capacity(capacity_)),
      completions_(spec_.name, spec_.batch, services.mysql, services.config.redis),
      last_alive_ns_(steady_ns()) {}

PoolRunner::~PoolRunner() {
    stop_fetching();
    finish(std::chrono::milliseconds(0));
}

void PoolRunner::start() {
    in_flight_gauge_ = metrics::Registry::global().add_collector([this](metrics::SampleWriter& w) {
        w.gauge("squawk_tasks_in_flight", "Tasks claimed by this process and not yet recorded.",
                {{"pool", spec_.name}}, in_flight_.load());
    });
    completions_.start();
    live_fibers_ = capacity_;
    for (int i = 0; i < spec_.threads; ++i) fiber_threads_.emplace_back([this] { fiber_thread(); });
    fetch_thread_ = std::thread([this] { fetch_loop(); });
}

std::chrono::steady_clock::time_point PoolRunner::last_alive() const {
    return std::chrono::steady_clock::time_point(std::chrono::nanoseconds(last_alive_ns_.load()));
}

int PoolRunner::block_ms() const {
    // hiredis kills the connection when a blocking read outlasts its socket timeout.
    return std::max(10, std::min(500, services_.config.redis.timeout_ms / 2));
}

void PoolRunner::pause(std::chrono::milliseconds how_long) {
    std::unique_lock lock(wake_mutex_);
    wake_.wait_for(lock, how_long, [&] { return stop_fetch_.load(); });
}

void PoolRunner::stop_fetching() {
    stop_fetch_ = true;
    wake_.notify_all();
    if (fetch_thread_.joinable()) fetch_thread_.join();
}

void PoolRunner::fetch_loop() {
    redis::RedisClient client(services_.config.redis);
    queue::JobQueue queue(client);
    int failures = 0;
    while (!stop_fetch_) {
        last_alive_ns_ = steady_ns();
        try {
            if (!reading_) {
                queue.ensure_group(spec_.name);
                reading_ = true;
                log::info("pool reading", {{"pool", spec_.name},
                                           {"threads", spec_.threads},
                                           {"fibers", spec_.fibers},
                                           {"batch", spec_.batch}});
            }
            const int free = capacity_ - in_flight_.load();
            if (free <= 0) {
                std::unique_lock lock(wake_mutex_);
                wake_.wait_for(lock, std::chrono::milliseconds(100),
                               [&] { return stop_fetch_.load() || in_flight_.load() < capacity_; });
                continue;
            }
            const auto want = db::batch_rows(static_cast<size_t>(std::min(free, spec_.batch)),
                                             static_cast<size_t>(spec_.batch));
            const auto entries =
                queue.read(spec_.name, services_.worker_id, static_cast<int>(want), block_ms());
            if (failures > 0) log::info("redis reachable again", {{"pool", spec_.name}});
            failures = 0;
            if (!entries.empty()) dispatch(queue, entries);
        } catch (const std::exception& e) {
            if (failures == 0 || failures % 20 == 0)
                log::warn("cannot read the job stream; retrying",
                          {{"pool", spec_.name}, {"error", e.what()}});
            pause(outage_pause(failures++));
        }
    }
}

std::optional<std::vector<jobs::ClaimedJob>> PoolRunner::claim(const std::vector<long long>& ids) {
    // One token for the batch: if the connection breaks after the update committed, the retry
    // finds the rows it already owns by the same token.
    const std::string token = crypto::hex(crypto::random_bytes(16));
    const auto lease = std::chrono::seconds(services_.config.jobs.lease_seconds);
    for (int failures = 0;; ++failures) {
        last_alive_ns_ = steady_ns();  // waiting out an outage is not a hang
        try {
            return services_.mysql.run([&](db::Session& s) {
                return jobs::JobRepository::claim(
                    s, ids, token, services_.worker_id, time::now() + lease,
                    std::chrono::milliseconds(config::kMaxPoolLeadMs));
            });
        } catch (const std::exception& e) {
            if (failures == 0 || failures % 20 == 0)
                log::warn("cannot claim jobs; retrying",
                          {{"pool", spec_.name}, {"count", ids.size()}, {"error", e.what()}});
            // Unclaimed entries stay pending; the scheduler recovers them after the lease.
            if (stop_fetch_) return std::nullopt;
            pause(outage_pause(failures));
        }
    }
}

void PoolRunner::dispatch(queue::JobQueue& queue, const std::vector<queue::Entry>& entries) {
    std::unordered_map<long long, std::string> entry_of;
    std::vector<long long> ids;
    std::vector<std::string> unclaimable;
    for (const auto& e : entries) {
        if (e.job_id <= 0 || entry_of.count(e.job_id)) {
            unclaimable.push_back(e.entry_id);  // junk or a duplicate within this batch
            continue;
        }
        entry_of.emplace(e.job_id, e.entry_id);
        ids.push_back(e.job_id);
    }
    std::vector<jobs::ClaimedJob> claimed;
    if (!ids.empty()) {
        auto result = claim(ids);
        if (!result) return;
        claimed = std::move(*result);
    }
    std::unordered_set<long long> claimed_ids;
    for (const auto& j : claimed) claimed_ids.insert(j.id);
    for (const auto& [id, entry] : entry_of)
        if (!claimed_ids.count(id)) unclaimable.push_back(entry);

    {
        std::lock_guard lock(claims_mutex_);
        for (const auto& j : claimed) claims_[{j.id, j.claim_token}] = Claim{entry_of.at(j.id)};
    }
    in_flight_ += static_cast<int>(claimed.size());
    for (auto& j : claimed) {
        const std::string entry = entry_of.at(j.id);
        channel_.push(Work{std::move(j), entry});
    }
    if (!unclaimable.empty()) {
        // Duplicates and jobs already finished or cancelled: nothing to run.
        try {
            queue.ack(spec_.name, unclaimable);
        } catch (const std::exception& e) {
            log::warn("cannot acknowledge unclaimable entries; the scheduler drops them later",
                      {{"pool", spec_.name}, {"error", e.what()}});
        }
    }
}

void PoolRunner::fiber_thread() {
    boost::fibers::use_scheduling_algorithm<PoolFiberScheduler>(ready_queue_);
    std::vector<boost::fibers::fiber> fibers;
    fibers.reserve(spec_.fibers);
    for (int i = 0; i < spec_.fibers; ++i)
        fibers.emplace_back(std::allocator_arg,
                            FiberStack(kFiberStackBytes, spec_.mapped_stack_bytes),
                            [this] { fiber_loop(); });
    for (auto& f : fibers) f.join();
    // Fibers move between this pool's threads; no thread may exit while one could still be
    // attached to its scheduler.
    std::unique_lock lock(live_mutex_);
    live_changed_.wait(lock, [&] { return live_fibers_ == 0; });
}

bool PoolRunner::still_ours(const Work& work) {
    std::lock_guard lock(claims_mutex_);
    const auto it = claims_.find({work.job.id, work.job.claim_token});
    return it != claims_.end() && !it->second.released;
}

bool PoolRunner::settle_claim(const Work& work) {
    std::lock_guard lock(claims_mutex_);
    const auto it = claims_.find({work.job.id, work.job.claim_token});
    if (it == claims_.end()) return false;
    const bool released = it->second.released;
    claims_.erase(it);
    return !released;
}

void PoolRunner::job_finished() {
    in_flight_.fetch_sub(1);
    wake_.notify_one();
}

void PoolRunner::fiber_loop() {
    Work work;
    while (channel_.pop(work) == boost::fibers::channel_op_status::success) {
        if (still_ours(work)) {
            TaskContext context(work.job, services_.executor, services_.mysql, services_.config,
                                services_.stop_requested, services_.storage,
                                services_.http_for(tasks_started_++));
            const auto started = std::chrono::steady_clock::now();
            jobs::Outcome outcome =
                run_job(services_.registry, work.job, context, services_.config.jobs);
            record_task_metrics(spec_.name, work.job.type, outcome,
                                std::chrono::steady_clock::now() - started);
            // A job given back at shutdown already runs elsewhere: its outcome is dropped.
            if (settle_claim(work)) completions_.push({std::move(outcome), work.entry_id});
        } else {
            settle_claim(work);
        }
        job_finished();
    }
    std::lock_guard lock(live_mutex_);
    if (--live_fibers_ == 0) live_changed_.notify_all();
}

void PoolRunner::release_in_flight() {
    std::vector<std::pair<long long, std::string>> released;
    std::vector<long long> ids;
    std::vector<std::string> entries;
    {
        std::lock_guard lock(claims_mutex_);
        for (auto& [key, claim] : claims_) {
            if (claim.released) continue;
            claim.released = true;
            released.push_back(key);
            ids.push_back(key.first);
            entries.push_back(claim.entry_id);
        }
    }
    if (released.empty()) return;
    try {
        services_.mysql.transaction(
            [&](db::Session& s) { jobs::JobRepository::release(s, released); });
    } catch (const std::exception& e) {
        log::error("cannot give back running jobs; the scheduler reclaims them after the lease",
                   {{"pool", spec_.name}, {"count", released.size()}, {"error", e.what()}});
        return;
    }
    try {
        redis::RedisClient client(services_.config.redis);
        queue::JobQueue queue(client);
        queue.enqueue(spec_.name, ids);
        queue.ack(spec_.name, entries);
    } catch (const std::exception& e) {
        log::warn("gave back running jobs but could not requeue them; the reconciler will",
                  {{"pool", spec_.name}, {"count", ids.size()}, {"error", e.what()}});
    }
    log::info("gave back running jobs at shutdown", {{"pool", spec_.name}, {"count", ids.size()}});
}

void PoolRunner::finish(std::chrono::milliseconds flush_budget) {
    if (finished_) return;
    finished_ = true;
    channel_.close();
    for (auto& t : fiber_threads_)
        if (t.joinable()) t.join();
    completions_.stop(flush_budget);
    if (!reading_) return;
    try {
        redis::RedisClient client(services_.config.redis);
        queue::JobQueue(client).remove_consumer(spec_.name, services_.worker_id);
    } catch (const std::exception& e) {
        log::warn("cannot remove this worker's consumer",
                  {{"pool", spec_.name}, {"error", e.what()}});
    }
}

}  // namespace squawk::workers
