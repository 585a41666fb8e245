#include "workers/webhooks/delivery_pool.hpp"

#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/core/crypto/secret_key.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/net/target_url.hpp"
#include "common/domain/webhooks/delivery_attempt.hpp"
#include "common/domain/webhooks/delivery_metrics.hpp"
#include "common/domain/webhooks/delivery_repository.hpp"
#include "workers/runtime/backoff.hpp"
#include "workers/runtime/fiber_http.hpp"
#include "workers/runtime/http_loop_scheduler.hpp"

#include <arpa/inet.h>

#include <boost/fiber/operations.hpp>
#include <boost/fiber/protected_fixedsize_stack.hpp>

#include <set>

namespace squawk::workers::webhooks {
namespace {

using squawk::webhooks::ClaimedDelivery;
using squawk::webhooks::DeliveryRepository;
using squawk::webhooks::DeliveryResult;

constexpr size_t kFiberStackBytes = 128 * 1024;
// Claims and outcomes go to MySQL in batches this big: the fetch thread claims one batch per
// round trip, so the batch size bounds the pool's rate (STACK.md: batches, not rows).
constexpr int kClaimBatch = 500;
constexpr int kResultBatch = 500;
// How long an idle pool waits before looking for due deliveries again.
constexpr auto kIdlePoll = std::chrono::milliseconds(25);

size_t channel_capacity(int items) {
    size_t capacity = 2;
    while (capacity < static_cast<size_t>(items) + 1) capacity <<= 1;
    return capacity;
}

long long steady_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// A host given as an IP literal needs no resolver, so its check can run on the fiber itself.
bool is_ip_literal(const std::string& host) {
    unsigned char buffer[16];
    return inet_pton(AF_INET, host.c_str(), buffer) == 1 ||
           inet_pton(AF_INET6, host.c_str(), buffer) == 1;
}

}  // namespace

DeliveryPool::DeliveryPool(PoolSpec spec, WorkerServices& services)
    : spec_(std::move(spec)),
      services_(services),
      capacity_(spec_.threads * spec_.fibers),
      claim_batch_(std::max(spec_.batch, kClaimBatch)),
      max_claimed_(capacity_ + 2 * claim_batch_),
      channel_(channel_capacity(max_claimed_)),
      // Outcomes are written in bigger batches than claims: one statement per 500 attempts.
      results_(std::max(spec_.batch, kResultBatch), services.mysql,
               services.config.webhooks.failing_threshold),
      last_alive_ns_(steady_ns()) {
    try {
        key_bytes_ = squawk::crypto::secret_key_bytes(services.config.security);
    } catch (const std::exception& e) {
        // Deliveries are still claimed and fail visibly (attempt error) instead of piling up.
        log::error("security.secret_key is not usable; deliveries will fail",
                   {{"error", e.what()}});
    }
}

DeliveryPool::~DeliveryPool() {
    stop_fetching();
    finish(std::chrono::milliseconds(0));
}

void DeliveryPool::start() {
    in_flight_gauge_ = metrics::Registry::global().add_collector([this](metrics::SampleWriter& w) {
        w.gauge("squawk_tasks_in_flight", "Tasks claimed by this process and not yet recorded.",
                {{"pool", spec_.name}}, in_flight_.load());
    });
    backlog_gauges_ = squawk::webhooks::export_delivery_backlog(services_.mysql);
    results_.start();
    const int connections =
        config::http_connections_of(services_.config.workers.pools.at(spec_.name));
    for (int i = 0; i < spec_.threads; ++i) {
        senders_.push_back(std::make_unique<SenderThread>(
            (connections + spec_.threads - 1) / spec_.threads, key_bytes_));
        fiber_threads_.emplace_back([this, &sender = *senders_.back()] { fiber_thread(sender); });
    }
    fetch_thread_ = std::thread([this] { fetch_loop(); });
}

std::chrono::steady_clock::time_point DeliveryPool::last_alive() const {
    return std::chrono::steady_clock::time_point(std::chrono::nanoseconds(last_alive_ns_.load()));
}

void DeliveryPool::pause(std::chrono::milliseconds how_long) {
    std::unique_lock lock(wake_mutex_);
    wake_.wait_for(lock, how_long, [&] { return stop_fetch_.load(); });
}

void DeliveryPool::stop_fetching() {
    stop_fetch_ = true;
    wake_.notify_all();
    if (fetch_thread_.joinable()) fetch_thread_.join();
}

void DeliveryPool::extend_leases_if_due() {
    const auto now = std::chrono::steady_clock::now();
    if (now < next_lease_extension_) return;
    const auto lease = std::chrono::seconds(services_.config.webhooks.lease_seconds);
    next_lease_extension_ = now + lease / 3;
    std::set<std::string> held;
    {
        std::lock_guard lock(claims_mutex_);
        for (const auto& [id, claim] : claims_)
            if (!claim.second) held.insert(claim.first);
    }
    services_.mysql.run([&](db::Session& s) {
        DeliveryRepository::extend_leases(s, {held.begin(), held.end()}, time::now() + lease);
    });
}

void DeliveryPool::fetch_loop() {
    const auto lease = std::chrono::seconds(services_.config.webhooks.lease_seconds);
    int failures = 0;
    reading_ = true;
    log::info("pool reading", {{"pool", spec_.name},
                               {"threads", spec_.threads},
                               {"fibers", spec_.fibers},
                               {"batch", spec_.batch}});
    while (!stop_fetch_) {
        last_alive_ns_ = steady_ns();
        try {
            extend_leases_if_due();
            // A few batches wait claimed beside the busy fibers, so claims go out as whole
            // batches instead of one statement per freed fiber.
            const int want = claim_batch_;
            if (max_claimed_ - in_flight_.load() < want) {
                std::unique_lock lock(wake_mutex_);
                wake_.wait_for(lock, std::chrono::milliseconds(100), [&] {
                    return stop_fetch_.load() || max_claimed_ - in_flight_.load() >= want;
                });
                continue;
            }
            const std::string token = crypto::hex(crypto::random_bytes(16));
            auto claimed = services_.mysql.run([&](db::Session& s) {
                return DeliveryRepository::claim(s, want, token, time::now() + lease);
            });
            if (failures > 0) log::info("delivery claims work again", {{"pool", spec_.name}});
            failures = 0;
            {
                std::lock_guard lock(claims_mutex_);
                for (const auto& d : claimed) claims_[d.id] = {d.claim_token, false};
            }
            in_flight_ += static_cast<int>(claimed.size());
            for (auto& d : claimed) channel_.push(std::move(d));
            if (static_cast<int>(claimed.size()) < want) pause(kIdlePoll);
        } catch (const std::exception& e) {
            // A batch whose claim committed but whose answer was lost comes back after the lease.
            if (failures == 0 || failures % 20 == 0)
                log::warn("cannot claim deliveries; retrying",
                          {{"pool", spec_.name}, {"error", e.what()}});
            pause(outage_pause(failures++));
        }
    }
}

void DeliveryPool::fiber_thread(SenderThread& sender) {
    boost::fibers::use_scheduling_algorithm<HttpLoopScheduler>(sender.http_loop);
    std::vector<boost::fibers::fiber> fibers;
    fibers.reserve(spec_.fibers);
    for (int i = 0; i < spec_.fibers; ++i)
        fibers.emplace_back(std::allocator_arg,
                            boost::fibers::protected_fixedsize_stack(kFiberStackBytes),
                            [this, &sender] { fiber_loop(sender); });
    // Fibers never leave the thread that made them, so the thread may end once its own did.
    for (auto& f : fibers) f.join();
}

DeliveryResult DeliveryPool::deliver(const ClaimedDelivery& d, SenderThread& sender) {
    if (d.endpoint_status != squawk::webhooks::EndpointStatus::active)
        return squawk::webhooks::not_sent(d);
    const auto& settings = services_.config.webhooks;
    const bool allow_private = services_.config.security.allow_private_targets;
    const auto started = time::now();
    std::optional<http::Response> response;
    std::string refusal;
    try {
        // Checked again at every delivery: DNS may point elsewhere since the endpoint was saved.
        const auto check = [&] { return net::check_target(d.url, allow_private); };
        const auto parsed = net::parse_url(d.url);
        const auto target = is_ip_literal(parsed.host) ? check() : services_.executor.run(check);
        const auto secrets = squawk::webhooks::valid_secrets(d, sender.secrets, started);
        response = fiber_send(sender.http_loop,
                              squawk::webhooks::build_request(d, target, secrets, settings));
    } catch (const net::TargetRefused& e) {
        refusal = e.what();
    } catch (const std::exception& e) {
        http::Response failed;
        failed.error = std::string("not sent: ") + e.what();
        response = failed;
    }
    return squawk::webhooks::judge(d, started, response, refusal, settings);
}

bool DeliveryPool::settle(const ClaimedDelivery& d) {
    std::lock_guard lock(claims_mutex_);
    const auto it = claims_.find(d.id);
    if (it == claims_.end() || it->second.first != d.claim_token) return false;
    const bool released = it->second.second;
    claims_.erase(it);
    return !released;
}

void DeliveryPool::fiber_loop(SenderThread& sender) {
    ClaimedDelivery d;
    while (channel_.pop(d) == boost::fibers::channel_op_status::success) {
        auto result = deliver(d, sender);
        squawk::webhooks::record_delivery_metrics(result);
        // A delivery given back at shutdown belongs to someone else now.
        if (settle(d)) results_.push(std::move(result));
        // The fetch thread waits for room for a whole batch; in_flight_ falls one at a time, so
        // it passes that mark exactly once, and waking the thread at every delivery would only
        // put it back to sleep.
        if (in_flight_.fetch_sub(1) - 1 == max_claimed_ - claim_batch_) {
            // Under the lock, so the wakeup cannot fall between its check and its wait.
            { std::lock_guard lock(wake_mutex_); }
            wake_.notify_one();
        }
    }
}

void DeliveryPool::release_in_flight() {
    std::vector<std::pair<long long, std::string>> released;
    {
        std::lock_guard lock(claims_mutex_);
        for (auto& [id, claim] : claims_) {
            if (claim.second) continue;
            claim.second = true;
            released.emplace_back(id, claim.first);
        }
    }
    if (released.empty()) return;
    try {
        services_.mysql.transaction(
            [&](db::Session& s) { DeliveryRepository::release(s, released); });
        log::info("gave back deliveries at shutdown", {{"count", released.size()}});
    } catch (const std::exception& e) {
        log::error("cannot give back deliveries; they are retried after the lease",
                   {{"count", released.size()}, {"error", e.what()}});
    }
}

void DeliveryPool::finish(std::chrono::milliseconds flush_budget) {
    if (finished_) return;
    finished_ = true;
    channel_.close();
    for (auto& t : fiber_threads_)
        if (t.joinable()) t.join();
    results_.stop(flush_budget);
}

}  // namespace squawk::workers::webhooks
