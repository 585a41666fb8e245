// The `webhooks` pool: a fetch thread claims due deliveries from MySQL in batches under a lease,
// fibers send them through their thread's own libcurl multi loop (a slow receiver parks a fiber,
// never a thread), and a writer thread records attempts and next states in batches.
#pragma once

#include "common/core/daemon/worker_settings.hpp"
#include "common/core/http/http_client.hpp"
#include "common/core/metrics/registry.hpp"
#include "common/domain/webhooks/delivery.hpp"
#include "common/domain/webhooks/secret_cache.hpp"
#include "workers/runtime/pool_runner.hpp"
#include "workers/runtime/worker_pool.hpp"
#include "workers/webhooks/result_writer.hpp"

#include <boost/fiber/buffered_channel.hpp>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

namespace squawk::workers::webhooks {

inline constexpr std::string_view kDeliveryPool = config::kWebhookPool;

class DeliveryPool final : public WorkerPool {
  public:
    DeliveryPool(PoolSpec spec, WorkerServices& services);
    ~DeliveryPool() override;

    void start() override;
    bool reading() const override { return reading_.load(); }
    std::chrono::steady_clock::time_point last_alive() const override;
    void stop_fetching() override;
    int in_flight() const override { return in_flight_.load(); }
    void release_in_flight() override;
    void finish(std::chrono::milliseconds flush_budget) override;

  private:
    // What the fibers of one thread share: fibers never leave their thread, so neither needs a
    // lock.
    struct SenderThread {
        SenderThread(int connections, std::string key_bytes)
            : http_loop(connections, http::Client::Loop::owner_thread),
              secrets(std::move(key_bytes)) {}
        http::Client http_loop;  // run by the thread while its fibers wait
        squawk::webhooks::SecretCache secrets;
    };

    void fetch_loop();
    void extend_leases_if_due();
    void fiber_thread(SenderThread& sender);
    void fiber_loop(SenderThread& sender);
    squawk::webhooks::DeliveryResult deliver(const squawk::webhooks::ClaimedDelivery& d,
                                             SenderThread& sender);
    bool settle(const squawk::webhooks::ClaimedDelivery& d);
    void pause(std::chrono::milliseconds how_long);

    PoolSpec spec_;
    WorkerServices& services_;
    const int capacity_;  // fibers
    const int claim_batch_;
    const int max_claimed_;  // fibers plus up to two claim batches waiting for them
    std::string key_bytes_;
    std::vector<std::unique_ptr<SenderThread>> senders_;
    boost::fibers::buffered_channel<squawk::webhooks::ClaimedDelivery> channel_;
    ResultWriter results_;

    std::atomic<int> in_flight_{0};
    std::atomic<bool> stop_fetch_{false};
    std::atomic<bool> reading_{false};
    std::atomic<long long> last_alive_ns_;
    std::chrono::steady_clock::time_point next_lease_extension_;
    std::mutex wake_mutex_;
    std::condition_variable wake_;

    std::mutex claims_mutex_;
    std::map<long long, std::pair<std::string, bool>> claims_;  // id -> (token, released)

    metrics::CollectorHandle in_flight_gauge_;
    metrics::CollectorHandle backlog_gauges_;
    std::thread fetch_thread_;
    std::vector<std::thread> fiber_threads_;
    bool finished_ = false;
};

}  // namespace squawk::workers::webhooks
