// Records read from MySQL and kept in the API process for as long as the identity epoch they were
// read under is current (auth::IdentityEpoch), and at most `lifetime` (which bounds the damage if
// Redis loses a fresh epoch). Bounded: past kMaxEntries it starts over.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

namespace squawk::api {

template <class Value>
class EpochCache {
  public:
    struct Hit {
        Value value;
        long long epoch = 0;
    };

    explicit EpochCache(std::chrono::seconds lifetime) : lifetime_(lifetime) {}

    bool enabled() const { return lifetime_.count() > 0; }

    // The unexpired entry under any epoch: the caller must still confirm the epoch.
    std::optional<Hit> peek(const std::string& id) {
        const auto now = std::chrono::steady_clock::now();
        std::lock_guard lock(mutex_);
        const auto it = entries_.find(id);
        if (it == entries_.end() || it->second.expires <= now) return std::nullopt;
        return Hit{it->second.value, it->second.epoch};
    }

    // The entry read under `epoch` (the epoch current now), if it has not expired.
    std::optional<Value> get(const std::string& id, long long epoch) {
        auto hit = peek(id);
        if (!hit || hit->epoch != epoch) return std::nullopt;
        return std::move(hit->value);
    }

    // `epoch` must have been read before the MySQL read of `value`: a change committed after it
    // moves the epoch and so invalidates what is stored here.
    void put(const std::string& id, Value value, long long epoch) {
        if (!enabled()) return;
        const auto expires = std::chrono::steady_clock::now() + lifetime_;
        std::lock_guard lock(mutex_);
        if (entries_.size() >= kMaxEntries) entries_.clear();
        entries_.insert_or_assign(id, Entry{std::move(value), epoch, expires});
    }

  private:
    // Far above the records one deployment uses at once.
    static constexpr size_t kMaxEntries = 100000;

    struct Entry {
        Value value;
        long long epoch = 0;
        std::chrono::steady_clock::time_point expires;
    };

    std::chrono::seconds lifetime_;
    std::mutex mutex_;
    std::unordered_map<std::string, Entry> entries_;
};

}  // namespace squawk::api
