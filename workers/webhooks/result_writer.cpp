#include "workers/webhooks/result_writer.hpp"

#include "common/core/log/logger.hpp"
#include "common/domain/webhooks/delivery_repository.hpp"
#include "workers/runtime/writer_task.hpp"

#include <algorithm>
#include <stdexcept>

namespace squawk::workers::webhooks {

using squawk::webhooks::DeliveryRepository;
using squawk::webhooks::DeliveryResult;

namespace {
constexpr auto kLinger = std::chrono::milliseconds(10);
}  // namespace

ResultWriter::ResultWriter(int batch, db::MysqlPool& mysql, int failing_threshold)
    : mysql_(mysql),
      failing_threshold_(failing_threshold),
      queue_(static_cast<size_t>(std::max(1, batch)), kLinger),
      task_(writer_task_options("delivery-result-writer"), [this] { write_pending(); }) {}

ResultWriter::~ResultWriter() {
    stop(std::chrono::milliseconds(0));
}

void ResultWriter::start() {
    task_.start();
}

void ResultWriter::push(DeliveryResult result) {
    if (queue_.push(std::move(result))) task_.wake();
}

void ResultWriter::stop(std::chrono::milliseconds flush_budget) {
    queue_.stop();
    if (!task_.stop(flush_budget))
        log::error(
            "giving up on unwritten delivery results at shutdown; their leases run out "
            "and they are sent again",
            {{"results", unwritten_.size()}});
}

void ResultWriter::write_pending() {
    for (;;) {
        const bool drained = queue_.take(unwritten_, unwritten_.empty());
        if (unwritten_.empty()) return;
        try {
            mysql_.transaction([&](db::Session& s) {
                DeliveryRepository::record(s, unwritten_, failing_threshold_);
            });
        } catch (const std::exception& e) {
            throw std::runtime_error("could not record " + std::to_string(unwritten_.size()) +
                                     " delivery results; keeping them to retry: " + e.what());
        }
        unwritten_.clear();
        if (drained) return;
    }
}

}  // namespace squawk::workers::webhooks
