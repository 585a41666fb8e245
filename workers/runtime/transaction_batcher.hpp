// Many fibers' small transactions written as one: a thread takes every request that waits and
// runs them in one MySQL transaction, so a burst costs a few statements and one commit rather
// than a round of statements and a commit per fiber. Without a burst, requests arrive one by one
// and each would be its own transaction; a batcher whose callers can wait a little lingers for
// the batch to fill.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "workers/runtime/batch_queue.hpp"

#include <boost/fiber/future.hpp>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace squawk::workers {

template <class Request, class Result>
class TransactionBatcher {
  public:
    // Answers a batch inside the transaction: one result per request, in the same order.
    using Write =
        std::function<std::vector<Result>(db::Session&, const std::vector<Request>& batch)>;

    // `linger`: how long the first request of a batch may wait for others to join it.
    TransactionBatcher(db::MysqlPool& mysql, Write write, size_t max_batch,
                       std::chrono::milliseconds linger = std::chrono::milliseconds(0))
        : mysql_(mysql),
          write_(std::move(write)),
          pending_(max_batch, linger),
          thread_([this] { loop(); }) {}

    ~TransactionBatcher() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        pending_.stop();
        thread_.join();
    }

    TransactionBatcher(const TransactionBatcher&) = delete;
    TransactionBatcher& operator=(const TransactionBatcher&) = delete;

    // From a fiber: parks it until the transaction holding the request committed, then returns
    // its result (or rethrows what failed it).
    Result submit(Request request) {
        auto promise = std::make_shared<boost::fibers::promise<Result>>();
        auto future = promise->get_future();
        if (pending_.push({std::move(request), promise})) {
            {
                std::lock_guard lock(mutex_);
                woken_ = true;
            }
            wake_.notify_one();
        }
        return future.get();
    }

  private:
    struct Pending {
        Request request;
        std::shared_ptr<boost::fibers::promise<Result>> promise;
    };

    void loop() {
        for (;;) {
            bool stopping;
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [&] { return stopping_ || woken_; });
                woken_ = false;
                stopping = stopping_;
            }
            // Only the first batch lingers: what a batch leaves behind was already waiting.
            for (bool drained = false, first = true; !drained; first = false) {
                std::vector<Pending> batch;
                drained = pending_.take(batch, first);
                if (!batch.empty()) write_all(batch);
            }
            if (stopping) return;
        }
    }

    void write_all(std::vector<Pending>& batch) {
        try {
            answer(batch, write(batch));
        } catch (...) {
            if (batch.size() == 1) {
                batch[0].promise->set_exception(std::current_exception());
                return;
            }
            // A deadlock or one bad request fails the whole batch: each request then runs
            // alone, so only what fails by itself reports failure.
            for (auto& one : batch) {
                std::vector<Pending> alone{std::move(one)};
                try {
                    answer(alone, write(alone));
                } catch (...) {
                    alone[0].promise->set_exception(std::current_exception());
                }
            }
        }
    }

    std::vector<Result> write(const std::vector<Pending>& batch) {
        std::vector<Request> requests;
        requests.reserve(batch.size());
        for (const auto& p : batch) requests.push_back(p.request);
        auto results = mysql_.transaction([&](db::Session& s) { return write_(s, requests); });
        if (results.size() != batch.size())
            throw std::logic_error("a batch write answered a different number of requests");
        return results;
    }

    static void answer(std::vector<Pending>& batch, std::vector<Result> results) {
        for (size_t i = 0; i < batch.size(); ++i)
            batch[i].promise->set_value(std::move(results[i]));
    }

    db::MysqlPool& mysql_;
    Write write_;
    BatchQueue<Pending> pending_;
    std::mutex mutex_;  // guards woken_ and stopping_
    std::condition_variable wake_;
    bool woken_ = false;  // a request arrived in an empty queue
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace squawk::workers
