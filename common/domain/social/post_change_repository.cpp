#include "common/domain/social/post_change_repository.hpp"

#include "common/core/db/sql_text.hpp"
#include "common/domain/jobs/job.hpp"
#include "common/domain/social/post.hpp"
#include "common/domain/social/post_repository.hpp"

namespace squawk::social {

using db::time_param;

std::optional<long long> PostChangeRepository::change_in_flight(db::Session& s, long long post_id) {
    const auto row = s.query_one(
        "SELECT p.change_job_id, j.status FROM social_posts p"
        " LEFT JOIN jobs j ON j.id = p.change_job_id WHERE p.id = ?",
        {post_id});
    if (!row || row->is_null(0) || row->is_null(1)) return std::nullopt;
    if (jobs::is_terminal(stored_value<jobs::JobStatus>(row->text(1)))) return std::nullopt;
    return row->integer(0);
}

void PostChangeRepository::start_change(db::Session& s, long long post_id, long long job_id) {
    s.execute("UPDATE social_posts SET change_job_id = ? WHERE id = ?", {job_id, post_id});
}

void PostChangeRepository::record_edited(db::Session& s, long long target_id, long long job_id,
                                         time::TimePoint at) {
    s.execute(
        "UPDATE social_post_targets SET edited_at = ?, change_job_id = ?, updated_at = ?"
        " WHERE id = ?",
        {time_param(at), job_id, time_param(at), target_id});
}

void PostChangeRepository::record_unpublished(db::Session& s, long long target_id, long long job_id,
                                              time::TimePoint at) {
    s.execute(
        "UPDATE social_post_targets SET status = ?, unpublished_at = ?, change_job_id = ?,"
        " updated_at = ? WHERE id = ?",
        {name_of(TargetStatus::unpublished), time_param(at), job_id, time_param(at), target_id});
}

void PostChangeRepository::store_content(db::Session& s, long long post_id,
                                         const std::string& content,
                                         const std::optional<std::string>& link,
                                         time::TimePoint at) {
    s.execute(
        "UPDATE social_posts SET content = ?, content_hash = ?, link = ?, updated_at = ?"
        " WHERE id = ?",
        {content, content_hash(content), db::optional_param(link), time_param(at), post_id});
}

bool PostChangeRepository::settle_unpublished(db::Session& s, long long post_id,
                                              time::TimePoint at) {
    const auto left =
        s.query_one("SELECT COUNT(*) FROM social_post_targets WHERE post_id = ? AND status = ?",
                    {post_id, name_of(TargetStatus::published)});
    if (left && left->integer(0) > 0) return false;
    s.execute("UPDATE social_posts SET status = ?, updated_at = ? WHERE id = ?",
              {name_of(PostStatus::unpublished), time_param(at), post_id});
    return true;
}

}  // namespace squawk::social
