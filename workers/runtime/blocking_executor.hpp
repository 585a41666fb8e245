// A small pool of plain threads for blocking calls (MySQL, subprocesses) made from fibers: the
// calling fiber waits on a fiber future, so only that fiber parks while its thread runs others.
#pragma once

#include <boost/fiber/future.hpp>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace squawk::workers {

class BlockingExecutor {
  public:
    explicit BlockingExecutor(int threads);
    // Runs what was already posted, then joins the threads.
    ~BlockingExecutor();
    BlockingExecutor(const BlockingExecutor&) = delete;
    BlockingExecutor& operator=(const BlockingExecutor&) = delete;

    // Runs `f` on a pool thread and returns its result (or rethrows its exception). From a fiber
    // this suspends only the fiber; from a plain thread it blocks that thread.
    template <class F>
    auto run(F&& f) -> std::invoke_result_t<F&> {
        using R = std::invoke_result_t<F&>;
        // The promise travels with the posted work so that it outlives set_value even when the
        // waiting fiber resumes at once on another thread.
        auto promise = std::make_shared<boost::fibers::promise<R>>();
        auto future = promise->get_future();
        post([promise, &f] {
            try {
                if constexpr (std::is_void_v<R>) {
                    f();
                    promise->set_value();
                } else {
                    promise->set_value(f());
                }
            } catch (...) {
                promise->set_exception(std::current_exception());
            }
        });
        return future.get();
    }

    void post(std::function<void()> work);

  private:
    void loop();

    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::function<void()>> queue_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace squawk::workers
