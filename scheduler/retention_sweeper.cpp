#include "scheduler/retention_sweeper.hpp"

#include "common/core/config/config.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/idempotency/idempotency_store.hpp"
#include "common/domain/media/media_service.hpp"
#include "common/domain/request_log/request_log_repository.hpp"
#include "common/domain/social/post_repository.hpp"

namespace squawk::scheduler {
namespace {
constexpr int kBatch = 5000;
// Batches per run: a large backlog is worked off over several runs, never in one long burst.
constexpr int kMaxBatches = 20;
}  // namespace

RetentionSweeper::RetentionSweeper(db::MysqlPool& mysql, const config::Config& config,
                                   storage::ObjectStore& store)
    : mysql_(mysql),
      config_(config),
      retention_(std::chrono::hours(24) * config.request_log.retention_days),
      store_(store) {}

long long RetentionSweeper::run_once() {
    const auto cutoff =
        time::now() - std::chrono::duration_cast<std::chrono::microseconds>(retention_);
    long long deleted = 0;
    for (int i = 0; i < kMaxBatches; ++i) {
        const long long n = mysql_.run([&](db::Session& s) {
            return request_log::RequestLogRepository::delete_older_than(s, cutoff, kBatch);
        });
        deleted += n;
        if (n < kBatch) break;
    }
    for (int i = 0; i < kMaxBatches; ++i) {
        const long long n = mysql_.run([&](db::Session& s) {
            return idempotency::IdempotencyStore::delete_expired(s, kBatch);
        });
        deleted += n;
        if (n < kBatch) break;
    }
    // Content locks only matter inside the duplicate guard's window.
    const auto guard_cutoff = time::now() - social::kDuplicateWindow;
    for (int i = 0; i < kMaxBatches; ++i) {
        const long long n = mysql_.run([&](db::Session& s) {
            return social::PostRepository::sweep_content_locks(s, guard_cutoff, kBatch);
        });
        deleted += n;
        if (n < kBatch) break;
    }
    // Upload URLs that expired unconfirmed: their pending rows and any bytes they received.
    media::MediaService uploads(mysql_, config_, store_);
    for (int i = 0; i < kMaxBatches; ++i) {
        const long long n = uploads.sweep_expired_uploads(kBatch);
        deleted += n;
        if (n < kBatch) break;
    }
    if (deleted > 0) log::info("retention sweep deleted old rows", {{"rows", deleted}});
    return deleted;
}

}  // namespace squawk::scheduler
