// One run of a piece of work per key among concurrent callers (single flight). Waiting is a
// Boost.Fiber future: a worker's fiber parks while its thread serves the others, and a plain
// thread (an API request) simply blocks, so code shared by both (connectors) can use it.
#pragma once

#include <boost/fiber/future.hpp>

#include <functional>
#include <map>
#include <mutex>
#include <string>

namespace squawk::runtime {

// Runs `make` once per key among concurrent callers: those that come while it runs get its
// result (or its exception) instead of running it again. Nothing is kept once it returns, so a
// failure is met only by the callers that waited for it.
template <class T>
class SingleFlight {
  public:
    T run(const std::string& key, const std::function<T()>& make) {
        std::unique_lock lock(mutex_);
        if (const auto running = flights_.find(key); running != flights_.end()) {
            auto result = running->second;
            lock.unlock();
            return result.get();
        }
        boost::fibers::promise<T> promise;
        flights_.emplace(key, promise.get_future().share());
        lock.unlock();
        try {
            T value = make();
            promise.set_value(value);
            forget(key);
            return value;
        } catch (...) {
            promise.set_exception(std::current_exception());
            forget(key);
            throw;
        }
    }

  private:
    void forget(const std::string& key) {
        std::lock_guard lock(mutex_);
        flights_.erase(key);
    }

    // Held only to look up or change the map, never across a wait.
    std::mutex mutex_;
    std::map<std::string, boost::fibers::shared_future<T>> flights_;
};

}  // namespace squawk::runtime
