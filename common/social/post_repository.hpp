// SQL for social posts and their targets: the insert that writes a post, its targets and their
// publish jobs in the caller's transaction, and tenant-scoped reads.
#pragma once

#include "common/db/mysql_pool.hpp"
#include "common/redis/redis_pool.hpp"
#include "common/social/post.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::social {

struct NewTarget {
    long long account_id = 0;
    std::string account_public_id;
    std::string platform;
    time::TimePoint scheduled_time;
};

struct NewPost {
    long long workspace_id = 0;
    std::string content;
    std::optional<std::string> link;
    std::vector<std::string> media_urls;
    nlohmann::json platform_options = nlohmann::json::object();
    nlohmann::json first_comments;
    bool is_test = false;
    // A draft is stored with its targets but no publish jobs.
    bool draft = false;
    std::optional<long long> queue_id;
    std::optional<RecycleRule> recycle;
    int recycle_count = 0;
    std::optional<long long> recycle_parent_id;
    std::vector<NewTarget> targets;
};

class PostRepository {
  public:
    // Writes the post, one target per account and one publish job per target: `scheduled`
    // until the target's time when that is in the future, `queued` otherwise. Call
    // enqueue_publish_jobs() once the transaction has committed.
    static Post insert(db::Session& s, const NewPost& post);
    static std::optional<Post> find(db::Session& s, long long workspace_id, long long id,
                                    bool for_update = false);
    // For workers, which hold a target's post id rather than a tenant's request.
    static std::optional<Post> find_by_id(db::Session& s, long long id);
};

// Puts the post's publish jobs into the publish stream (due targets) or the delayed set (later
// ones). A failed add leaves the jobs in MySQL, where the scheduler's reconciler finds them.
void enqueue_publish_jobs(redis::RedisPool& redis, const Post& post);

// SHA-256 of the content, as the duplicate guard compares it.
std::string content_hash(const std::string& content);

}  // namespace squawk::social
