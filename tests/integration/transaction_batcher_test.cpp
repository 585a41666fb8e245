// A batcher's linger: requests that arrive one by one share a transaction when their callers may
// wait, a full batch does not wait out the linger, and a lone request is still answered.
#include "workers/runtime/transaction_batcher.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

using namespace squawk;
using namespace std::chrono_literals;

namespace {

// Doubles each request inside a real transaction and remembers the size of every batch.
class DoublingBatches {
  public:
    workers::TransactionBatcher<long long, long long>::Write write() {
        return [this](db::Session& s, const std::vector<long long>& batch) {
            {
                std::lock_guard lock(mutex_);
                sizes_.push_back(batch.size());
            }
            std::vector<long long> doubled;
            for (const auto r : batch)
                doubled.push_back(s.query_one("SELECT ? * 2", {r})->integer(0));
            return doubled;
        };
    }
    std::vector<size_t> sizes() {
        std::lock_guard lock(mutex_);
        return sizes_;
    }

  private:
    std::mutex mutex_;
    std::vector<size_t> sizes_;
};

}  // namespace

TEST_CASE(
    "requests arriving one by one within the linger share one transaction, cut at the batch size",
    "[integration][db]") {
    squawk::testing::TestDatabase db;
    DoublingBatches batches;
    const auto started = std::chrono::steady_clock::now();
    std::vector<std::future<long long>> answers;
    {
        // A linger far longer than the test: only a full batch lets the write start.
        workers::TransactionBatcher<long long, long long> batcher(db.pool(), batches.write(), 4,
                                                                  std::chrono::minutes(10));
        for (long long r = 1; r <= 4; ++r) {
            answers.push_back(
                std::async(std::launch::async, [&batcher, r] { return batcher.submit(r); }));
            std::this_thread::sleep_for(20ms);
        }
        for (long long r = 1; r <= 4; ++r) CHECK(answers[r - 1].get() == 2 * r);
    }
    CHECK(batches.sizes() == std::vector<size_t>{4});
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::minutes(5));
}

TEST_CASE("a lone request is written once the linger ends", "[integration][db]") {
    squawk::testing::TestDatabase db;
    DoublingBatches batches;
    workers::TransactionBatcher<long long, long long> batcher(db.pool(), batches.write(), 1000,
                                                              50ms);
    CHECK(batcher.submit(21) == 42);
    CHECK(batches.sizes() == std::vector<size_t>{1});
}
