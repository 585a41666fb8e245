// SQL for changing published posts (edit, unpublish): the post's change job in flight and, per
// target, the message edited or deleted; then the post's new content or its unpublished status.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"

#include <optional>
#include <string>

namespace squawk::social {

class PostChangeRepository {
  public:
    // The post's edit or unpublish job that has not finished yet, if one has not.
    static std::optional<long long> change_in_flight(db::Session& s, long long post_id);
    // Links the job that changes the post now; the caller holds the post's row lock.
    static void start_change(db::Session& s, long long post_id, long long job_id);

    static void record_edited(db::Session& s, long long target_id, long long job_id,
                              time::TimePoint at);
    // The target's message is gone: the target ends `unpublished`.
    static void record_unpublished(db::Session& s, long long target_id, long long job_id,
                                   time::TimePoint at);
    static void store_content(db::Session& s, long long post_id, const std::string& content,
                              const std::optional<std::string>& link, time::TimePoint at);
    // Makes the post `unpublished` when none of its targets is published any more; returns
    // whether it did.
    static bool settle_unpublished(db::Session& s, long long post_id, time::TimePoint at);
};

}  // namespace squawk::social
