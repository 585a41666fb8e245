#include "workers/webhooks/result_writer.hpp"

#include "common/core/log/logger.hpp"
#include "common/domain/webhooks/delivery_repository.hpp"
#include "workers/runtime/backoff.hpp"

#include <algorithm>

namespace squawk::workers::webhooks {

using squawk::webhooks::DeliveryRepository;
using squawk::webhooks::DeliveryResult;

namespace {
constexpr auto kLinger = std::chrono::milliseconds(10);
}  // namespace

ResultWriter::ResultWriter(int batch, db::MysqlPool& mysql, int failing_threshold)
    : mysql_(mysql),
      failing_threshold_(failing_threshold),
      queue_(static_cast<size_t>(std::max(1, batch)), kLinger) {}

ResultWriter::~ResultWriter() {
    stop(std::chrono::milliseconds(0));
}

void ResultWriter::start() {
    thread_ = std::thread([this] { loop(); });
}

void ResultWriter::push(DeliveryResult result) {
    queue_.push(std::move(result));
}

void ResultWriter::stop(std::chrono::milliseconds flush_budget) {
    queue_.stop(flush_budget);
    if (thread_.joinable()) thread_.join();
}

void ResultWriter::loop() {
    std::vector<DeliveryResult> unwritten;
    int failures = 0;
    for (;;) {
        const auto taken = queue_.take(unwritten, !unwritten.empty(), failures > 0);
        if (taken.stopping && unwritten.empty() && taken.drained) return;
        if (taken.stopping && failures > 0 &&
            std::chrono::steady_clock::now() >= taken.flush_deadline) {
            log::error(
                "giving up on unwritten delivery results at shutdown; their leases run out "
                "and they are sent again",
                {{"results", unwritten.size()}});
            return;
        }
        try {
            mysql_.transaction([&](db::Session& s) {
                DeliveryRepository::record(s, unwritten, failing_threshold_);
            });
            unwritten.clear();
            failures = 0;
        } catch (const std::exception& e) {
            log::warn("could not record delivery results; keeping them to retry",
                      {{"count", unwritten.size()}, {"error", e.what()}});
            std::this_thread::sleep_for(outage_pause(failures++));
        }
    }
}

}  // namespace squawk::workers::webhooks
