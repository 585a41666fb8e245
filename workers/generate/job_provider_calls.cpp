#include "workers/generate/job_provider_calls.hpp"

#include <chrono>

namespace squawk::workers::generate {
namespace {

// How often the job's row is asked whether it was cancelled while its provider works.
constexpr std::chrono::milliseconds kCancelCheckInterval{500};

}  // namespace

JobProviderCalls::JobProviderCalls(TaskContext& context)
    : context_(context), watcher_([this] { watch(); }) {}

JobProviderCalls::~JobProviderCalls() {
    {
        std::unique_lock lock(mutex_);
        finished_ = true;
    }
    finished_cv_.notify_all();
    watcher_.join();
}

void JobProviderCalls::watch() {
    std::unique_lock lock(mutex_);
    while (!finished_) {
        if (finished_cv_.wait_for(lock, kCancelCheckInterval, [this] { return finished_; })) return;
        lock.unlock();
        // A database that does not answer cannot say: the work goes on and is asked again.
        bool cancelled = false;
        try {
            cancelled = context_.is_cancelled();
        } catch (const std::exception&) {
        }
        lock.lock();
        if (cancelled) {
            stop_ = true;
            return;
        }
    }
}

}  // namespace squawk::workers::generate
