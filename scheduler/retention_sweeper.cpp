#include "scheduler/retention_sweeper.hpp"

#include "common/core/config/config.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/idempotency/idempotency_store.hpp"
#include "common/domain/media/media_service.hpp"
#include "common/domain/request_log/request_log_repository.hpp"
#include "common/domain/social/oauth_state_repository.hpp"
#include "common/domain/social/post_repository.hpp"

namespace squawk::scheduler {
namespace {
constexpr int kSweepBatch = 5000;
// Batches per run: a large backlog is worked off over several runs, never in one long burst.
constexpr int kMaxBatches = 20;

// Runs `batch` (which deletes at most kSweepBatch rows) until it deletes fewer or kMaxBatches ran.
template <class Batch>
long long in_batches(Batch&& batch) {
    long long deleted = 0;
    for (int i = 0; i < kMaxBatches; ++i) {
        const long long n = batch();
        deleted += n;
        if (n < kSweepBatch) break;
    }
    return deleted;
}

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
    // Content locks only matter inside the duplicate guard's window.
    const auto guard_cutoff = time::now() - social::kDuplicateWindow;
    media::MediaService uploads(mysql_, config_, store_);
    long long deleted = 0;
    deleted += in_batches([&] {
        return mysql_.run([&](db::Session& s) {
            return request_log::RequestLogRepository::delete_older_than(s, cutoff, kSweepBatch);
        });
    });
    deleted += in_batches([&] {
        return mysql_.run([&](db::Session& s) {
            return idempotency::IdempotencyStore::delete_expired(s, kSweepBatch);
        });
    });
    deleted += in_batches([&] {
        return mysql_.run([&](db::Session& s) {
            return social::PostRepository::sweep_content_locks(s, guard_cutoff, kSweepBatch);
        });
    });
    deleted += in_batches([&] {
        return mysql_.run([&](db::Session& s) {
            return social::OAuthStateRepository::delete_expired(s, kSweepBatch);
        });
    });
    // Upload URLs that expired unconfirmed: their pending rows and any bytes they received.
    deleted += in_batches([&] { return uploads.sweep_expired_uploads(kSweepBatch); });
    if (deleted > 0) log::info("retention sweep deleted old rows", {{"rows", deleted}});
    return deleted;
}

}  // namespace squawk::scheduler
