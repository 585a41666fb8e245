// SQL for social posts and their targets: the insert that writes a post, its targets and their
// publish jobs in the caller's transaction, and tenant-scoped reads.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/redis/redis_pool.hpp"
#include "common/domain/social/post.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace squawk::social {

// Content identical to a post of the workspace this recent is refused (spec 4.4 rule 5).
inline constexpr auto kDuplicateWindow = std::chrono::hours(24);

struct NewTarget {
    long long account_id = 0;
    std::string account_public_id;
    std::string platform;
    time::TimePoint scheduled_time;
};

struct NewPost : PostFields {
    // A draft is stored with its targets but no publish jobs.
    bool draft = false;
    std::vector<NewTarget> targets;
};

// Listing filters; no status and an empty platform mean no filter.
struct PostFilter {
    std::optional<PostStatus> status;
    std::string platform;
};

struct PostPage {
    std::vector<Post> items;
    long long total = 0;
};

class PostRepository {
  public:
    // Writes the post, one target per account and one publish job per target: `scheduled`
    // until the target's time when that is in the future, `queued` otherwise. Call
    // enqueue_publish_jobs() once the transaction has committed.
    static Post insert(db::Session& s, const NewPost& post);
    // insert() for many posts, in the order given, with one statement for all the posts, one for
    // all their targets and two for all their jobs.
    static std::vector<Post> insert_many(db::Session& s, const std::vector<NewPost>& posts);
    static std::optional<Post> find(db::Session& s, long long workspace_id, long long id,
                                    bool for_update = false);
    // For workers, which hold a target's post id rather than a tenant's request.
    static std::optional<Post> find_by_id(db::Session& s, long long id);
    // find_by_id() for many posts in two queries; the ones found, in id order.
    static std::vector<Post> find_many(db::Session& s, const std::vector<long long>& ids);
    // Newest first, non-deleted, with their targets.
    static PostPage list(db::Session& s, long long workspace_id, const PostFilter& filter,
                         long long offset, int limit);
    // Non-deleted posts with a target due in [from, to) (of `account_id` when given), earliest
    // first, at most `limit`: a calendar's period. A target keeps the time it was due once
    // published; an imported one's is its publication time.
    static std::vector<Post> in_period(db::Session& s, long long workspace_id, time::TimePoint from,
                                       time::TimePoint to, std::optional<long long> account_id,
                                       int limit);

    // Locks the contents (SHA-256 hashes) until the transaction ends, so concurrent creators of
    // the same content check duplicates in turn; other contents do not wait. Locks in hash order
    // so that two batches cannot deadlock.
    static void lock_contents(db::Session& s, long long workspace_id,
                              std::vector<std::string> hashes);
    // Removes content locks older than `before` (past the duplicate window); returns how many.
    static long long sweep_content_locks(db::Session& s, time::TimePoint before, int limit);
    // For each of the contents (SHA-256 hashes) that has one, the newest non-draft, non-deleted
    // post of the workspace with that content created since `since`. A locking read: it sees
    // posts committed after the transaction's snapshot (repeatable read).
    static std::map<std::string, long long> find_duplicates(db::Session& s, long long workspace_id,
                                                            const std::vector<std::string>& hashes,
                                                            time::TimePoint since);

    // Writes the editable fields of the post row (content and its hash, link, media, options,
    // earliest time) and each target's scheduled_time.
    static void update_editable(db::Session& s, const Post& post);
    static void set_metadata(db::Session& s, long long id, const nlohmann::json& metadata);
    // Cancels the post's unpublished targets and hides the post; returns their job ids.
    static std::vector<long long> cancel(db::Session& s, const Post& post);

    // Every post of the recycling chain `post` belongs to, locked, oldest first.
    static std::vector<Post> chain(db::Session& s, const Post& post);
    // Returns a scheduled post to draft: its scheduled targets become drafts without jobs;
    // returns the job ids they had.
    static std::vector<long long> return_to_draft(db::Session& s, const Post& post);
    static void clear_recycling(db::Session& s, const std::vector<long long>& post_ids);
};

// Puts the posts' publish jobs into the publish stream (due targets) or the delayed set (later
// ones). A failed add leaves the jobs in MySQL, where the scheduler's reconciler finds them.
void enqueue_publish_jobs(redis::RedisPool& redis, const std::vector<Post>& posts);

// SHA-256 of the content, as the duplicate guard compares it.
std::string content_hash(const std::string& content);

}  // namespace squawk::social
