#include "common/domain/jobs/job_submitter.hpp"

#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/queue/job_queue.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "common/domain/workspace/workspace_repository.hpp"

namespace squawk::jobs {
namespace {

// Long enough for a restarting server to answer again; the request waits only in that rare case.
constexpr std::chrono::seconds kSettlePatience{10};

ApiError insufficient_balance(db::Session& s, const billing::Reservation& payment) {
    const auto wallet = billing::Wallet::state(s, payment.workspace_id);
    return ApiError(ErrorCode::InsufficientBalance, {},
                    {{"cost", workspace::format_credits(payment.total_units())},
                     {"balance", workspace::format_credits(wallet.total_units())}});
}

}  // namespace

Job JobSubmitter::submit(long long workspace_id, const JobType& type, nlohmann::json payload,
                         bool is_test, const billing::Reservation* payment) {
    return write(workspace_id, type, std::move(payload), is_test, payment, nullptr);
}

Job JobSubmitter::submit_with(long long workspace_id, const JobType& type, nlohmann::json payload,
                              bool is_test,
                              const std::function<void(db::Session&, const Job&)>& alongside,
                              const billing::Reservation* payment) {
    return write(workspace_id, type, std::move(payload), is_test, payment, alongside);
}

Job JobSubmitter::write(long long workspace_id, const JobType& type, nlohmann::json payload,
                        bool is_test, const billing::Reservation* payment,
                        const std::function<void(db::Session&, const Job&)>& alongside) {
    NewJob n;
    n.workspace_id = workspace_id;
    n.type = std::string(type.name);
    n.pool = std::string(type.pool);
    n.payload = std::move(payload);
    n.max_attempts = settings_.max_attempts;
    n.is_test = is_test;
    Job job;
    try {
        // `job` is kept outside: after a lost COMMIT its public id is what the server is asked.
        mysql_.transaction([&](db::Session& s) {
            if (payment) {
                const auto reserved = billing::Wallet::reserve(s, *payment);
                if (!reserved) throw insufficient_balance(s, *payment);
                n.charge_ledger_id = reserved->ledger_id;
                n.reserved_units = reserved->units;
            }
            job = JobRepository::insert(s, n);
            if (alongside) alongside(s, job);
        });
    } catch (const db::CommitOutcomeUnknown& e) {
        // Answering 503 for a job that was committed would have the client submit it twice.
        const bool committed = mysql_.settle_commit(
            [&](db::Session& s) {
                return JobRepository::find(s, workspace_id, job.public_id).has_value();
            },
            kSettlePatience);
        log::warn("the connection broke while a job was committed; asked the server which it was",
                  {{"job_id", job.public_id}, {"committed", committed}, {"error", e.what()}});
        if (!committed) throw;
    }
    try {
        redis_.run([&](redis::RedisClient& r) { queue::JobQueue(r).enqueue(job.pool, {job.id}); });
    } catch (const redis::RedisUnavailable& e) {
        log::warn("job accepted while redis is unavailable; the reconciler will enqueue it",
                  {{"job_id", job.public_id}, {"error", e.what()}});
    }
    return job;
}

}  // namespace squawk::jobs
