// Many fibers' small transactions written as one: a thread takes every request that waits and
// runs them in one MySQL transaction, so a burst costs a few statements and one commit rather
// than a round of statements and a commit per fiber.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/db/sql_text.hpp"

#include <boost/fiber/future.hpp>

#include <condition_variable>
#include <deque>
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

    TransactionBatcher(db::MysqlPool& mysql, Write write, size_t max_batch)
        : mysql_(mysql),
          write_(std::move(write)),
          max_batch_(max_batch),
          thread_([this] { loop(); }) {}

    ~TransactionBatcher() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }

    TransactionBatcher(const TransactionBatcher&) = delete;
    TransactionBatcher& operator=(const TransactionBatcher&) = delete;

    // From a fiber: parks it until the transaction holding the request committed, then returns
    // its result (or rethrows what failed it).
    Result submit(Request request) {
        auto promise = std::make_shared<boost::fibers::promise<Result>>();
        auto future = promise->get_future();
        {
            std::lock_guard lock(mutex_);
            pending_.push_back({std::move(request), promise});
        }
        wake_.notify_one();
        return future.get();
    }

  private:
    struct Pending {
        Request request;
        std::shared_ptr<boost::fibers::promise<Result>> promise;
    };

    void loop() {
        for (;;) {
            std::vector<Pending> batch;
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
                if (pending_.empty()) return;
                for (auto n = db::batch_rows(pending_.size(), max_batch_); n > 0; --n) {
                    batch.push_back(std::move(pending_.front()));
                    pending_.pop_front();
                }
            }
            try {
                answer(batch, write(batch));
            } catch (...) {
                if (batch.size() == 1) {
                    batch[0].promise->set_exception(std::current_exception());
                    continue;
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
    size_t max_batch_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Pending> pending_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace squawk::workers
