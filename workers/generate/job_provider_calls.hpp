// What a generation job hands its provider: the worker's HTTP client, its blocking executor, and
// a stop flag that turns true within about half a second of the job being cancelled or the worker
// stopping, so a long render (a transcription, an upload) ends early instead of running out.
#pragma once

#include "common/domain/generation/provider_calls.hpp"
#include "workers/tasks/task_context.hpp"

#include <boost/fiber/condition_variable.hpp>
#include <boost/fiber/fiber.hpp>
#include <boost/fiber/mutex.hpp>

#include <atomic>

namespace squawk::workers::generate {

class JobProviderCalls final : public generation::ProviderCalls {
  public:
    explicit JobProviderCalls(TaskContext& context);
    // Ends the watcher before the context goes.
    ~JobProviderCalls() override;
    JobProviderCalls(const JobProviderCalls&) = delete;
    JobProviderCalls& operator=(const JobProviderCalls&) = delete;

    http::Client* http() override { return context_.http(); }
    void blocking(const std::function<void()>& work) override { context_.executor().run(work); }
    const std::atomic<bool>& stop() const override { return stop_; }

  private:
    void watch();

    TaskContext& context_;
    std::atomic<bool> stop_{false};
    boost::fibers::mutex mutex_;
    boost::fibers::condition_variable finished_cv_;
    bool finished_ = false;
    boost::fibers::fiber watcher_;
};

}  // namespace squawk::workers::generate
