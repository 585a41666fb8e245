// Requests that arrive while rounds are being served wait for the next round, which serves them
// all in one call: one transaction, and so one set of round trips and one COMMIT, then stands for
// many requests instead of one. Two rounds run at once, so that one is written while the other
// waits on the server. The caller at the head of the line runs a round on its own thread; the
// others sleep until their part is done. A lone request is served at once, as it would be
// without rounds.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

namespace squawk::db {

template <class Request, class Result>
class GroupCommit {
  public:
    // What one request of a round came to: its result, or the exception its caller gets.
    struct Outcome {
        std::optional<Result> result;
        std::exception_ptr error;
    };
    // Serves one round: one outcome per request, in the order given.
    using Serve = std::function<std::vector<Outcome>(const std::vector<const Request*>&)>;

    // A round takes at most `most_per_round` requests; the rest wait for the next one.
    explicit GroupCommit(size_t most_per_round)
        : most_per_round_(std::max<size_t>(1, most_per_round)) {}

    // `request`'s result, served in a round by whichever caller runs it; `serve` is this caller's
    // way of serving a round, used if it is that caller. Throws what the request came to.
    Result run(const Request& request, const Serve& serve) {
        Waiting me(&request);
        std::unique_lock lock(mutex_);
        waiting_.push_back(&me);
        me.wake.wait(lock, [&] { return me.done || may_lead(me); });
        if (!me.done) serve_round(lock, serve);
        if (me.outcome.error) std::rethrow_exception(me.outcome.error);
        return std::move(*me.outcome.result);
    }

  private:
    static constexpr int kRoundsAtOnce = 2;

    // Each caller sleeps on its own condition: the end of a round wakes the callers it served
    // and the one at the head of the line, not every caller of the other round and the line,
    // each of whom would only look and sleep again (a context switch each, docs/profiling.md).
    struct Waiting {
        explicit Waiting(const Request* r) : request(r) {}

        const Request* request;
        Outcome outcome;
        bool done = false;
        bool taken = false;
        std::condition_variable wake;
    };

    bool may_lead(const Waiting& w) const {
        return !w.taken && serving_ < kRoundsAtOnce && waiting_.front() == &w;
    }

    // Called with the lock held; the head may lead a round once one may start.
    void wake_head() {
        if (!waiting_.empty() && may_lead(*waiting_.front())) waiting_.front()->wake.notify_one();
    }

    void serve_round(std::unique_lock<std::mutex>& lock, const Serve& serve) {
        ++serving_;
        const auto count = std::min(most_per_round_, waiting_.size());
        std::vector<Waiting*> round(waiting_.begin(), waiting_.begin() + static_cast<long>(count));
        waiting_.erase(waiting_.begin(), waiting_.begin() + static_cast<long>(count));
        for (auto* waiting : round) waiting->taken = true;
        // With rounds to spare, the next in line need not wait for this one.
        wake_head();
        lock.unlock();
        std::vector<const Request*> requests;
        for (const auto* waiting : round) requests.push_back(waiting->request);
        std::vector<Outcome> outcomes;
        try {
            outcomes = serve(requests);
            if (outcomes.size() != count)
                throw std::logic_error("a round was served with the wrong number of outcomes");
        } catch (...) {
            outcomes.assign(count, Outcome{std::nullopt, std::current_exception()});
        }
        lock.lock();
        --serving_;
        // Notified under the lock: a caller woken any earlier could see its result, return and
        // take its condition with it. Its own caller (round[0]) is awake already.
        for (size_t i = 0; i < count; ++i) {
            round[i]->outcome = std::move(outcomes[i]);
            round[i]->done = true;
            if (i > 0) round[i]->wake.notify_one();
        }
        wake_head();
    }

    const size_t most_per_round_;
    std::mutex mutex_;
    std::deque<Waiting*> waiting_;
    int serving_ = 0;
};

}  // namespace squawk::db
