#include "common/domain/jobs/job_admin.hpp"

#include "common/core/db/sql_text.hpp"

namespace squawk::jobs {

std::vector<JobSummary> JobAdmin::list(db::Session& s, const JobFilter& filter) {
    // Absent filters are bound as NULL so the statement text never depends on the input.
    const db::Param status =
        filter.status ? db::Param(name_of(*filter.status)) : db::Param(nullptr);
    const db::Param workspace = db::optional_param(filter.workspace_id);
    const db::Param type = db::optional_param(filter.type);
    std::vector<JobSummary> out;
    for (const auto& r :
         s.query("SELECT public_id, workspace_id, type, pool, status, attempts, max_attempts,"
                 " dead_lettered, error, created_at, updated_at FROM jobs"
                 " WHERE (? IS NULL OR status = ?) AND (? IS NULL OR workspace_id = ?)"
                 " AND (? IS NULL OR type = ?) AND (? = 0 OR dead_lettered = 1)"
                 " ORDER BY id DESC LIMIT ?",
                 {status, status, workspace, workspace, type, type, filter.dead_lettered_only,
                  static_cast<long long>(filter.limit)})) {
        JobSummary j;
        j.public_id = r.text(0);
        j.workspace_id = r.integer(1);
        j.type = r.text(2);
        j.pool = r.text(3);
        j.status = stored_value<JobStatus>(r.text(4));
        j.attempts = static_cast<int>(r.integer(5));
        j.max_attempts = static_cast<int>(r.integer(6));
        j.dead_lettered = r.integer(7) != 0;
        if (auto text = r.optional_text(8)) {
            const auto error = nlohmann::json::parse(*text, nullptr, false);
            if (error.is_object()) {
                j.error_code = error.value("code", "");
                j.error_message = error.value("message", "");
            }
        }
        j.created_at = db::time_column(r, 9);
        j.updated_at = db::time_column(r, 10);
        out.push_back(std::move(j));
    }
    return out;
}

std::optional<QueueRef> JobAdmin::requeue_dead_letter(db::Session& s,
                                                      const std::string& public_id) {
    const auto now = db::time_param(time::now());
    const auto changed = s.execute(
        "UPDATE jobs SET status = ?, attempts = 0, dead_lettered = 0, progress = 0,"
        " error = NULL, result = NULL, run_after = NULL, lease_until = NULL, claim_token = NULL,"
        " worker_id = NULL, started_at = NULL, finished_at = NULL, enqueued_at = ?,"
        " updated_at = ? WHERE public_id = ? AND status = ? AND dead_lettered = 1",
        {name_of(JobStatus::queued), now, now, public_id, name_of(JobStatus::failed)});
    if (changed == 0) return std::nullopt;
    const auto row = s.query_one("SELECT id, pool FROM jobs WHERE public_id = ?", {public_id});
    return QueueRef{row->integer(0), row->text(1)};
}

bool JobAdmin::discard_dead_letter(db::Session& s, const std::string& public_id) {
    return s.execute(
               "UPDATE jobs SET dead_lettered = 0, updated_at = ? WHERE public_id = ?"
               " AND status = ? AND dead_lettered = 1",
               {db::time_param(time::now()), public_id, name_of(JobStatus::failed)}) > 0;
}

}  // namespace squawk::jobs
