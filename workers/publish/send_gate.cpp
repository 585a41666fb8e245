#include "workers/publish/send_gate.hpp"

#include "common/log/logger.hpp"
#include "common/social/publish_repository.hpp"

#include <map>
#include <set>

namespace squawk::workers::publish {
namespace {

// Bounds one transaction; the rest waits for the next round.
constexpr size_t kMaxBatch = 1000;

}  // namespace

SendGate::SendGate(db::MysqlPool& mysql) : mysql_(mysql), thread_([this] { loop(); }) {}

SendGate::~SendGate() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

std::optional<social::CapReached> SendGate::admit(SendRequest request) {
    auto promise = std::make_shared<boost::fibers::promise<std::optional<social::CapReached>>>();
    auto future = promise->get_future();
    {
        std::lock_guard lock(mutex_);
        pending_.push_back({std::move(request), promise});
    }
    wake_.notify_one();
    return future.get();
}

void SendGate::loop() {
    for (;;) {
        std::deque<Pending> batch;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
            if (pending_.empty()) return;
            while (!pending_.empty() && batch.size() < kMaxBatch) {
                batch.push_back(std::move(pending_.front()));
                pending_.pop_front();
            }
        }
        try {
            write(batch);
        } catch (...) {
            // The fibers see the failure and their jobs retry; no mark was committed.
            for (auto& p : batch) p.promise->set_exception(std::current_exception());
        }
    }
}

void SendGate::write(std::deque<Pending>& batch) {
    std::vector<std::optional<social::CapReached>> decisions(batch.size());
    mysql_.transaction([&](db::Session& s) {
        std::set<long long> account_ids;
        for (const auto& p : batch) account_ids.insert(p.request.account_id);
        const auto now = time::now();
        auto sends = social::PublishRepository::lock_recent_sends(
            s, std::vector<long long>(account_ids.begin(), account_ids.end()), now);
        std::vector<long long> marks;
        for (size_t i = 0; i < batch.size(); ++i) {
            const auto& r = batch[i].request;
            auto& account = sends[r.account_id];
            social::RecentSends view;
            view.any_platform_hour = account.any_platform_hour;
            view.same_platform_day = account.by_platform[r.platform];
            decisions[i] = social::check_caps(r.platform, view, now);
            if (decisions[i] || r.sandbox) continue;
            // Admitted sends of this batch count against the requests after them.
            account.any_platform_hour.push_back(now);
            account.by_platform[r.platform].push_back(now);
            marks.push_back(r.target_id);
        }
        social::PublishRepository::mark_sending(s, marks, now);
    });
    for (size_t i = 0; i < batch.size(); ++i) batch[i].promise->set_value(decisions[i]);
}

}  // namespace squawk::workers::publish
