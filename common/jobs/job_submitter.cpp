#include "common/jobs/job_submitter.hpp"

#include "common/jobs/job_repository.hpp"
#include "common/log/logger.hpp"
#include "common/queue/job_queue.hpp"

namespace squawk::jobs {

Job JobSubmitter::submit(long long workspace_id, const JobType& type, nlohmann::json payload,
                         bool is_test, std::optional<long long> charge_ledger_id) {
    return write(workspace_id, type, std::move(payload), is_test, charge_ledger_id, nullptr);
}

Job JobSubmitter::submit_with(long long workspace_id, const JobType& type, nlohmann::json payload,
                              bool is_test,
                              const std::function<void(db::Session&, const Job&)>& alongside) {
    return write(workspace_id, type, std::move(payload), is_test, std::nullopt, alongside);
}

Job JobSubmitter::write(long long workspace_id, const JobType& type, nlohmann::json payload,
                        bool is_test, std::optional<long long> charge_ledger_id,
                        const std::function<void(db::Session&, const Job&)>& alongside) {
    NewJob n;
    n.workspace_id = workspace_id;
    n.type = std::string(type.name);
    n.pool = std::string(type.pool);
    n.payload = std::move(payload);
    n.max_attempts = settings_.max_attempts;
    n.is_test = is_test;
    n.charge_ledger_id = charge_ledger_id;
    Job job = mysql_.transaction([&](db::Session& s) {
        Job written = JobRepository::insert(s, n);
        if (alongside) alongside(s, written);
        return written;
    });
    try {
        redis_.run([&](redis::RedisClient& r) { queue::JobQueue(r).enqueue(job.pool, {job.id}); });
    } catch (const redis::RedisUnavailable& e) {
        log::warn("job accepted while redis is unavailable; the reconciler will enqueue it",
                  {{"job_id", job.public_id}, {"error", e.what()}});
    }
    return job;
}

}  // namespace squawk::jobs
