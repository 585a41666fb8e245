#include "workers/runtime/completion_writer.hpp"

#include "common/core/log/logger.hpp"
#include "workers/runtime/writer_task.hpp"

#include <algorithm>
#include <stdexcept>

namespace squawk::workers {
namespace {

// Lets a batch fill up a little without holding back a lone completion noticeably.
constexpr auto kLinger = std::chrono::milliseconds(3);

}  // namespace

CompletionWriter::CompletionWriter(std::string pool, int batch, db::MysqlPool& mysql,
                                   config::RedisSettings redis)
    : pool_(std::move(pool)),
      mysql_(mysql),
      redis_(std::move(redis)),
      job_queue_(redis_),
      queue_(static_cast<size_t>(std::max(1, batch)), kLinger),
      task_(writer_task_options("completion-writer-" + pool_), [this] { write_pending(); }) {}

CompletionWriter::~CompletionWriter() {
    stop(std::chrono::milliseconds(0));
}

void CompletionWriter::start() {
    task_.start();
}

void CompletionWriter::push(Completion completion) {
    if (queue_.push(std::move(completion))) task_.wake();
}

void CompletionWriter::stop(std::chrono::milliseconds flush_budget) {
    queue_.stop();
    if (!task_.stop(flush_budget))
        log::error(
            "giving up on unwritten job outcomes at shutdown; the scheduler will "
            "reclaim their jobs after the lease",
            {{"pool", pool_},
             {"outcomes", unwritten_.size()},
             {"entries", unsettled_.acks.size()}});
}

void CompletionWriter::write_database() {
    std::vector<jobs::Outcome> outcomes;
    outcomes.reserve(unwritten_.size());
    for (const auto& c : unwritten_) outcomes.push_back(c.outcome);
    try {
        mysql_.transaction(
            [&](db::Session& s) { jobs::JobRepository::record_outcomes(s, outcomes); });
    } catch (const std::exception& e) {
        throw std::runtime_error("could not record " + std::to_string(outcomes.size()) +
                                 " job outcomes; keeping them to retry: " + e.what());
    }
    for (auto& c : unwritten_) {
        unsettled_.acks.push_back(std::move(c.entry_id));
        if (c.outcome.kind == jobs::Outcome::Kind::retry)
            unsettled_.retries.push_back({c.outcome.job_id, time::to_unix_ms(c.outcome.run_after)});
    }
    unwritten_.clear();
}

void CompletionWriter::settle_redis() {
    try {
        job_queue_.ack(pool_, unsettled_.acks, unsettled_.retries);
    } catch (const std::exception& e) {
        throw std::runtime_error("could not acknowledge " + std::to_string(unsettled_.acks.size()) +
                                 " finished jobs in redis; retrying: " + e.what());
    }
    unsettled_ = {};
}

void CompletionWriter::write_pending() {
    for (;;) {
        const bool fresh = unwritten_.empty() && unsettled_.empty();
        const bool drained = queue_.take(unwritten_, fresh);
        if (!unwritten_.empty()) write_database();
        if (!unsettled_.empty()) settle_redis();
        if (drained) return;
    }
}

}  // namespace squawk::workers
