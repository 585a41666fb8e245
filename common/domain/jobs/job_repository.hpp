// SQL for the jobs table: creation, tenant-scoped reads, and the batched state changes of the job
// path (claim, complete, retry, fail, reclaim). Every call runs on a Session the caller leased.
#pragma once

#include "common/core/db/keyset.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/domain/jobs/job.hpp"

#include <string>
#include <vector>

namespace squawk::jobs {

struct NewJob {
    long long workspace_id = 0;
    std::string type;
    std::string pool;
    nlohmann::json payload;
    int max_attempts = 5;
    bool is_test = false;
    // The wallet reservation that pays for it (settled when it completes, refunded if it fails
    // on our side) and its amount.
    std::optional<long long> charge_ledger_id;
    std::optional<long long> reserved_units;
    // Set: the job is `scheduled` until then and goes to the pool's delayed set, not its stream.
    std::optional<time::TimePoint> run_after;
};

struct JobPage {
    std::vector<Job> items;
    long long total = 0;
};

// Which of a workspace's jobs a listing shows; an absent field does not filter.
struct JobListFilter {
    long long workspace_id = 0;
    std::optional<JobStatus> status;
    std::optional<std::string> type;
};

// How a run ended, as the worker reports it.
struct Outcome {
    enum class Kind { completed, retry, failed };
    long long job_id = 0;
    std::string claim_token;
    // The job's, to find who hears its job.* event before anything is read for it.
    long long workspace_id = 0;
    std::string type;
    Kind kind = Kind::completed;
    nlohmann::json result;       // completed
    nlohmann::json error;        // retry / failed: {code, message, details}
    time::TimePoint run_after;   // retry
    bool dead_lettered = false;  // failed after the last attempt
};

// An outcome of `job`'s run: what identifies the run and who may hear of it, `kind` and nothing
// else yet.
Outcome outcome_of(const ClaimedJob& job, Outcome::Kind kind);

struct QueueRef {
    long long id = 0;
    std::string pool;
};

// A place in the walk through queued jobs, whose order is that of the status index: workspace,
// then id.
struct QueuedCursor {
    long long workspace_id = 0;
    long long id = 0;
};

// A place in the walk through waiting (scheduled or retrying) jobs, in the order of their due
// time index: due time, then id. The default starts before every job.
struct WaitingCursor {
    time::TimePoint due;
    long long id = 0;
};

struct QueuedPage {
    std::vector<QueueRef> jobs;
    QueuedCursor last;  // where the next page starts
};

enum class CancelResult { cancelled, already_terminal, not_found };

class JobRepository {
  public:
    static Job insert(db::Session& s, const NewJob& job);
    static std::vector<Job> insert_many(db::Session& s, const std::vector<NewJob>& jobs);
    static std::optional<Job> find(db::Session& s, long long workspace_id,
                                   const std::string& public_id);
    static std::optional<Job> find_by_id(db::Session& s, long long id);
    // Newest first, with the count of every match (the API's offset pagination).
    static JobPage list(db::Session& s, const JobListFilter& filter, long long offset, int limit);
    // Newest first, without a count.
    static db::Slice<Job> list_keyset(db::Session& s, const JobListFilter& filter,
                                      const db::Keyset& keyset);
    static CancelResult cancel(db::Session& s, long long workspace_id,
                               const std::string& public_id);
    // Cancels the rows among `ids` that have not finished (a feature cancelling its own jobs).
    static void cancel_many(db::Session& s, const std::vector<long long>& ids);
    // Moves a job still waiting for its time to `run_after`; false when it is no longer waiting.
    static bool reschedule(db::Session& s, long long id, time::TimePoint run_after);

    // Moves claimable rows among `ids` to running under `claim_token` and returns them; a job
    // whose run_after is less than `lead` away is claimable.
    static std::vector<ClaimedJob> claim(db::Session& s, const std::vector<long long>& ids,
                                         const std::string& claim_token,
                                         const std::string& worker_id, time::TimePoint lease_until,
                                         std::chrono::milliseconds lead = {});
    // Applies outcomes whose claim is still current; stale ones (reclaimed, cancelled) are ignored.
    static void record_outcomes(db::Session& s, const std::vector<Outcome>& outcomes);
    // Extends to `lease_until` the leases of `worker_id`'s running jobs that end before
    // `renew_before`; the others (taken up since the last beats) keep theirs, so a burst of short
    // jobs is not rewritten on every beat.
    static void extend_leases(db::Session& s, const std::string& worker_id,
                              time::TimePoint lease_until, time::TimePoint renew_before);
    // Gives back claimed jobs untouched (graceful shutdown): queued again, attempt not counted.
    static void release(db::Session& s,
                        const std::vector<std::pair<long long, std::string>>& claims);
    static bool is_cancelled(db::Session& s, long long id);
    // `stage` names what the job is doing ("composing"); empty clears it.
    static void set_progress(db::Session& s, long long id, const std::string& claim_token,
                             int progress, const std::string& stage);

    // Running jobs whose lease ran out: requeued, or dead-lettered after the last attempt.
    static std::vector<QueueRef> reclaim_expired(db::Session& s, int limit);
    // Queued jobs not picked up since `older_than`, then scheduled or retrying ones overdue since
    // then, returned as queued with a fresh enqueue time; only such jobs are read.
    static std::vector<QueueRef> take_stale_queued(db::Session& s, time::TimePoint older_than,
                                                   int limit);
    // Queued jobs past `after`, at most `limit` (rebuilding lost queues).
    static QueuedPage queued_after(db::Session& s, const QueuedCursor& after, int limit);
    // Scheduled and retrying jobs past `after`, with their due time, at most `limit`.
    static std::vector<std::pair<QueueRef, time::TimePoint>> retrying_after(
        db::Session& s, const WaitingCursor& after, int limit);

    static std::vector<std::pair<JobStatus, long long>> count_by_status(db::Session& s);
    static long long count_dead_letters(db::Session& s);
};

}  // namespace squawk::jobs
