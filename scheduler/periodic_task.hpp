// One piece of background work run every `interval` on its own thread, optionally only while a
// gate (leadership) is open. Failures are logged and back off; they never end the loop.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace squawk::scheduler {

class PeriodicTask {
  public:
    struct Options {
        std::string name;
        std::chrono::milliseconds interval{1000};
        std::chrono::milliseconds max_backoff{5000};  // longest wait after repeated failures
    };
    using Body = std::function<void()>;
    using Gate = std::function<bool()>;

    PeriodicTask(Options options, Body body, Gate gate = {});
    ~PeriodicTask();
    PeriodicTask(const PeriodicTask&) = delete;
    PeriodicTask& operator=(const PeriodicTask&) = delete;

    // The first run happens at once.
    void start();
    void stop();
    long long runs() const { return runs_.load(); }          // successful runs
    long long failures() const { return failures_.load(); }  // runs that threw
    const std::string& name() const { return options_.name; }

  private:
    void loop();

    Options options_;
    Body body_;
    Gate gate_;
    std::atomic<long long> runs_{0};
    std::atomic<long long> failures_{0};
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace squawk::scheduler
