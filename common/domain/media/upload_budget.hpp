// The process-wide memory budget of upload bodies: each upload reserves the buffer it holds on its
// way to disk before it reads any of its body and gives it back when done, so concurrent uploads
// cannot together exhaust the API's memory.
#pragma once

#include <atomic>
#include <optional>
#include <utility>

namespace squawk::media {

// What one upload holds in memory at most: the buffer its bytes pass through to disk.
inline constexpr long long kUploadBufferBytes = 1024 * 1024;

class UploadBudget {
  public:
    explicit UploadBudget(long long capacity_bytes) : capacity_(capacity_bytes) {}
    UploadBudget(const UploadBudget&) = delete;
    UploadBudget& operator=(const UploadBudget&) = delete;

    // Holds its bytes until destroyed.
    class Reservation {
      public:
        Reservation(UploadBudget& budget, long long bytes) : budget_(&budget), bytes_(bytes) {}
        Reservation(Reservation&& other) noexcept
            : budget_(std::exchange(other.budget_, nullptr)), bytes_(other.bytes_) {}
        Reservation& operator=(Reservation&&) = delete;
        ~Reservation() {
            if (budget_) budget_->used_.fetch_sub(bytes_, std::memory_order_relaxed);
        }

      private:
        UploadBudget* budget_;
        long long bytes_;
    };

    // Nothing when `bytes` more would pass the capacity.
    std::optional<Reservation> reserve(long long bytes) {
        long long used = used_.load(std::memory_order_relaxed);
        do {
            if (bytes > capacity_ - used) return std::nullopt;
        } while (!used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
        return Reservation(*this, bytes);
    }

    long long used() const { return used_.load(std::memory_order_relaxed); }

  private:
    const long long capacity_;
    std::atomic<long long> used_{0};
};

// The one budget of this process, sized by its first caller (every caller passes the same
// setting, media.upload_memory_budget_bytes).
UploadBudget& process_upload_budget(long long capacity_bytes);

}  // namespace squawk::media
