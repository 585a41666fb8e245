#include "workers/runtime/completion_writer.hpp"

#include "common/core/log/logger.hpp"
#include "common/core/queue/job_queue.hpp"
#include "common/core/redis/redis_client.hpp"
#include "workers/runtime/backoff.hpp"

#include <algorithm>

namespace squawk::workers {
namespace {

// Lets a batch fill up a little without holding back a lone completion noticeably.
constexpr auto kLinger = std::chrono::milliseconds(3);

struct RedisSettlement {
    std::vector<std::string> acks;
    std::vector<queue::Delayed> retries;
    bool empty() const { return acks.empty() && retries.empty(); }
};

}  // namespace

CompletionWriter::CompletionWriter(std::string pool, int batch, db::MysqlPool& mysql,
                                   config::RedisSettings redis)
    : pool_(std::move(pool)),
      mysql_(mysql),
      redis_settings_(std::move(redis)),
      queue_(static_cast<size_t>(std::max(1, batch)), kLinger) {}

CompletionWriter::~CompletionWriter() {
    stop(std::chrono::milliseconds(0));
}

void CompletionWriter::start() {
    thread_ = std::thread([this] { loop(); });
}

void CompletionWriter::push(Completion completion) {
    queue_.push(std::move(completion));
}

void CompletionWriter::stop(std::chrono::milliseconds flush_budget) {
    queue_.stop(flush_budget);
    if (thread_.joinable()) thread_.join();
}

bool CompletionWriter::write_database(const std::vector<Completion>& batch) {
    std::vector<jobs::Outcome> outcomes;
    outcomes.reserve(batch.size());
    for (const auto& c : batch) outcomes.push_back(c.outcome);
    try {
        mysql_.transaction(
            [&](db::Session& s) { jobs::JobRepository::record_outcomes(s, outcomes); });
        return true;
    } catch (const std::exception& e) {
        log::warn("could not record job outcomes; keeping them to retry",
                  {{"pool", pool_}, {"count", batch.size()}, {"error", e.what()}});
        return false;
    }
}

void CompletionWriter::loop() {
    redis::RedisClient client(redis_settings_);
    queue::JobQueue queue(client);
    std::vector<Completion> unwritten;
    RedisSettlement unsettled;
    int failures = 0;
    for (;;) {
        const auto taken =
            queue_.take(unwritten, !unwritten.empty() || !unsettled.empty(), failures > 0);
        if (taken.stopping && unwritten.empty() && unsettled.empty() && taken.drained) return;
        if (taken.stopping && failures > 0 &&
            std::chrono::steady_clock::now() >= taken.flush_deadline) {
            log::error(
                "giving up on unwritten job outcomes at shutdown; the scheduler will "
                "reclaim their jobs after the lease",
                {{"pool", pool_},
                 {"outcomes", unwritten.size()},
                 {"entries", unsettled.acks.size()}});
            return;
        }

        bool ok = true;
        if (!unwritten.empty()) {
            ok = write_database(unwritten);
            if (ok) {
                for (auto& c : unwritten) {
                    unsettled.acks.push_back(std::move(c.entry_id));
                    if (c.outcome.kind == jobs::Outcome::Kind::retry)
                        unsettled.retries.push_back(
                            {c.outcome.job_id, time::to_unix_ms(c.outcome.run_after)});
                }
                unwritten.clear();
            }
        }
        if (ok && !unsettled.empty()) {
            try {
                queue.ack(pool_, unsettled.acks, unsettled.retries);
                unsettled = {};
            } catch (const std::exception& e) {
                log::warn("could not acknowledge finished jobs in redis; retrying",
                          {{"pool", pool_}, {"count", unsettled.acks.size()}, {"error", e.what()}});
                ok = false;
            }
        }
        if (ok) {
            failures = 0;
        } else {
            std::this_thread::sleep_for(outage_pause(failures++));
        }
    }
}

}  // namespace squawk::workers
