// One piece of background work run every `interval` on its own thread, optionally only while a
// gate (leadership) is open, woken early when work arrives, and flushed once more on stop.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace squawk::runtime {

class PeriodicTask {
  public:
    struct Options {
        std::string name;
        std::chrono::milliseconds interval{1000};
        // Longest wait after repeated failures; shorter than `interval` retries sooner than the
        // next regular run.
        std::chrono::milliseconds max_backoff{5000};
        // Wait after the first failure of a run of failures, doubling with each further one;
        // zero: twice the interval.
        std::chrono::milliseconds first_retry{0};
        // Run the body once more after stop() ends the loop (writers flushing what they hold).
        bool flush_on_stop = false;
    };
    // Failure is an exception: it is logged and backs off, and never ends the loop.
    using Body = std::function<void()>;
    using Gate = std::function<bool()>;

    PeriodicTask(Options options, Body body, Gate gate = {});
    ~PeriodicTask();
    PeriodicTask(const PeriodicTask&) = delete;
    PeriodicTask& operator=(const PeriodicTask&) = delete;

    // The first run happens at once.
    void start();
    // Runs the body now instead of at the end of the interval; while failures back off, the
    // wake is kept for the run after the backoff. Safe from any thread; the lock is brief.
    void wake();
    // Ends the loop. With flush_on_stop the body then runs again, retried with the failure
    // backoff until it succeeds or `flush_budget` has passed; returns whether that flush
    // succeeded (true without flush_on_stop). A second stop does nothing and returns true.
    bool stop(std::chrono::milliseconds flush_budget = std::chrono::milliseconds(0));

    long long runs() const { return runs_.load(); }          // successful runs
    long long failures() const { return failures_.load(); }  // runs that threw
    const std::string& name() const { return options_.name; }

  private:
    void loop();
    // Runs the body once; false when it threw.
    bool run_once();
    bool flush(std::chrono::steady_clock::time_point deadline);
    std::chrono::milliseconds backoff() const;

    Options options_;
    Body body_;
    Gate gate_;
    std::atomic<long long> runs_{0};
    std::atomic<long long> failures_{0};
    int consecutive_failures_ = 0;  // the task thread's own
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    bool woken_ = false;
    std::chrono::steady_clock::time_point flush_deadline_;
    bool flushed_ = true;
    std::thread thread_;
};

}  // namespace squawk::runtime
