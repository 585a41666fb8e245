#include "common/domain/social/post_repository.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/queue/job_queue.hpp"
#include "common/core/text/concat.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "common/domain/jobs/job_types.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace squawk::social {
namespace {

using db::json_column;
using db::json_text;
using db::optional_time_column;
using db::Params;
using db::time_column;
using db::time_param;

// Every post read selects these columns in read_post()'s order; whole literals because GCC 12
// warns (-Warray-bounds) on chains of std::string concatenation.
constexpr const char* kFindPost =
    "SELECT id, workspace_id, status, content, link, media_urls, platform_options,"
    " first_comments, metadata, is_test, queue_id, scheduled_time, published_at,"
    " recycle_interval_hours, recycle_max_repeats, recycle_until, recycle_count,"
    " recycle_parent_id, created_at, updated_at FROM social_posts"
    " WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL";
constexpr const char* kFindPostForUpdate =
    "SELECT id, workspace_id, status, content, link, media_urls, platform_options,"
    " first_comments, metadata, is_test, queue_id, scheduled_time, published_at,"
    " recycle_interval_hours, recycle_max_repeats, recycle_until, recycle_count,"
    " recycle_parent_id, created_at, updated_at FROM social_posts"
    " WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL FOR UPDATE";
constexpr const char* kPostColumns =
    "SELECT id, workspace_id, status, content, link, media_urls, platform_options,"
    " first_comments, metadata, is_test, queue_id, scheduled_time, published_at,"
    " recycle_interval_hours, recycle_max_repeats, recycle_until, recycle_count,"
    " recycle_parent_id, created_at, updated_at FROM social_posts p";
constexpr const char* kFindById =
    "SELECT id, workspace_id, status, content, link, media_urls, platform_options,"
    " first_comments, metadata, is_test, queue_id, scheduled_time, published_at,"
    " recycle_interval_hours, recycle_max_repeats, recycle_until, recycle_count,"
    " recycle_parent_id, created_at, updated_at FROM social_posts WHERE id = ?";

db::Param optional_json_param(const nlohmann::json& j) {
    return j.is_null() ? db::Param(nullptr) : db::Param(json_text(j));
}

Post read_post(const db::Row& r) {
    Post p;
    p.id = r.integer(0);
    p.workspace_id = r.integer(1);
    p.status = stored_value<PostStatus>(r.text(2));
    p.content = r.text(3);
    p.link = r.optional_text(4);
    for (const auto& url : json_column(r, 5, nlohmann::json::array()))
        if (url.is_string()) p.media_urls.push_back(url.get<std::string>());
    p.platform_options = json_column(r, 6, nlohmann::json::object());
    p.first_comments = json_column(r, 7, nullptr);
    p.metadata = json_column(r, 8, nlohmann::json::object());
    p.is_test = r.integer(9) != 0;
    p.queue_id = r.optional_integer(10);
    p.scheduled_time = optional_time_column(r, 11);
    p.published_at = optional_time_column(r, 12);
    if (const auto interval = r.optional_integer(13)) {
        RecycleRule rule;
        rule.interval_hours = static_cast<int>(*interval);
        if (const auto repeats = r.optional_integer(14))
            rule.max_repeats = static_cast<int>(*repeats);
        rule.until = optional_time_column(r, 15);
        p.recycle = rule;
    }
    p.recycle_count = static_cast<int>(r.integer(16));
    p.recycle_parent_id = r.optional_integer(17);
    p.created_at = time_column(r, 18);
    p.updated_at = time_column(r, 19);
    return p;
}

// Joins constant SQL fragments (GCC 12 reports false -Warray-bounds on chains of operator+).
// The targets of many posts in one query, by post id. The index is named: with a long list of
// ids, or statistics not yet caught up with a table that grew fast, MariaDB chose to scan the
// whole table (10,000 rows read per call in the publish burst instead of the few hundred asked).
std::map<long long, std::vector<PostTarget>> read_targets(db::Session& s,
                                                          const std::vector<long long>& post_ids) {
    std::map<long long, std::vector<PostTarget>> out;
    if (post_ids.empty()) return out;
    const Params ids(post_ids.begin(), post_ids.end());
    for (const auto& r : s.query(
             text::concat({"SELECT t.id, t.account_id, a.public_id, t.platform, t.status,"
                           " t.publish_stage, t.scheduled_time, t.job_id, t.external_id, t.url,"
                           " t.error, t.transcodes, t.published_at, t.post_id, t.edited_at,"
                           " t.unpublished_at, t.change_job_id, t.warnings"
                           " FROM social_post_targets t FORCE INDEX (ix_social_post_targets_post)"
                           " JOIN social_accounts a ON a.id = t.account_id WHERE t.post_id IN (",
                           db::placeholders(ids.size()), ") ORDER BY t.post_id, t.id"}),
             ids)) {
        PostTarget t;
        t.id = r.integer(0);
        t.post_id = r.integer(13);
        t.account_id = r.integer(1);
        t.account_public_id = r.optional_text(2).value_or("");
        t.platform = r.text(3);
        t.status = stored_value<TargetStatus>(r.text(4));
        if (const auto stage = r.optional_text(5))
            t.publish_stage = stored_value<PublishStage>(*stage);
        t.scheduled_time = time_column(r, 6);
        t.job_id = r.optional_integer(7);
        t.external_id = r.optional_text(8);
        t.url = r.optional_text(9);
        t.error = json_column(r, 10, nullptr);
        t.transcodes = json_column(r, 11, nullptr);
        t.published_at = optional_time_column(r, 12);
        t.edited_at = optional_time_column(r, 14);
        t.unpublished_at = optional_time_column(r, 15);
        t.change_job_id = r.optional_integer(16);
        t.warnings = json_column(r, 17, nullptr);
        out[t.post_id].push_back(std::move(t));
    }
    return out;
}

// Reads each row as a post and attaches its targets (two queries whatever the count).
std::vector<Post> read_with_targets(db::Session& s, const std::vector<db::Row>& rows) {
    std::vector<Post> posts;
    std::vector<long long> ids;
    for (const auto& r : rows) {
        posts.push_back(read_post(r));
        ids.push_back(posts.back().id);
    }
    auto targets = read_targets(s, ids);
    for (auto& p : posts) p.targets = std::move(targets[p.id]);
    return posts;
}

std::optional<Post> read_one_with_targets(db::Session& s, std::optional<db::Row> row) {
    if (!row) return std::nullopt;
    return std::move(read_with_targets(s, {std::move(*row)}).front());
}

// The publish jobs of the posts' targets, written and linked to their targets: two statements
// whatever the count.
void insert_publish_jobs(db::Session& s, std::vector<Post*>& posts, time::TimePoint now) {
    std::vector<jobs::NewJob> new_jobs;
    std::vector<PostTarget*> targets;
    for (auto* p : posts)
        for (auto& t : p->targets) {
            jobs::NewJob job;
            job.workspace_id = p->workspace_id;
            job.type = std::string(jobs::kPublishTarget.name);
            job.pool = std::string(jobs::kPublishTarget.pool);
            job.payload = {{"target_id", t.id}};
            job.is_test = p->is_test;
            if (t.scheduled_time > now) job.run_after = t.scheduled_time;
            new_jobs.push_back(std::move(job));
            targets.push_back(&t);
        }
    if (new_jobs.empty()) return;
    const auto created = jobs::JobRepository::insert_many(s, new_jobs);
    Params links;
    for (size_t i = 0; i < created.size(); ++i) {
        targets[i]->job_id = created[i].id;
        links.insert(links.end(), {targets[i]->id, created[i].id});
    }
    s.execute(db::update_from_rows("social_post_targets t",
                                   "CAST(? AS SIGNED) AS id, CAST(? AS SIGNED) AS job_id",
                                   created.size()) +
                  "t.id = v.id SET t.job_id = v.job_id",
              links);
}

db::Param optional_time_param(const std::optional<time::TimePoint>& t) {
    return t ? time_param(*t) : db::Param(nullptr);
}

}  // namespace

std::string content_hash(const std::string& content) {
    return crypto::sha256_hex(content);
}

Post PostRepository::insert(db::Session& s, const NewPost& post) {
    return std::move(insert_many(s, {post}).front());
}

std::vector<Post> PostRepository::insert_many(db::Session& s, const std::vector<NewPost>& posts) {
    if (posts.empty()) return {};
    const auto now = time::now();
    const auto optional_time = [](const std::optional<time::TimePoint>& t) {
        return t ? time_param(*t) : db::Param(nullptr);
    };
    std::vector<Post> out;
    out.reserve(posts.size());
    Params post_params;
    for (const auto& n : posts) {
        Post p;
        static_cast<PostFields&>(p) = n;
        p.created_at = p.updated_at = now;
        bool any_later = false;
        for (const auto& t : n.targets) {
            if (!p.scheduled_time || t.scheduled_time < *p.scheduled_time)
                p.scheduled_time = t.scheduled_time;
            any_later = any_later || t.scheduled_time > now;
        }
        p.status = n.draft ? PostStatus::draft
                           : (any_later ? PostStatus::scheduled : PostStatus::processing);
        post_params.insert(
            post_params.end(),
            {p.workspace_id, name_of(p.status), p.content, content_hash(p.content),
             db::optional_param(p.link), json_text(p.media_urls), json_text(p.platform_options),
             optional_json_param(p.first_comments), p.is_test, db::optional_param(p.queue_id),
             optional_time(p.scheduled_time),
             p.recycle ? db::Param(static_cast<long long>(p.recycle->interval_hours))
                       : db::Param(nullptr),
             p.recycle && p.recycle->max_repeats
                 ? db::Param(static_cast<long long>(*p.recycle->max_repeats))
                 : db::Param(nullptr),
             optional_time(p.recycle ? p.recycle->until : std::nullopt),
             static_cast<long long>(p.recycle_count), db::optional_param(p.recycle_parent_id),
             time_param(now), time_param(now)});
        out.push_back(std::move(p));
    }
    // RETURNING gives the rows in the order of the VALUES list.
    const auto post_ids = s.query(
        "INSERT INTO social_posts (workspace_id, status, content, content_hash, link, media_urls,"
        " platform_options, first_comments, is_test, queue_id, scheduled_time,"
        " recycle_interval_hours, recycle_max_repeats, recycle_until, recycle_count,"
        " recycle_parent_id, created_at, updated_at) VALUES " +
            db::value_rows(posts.size(), 18) + " RETURNING id",
        post_params);
    if (post_ids.size() != posts.size())
        throw std::runtime_error("the insert of posts returned a different number of ids");

    Params target_params;
    size_t target_count = 0;
    for (size_t i = 0; i < posts.size(); ++i) {
        auto& p = out[i];
        p.id = post_ids[i].integer(0);
        for (const auto& t : posts[i].targets) {
            PostTarget target;
            target.post_id = p.id;
            target.account_id = t.account_id;
            target.account_public_id = t.account_public_id;
            target.platform = t.platform;
            target.scheduled_time = t.scheduled_time;
            target.status = posts[i].draft ? TargetStatus::draft
                                           : (t.scheduled_time > now ? TargetStatus::scheduled
                                                                     : TargetStatus::queued);
            target_params.insert(
                target_params.end(),
                {p.id, p.workspace_id, t.account_id, t.platform, name_of(target.status),
                 time_param(t.scheduled_time), time_param(now), time_param(now)});
            p.targets.push_back(std::move(target));
            ++target_count;
        }
    }
    if (target_count > 0) {
        const auto target_ids = s.query(
            "INSERT INTO social_post_targets (post_id, workspace_id, account_id, platform, status,"
            " scheduled_time, created_at, updated_at) VALUES " +
                db::value_rows(target_count, 8) + " RETURNING id",
            target_params);
        if (target_ids.size() != target_count)
            throw std::runtime_error("the insert of targets returned a different number of ids");
        size_t next = 0;
        for (auto& p : out)
            for (auto& t : p.targets) t.id = target_ids[next++].integer(0);
    }

    std::vector<Post*> published;
    for (size_t i = 0; i < posts.size(); ++i)
        if (!posts[i].draft) published.push_back(&out[i]);
    insert_publish_jobs(s, published, now);
    return out;
}

std::optional<Post> PostRepository::find(db::Session& s, long long workspace_id, long long id,
                                         bool for_update) {
    return read_one_with_targets(
        s, s.query_one(for_update ? kFindPostForUpdate : kFindPost, {id, workspace_id}));
}

std::optional<Post> PostRepository::find_by_id(db::Session& s, long long id) {
    return read_one_with_targets(s, s.query_one(kFindById, {id}));
}

std::vector<Post> PostRepository::find_many(db::Session& s, const std::vector<long long>& ids) {
    if (ids.empty()) return {};
    const Params params(ids.begin(), ids.end());
    return read_with_targets(
        s, s.query(text::concat({kPostColumns, " WHERE p.id IN (", db::placeholders(params.size()),
                                 ") ORDER BY p.id"}),
                   params));
}

PostPage PostRepository::list(db::Session& s, long long workspace_id, const PostFilter& filter,
                              long long offset, int limit) {
    // The statement's shape depends only on which filters are present, never on their values.
    std::string where = " WHERE p.workspace_id = ? AND p.deleted_at IS NULL";
    Params params{workspace_id};
    if (filter.status) {
        where += " AND p.status = ?";
        params.emplace_back(name_of(*filter.status));
    }
    if (!filter.platform.empty()) {
        where +=
            " AND EXISTS (SELECT 1 FROM social_post_targets t WHERE t.post_id = p.id"
            " AND t.platform = ?)";
        params.emplace_back(filter.platform);
    }
    PostPage page;
    page.total = s.query_one(text::concat({"SELECT COUNT(*) FROM social_posts p", where}), params)
                     ->integer(0);
    params.emplace_back(static_cast<long long>(limit));
    params.emplace_back(offset);
    page.items = read_with_targets(
        s, s.query(text::concat({kPostColumns, where, " ORDER BY p.id DESC LIMIT ? OFFSET ?"}),
                   params));
    return page;
}

std::vector<Post> PostRepository::in_period(db::Session& s, long long workspace_id,
                                            time::TimePoint from, time::TimePoint to,
                                            std::optional<long long> account_id, int limit) {
    // The range is read on ix_social_post_targets_calendar (workspace_id, scheduled_time).
    Params params{workspace_id, workspace_id, time_param(from), time_param(to)};
    if (account_id) params.emplace_back(*account_id);
    params.emplace_back(static_cast<long long>(limit));
    return read_with_targets(
        s, s.query(text::concat({kPostColumns,
                                 " WHERE p.workspace_id = ? AND p.deleted_at IS NULL AND p.id IN"
                                 " (SELECT t.post_id FROM social_post_targets t"
                                 " WHERE t.workspace_id = ? AND t.scheduled_time >= ?"
                                 " AND t.scheduled_time < ?",
                                 account_id ? " AND t.account_id = ?" : "",
                                 ") ORDER BY p.scheduled_time, p.id LIMIT ?"}),
                   params));
}

void PostRepository::lock_contents(db::Session& s, long long workspace_id,
                                   std::vector<std::string> hashes) {
    std::sort(hashes.begin(), hashes.end());
    hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
    if (hashes.empty()) return;
    const auto now = time_param(time::now());
    Params params;
    for (const auto& hash : hashes) params.insert(params.end(), {workspace_id, hash, now});
    // Inserting a row, or updating it when it exists, holds its lock until commit; the rows of
    // one statement are locked in the order of its VALUES list.
    s.execute(
        "INSERT INTO social_post_fingerprints (workspace_id, content_hash, locked_at) VALUES " +
            db::value_rows(hashes.size(), 3) +
            " ON DUPLICATE KEY UPDATE locked_at = VALUES(locked_at)",
        params);
}

long long PostRepository::sweep_content_locks(db::Session& s, time::TimePoint before, int limit) {
    return static_cast<long long>(
        s.execute("DELETE FROM social_post_fingerprints WHERE locked_at < ? LIMIT ?",
                  {time_param(before), static_cast<long long>(limit)}));
}

std::map<std::string, long long> PostRepository::find_duplicates(
    db::Session& s, long long workspace_id, const std::vector<std::string>& hashes,
    time::TimePoint since) {
    std::map<std::string, long long> out;
    if (hashes.empty()) return out;
    Params params{workspace_id};
    params.insert(params.end(), hashes.begin(), hashes.end());
    params.insert(params.end(), {time_param(since), name_of(PostStatus::draft)});
    for (const auto& row :
         s.query(text::concat({"SELECT content_hash, MAX(id) FROM social_posts"
                               " WHERE workspace_id = ? AND content_hash IN (",
                               db::placeholders(hashes.size()),
                               ") AND created_at >= ? AND deleted_at IS NULL AND status <> ?"
                               " GROUP BY content_hash LOCK IN SHARE MODE"}),
                 params))
        out.emplace(row.text(0), row.integer(1));
    return out;
}

void PostRepository::update_editable(db::Session& s, const Post& p) {
    const auto now = time_param(time::now());
    s.execute(
        "UPDATE social_posts SET content = ?, content_hash = ?, link = ?, media_urls = ?,"
        " platform_options = ?, scheduled_time = ?, updated_at = ? WHERE id = ?",
        {p.content, content_hash(p.content), db::optional_param(p.link), json_text(p.media_urls),
         json_text(p.platform_options), optional_time_param(p.scheduled_time), now, p.id});
    for (const auto& t : p.targets)
        s.execute("UPDATE social_post_targets SET scheduled_time = ?, updated_at = ? WHERE id = ?",
                  {time_param(t.scheduled_time), now, t.id});
}

void PostRepository::set_metadata(db::Session& s, long long id, const nlohmann::json& metadata) {
    s.execute("UPDATE social_posts SET metadata = ?, updated_at = ? WHERE id = ?",
              {json_text(metadata), time_param(time::now()), id});
}

std::vector<long long> PostRepository::cancel(db::Session& s, const Post& p) {
    const auto now = time_param(time::now());
    std::vector<long long> job_ids;
    for (const auto& t : p.targets)
        if (t.job_id && (t.status == TargetStatus::scheduled || t.status == TargetStatus::queued))
            job_ids.push_back(*t.job_id);
    s.execute(
        "UPDATE social_post_targets SET status = ?, updated_at = ? WHERE post_id = ?"
        " AND status IN (?, ?, ?)",
        {name_of(TargetStatus::cancelled), now, p.id, name_of(TargetStatus::draft),
         name_of(TargetStatus::scheduled), name_of(TargetStatus::queued)});
    s.execute("UPDATE social_posts SET deleted_at = ?, updated_at = ? WHERE id = ?",
              {now, now, p.id});
    return job_ids;
}

std::vector<Post> PostRepository::chain(db::Session& s, const Post& post) {
    const long long root = post.recycle_parent_id.value_or(post.id);
    return read_with_targets(
        s,
        s.query(text::concat({kPostColumns,
                              " WHERE p.workspace_id = ? AND (p.id = ? OR p.recycle_parent_id = ?)"
                              " AND p.deleted_at IS NULL ORDER BY p.id FOR UPDATE"}),
                {post.workspace_id, root, root}));
}

std::vector<long long> PostRepository::return_to_draft(db::Session& s, const Post& p) {
    const auto now = time_param(time::now());
    std::vector<long long> job_ids;
    for (const auto& t : p.targets)
        if (t.job_id && t.status == TargetStatus::scheduled) job_ids.push_back(*t.job_id);
    s.execute(
        "UPDATE social_post_targets SET status = ?, job_id = NULL, updated_at = ?"
        " WHERE post_id = ? AND status = ?",
        {name_of(TargetStatus::draft), now, p.id, name_of(TargetStatus::scheduled)});
    s.execute("UPDATE social_posts SET status = ?, updated_at = ? WHERE id = ?",
              {name_of(PostStatus::draft), now, p.id});
    return job_ids;
}

void PostRepository::clear_recycling(db::Session& s, const std::vector<long long>& post_ids) {
    if (post_ids.empty()) return;
    Params params{time_param(time::now())};
    for (long long id : post_ids) params.emplace_back(id);
    s.execute(text::concat({"UPDATE social_posts SET recycle_interval_hours = NULL,"
                            " recycle_max_repeats = NULL, recycle_until = NULL, updated_at = ?"
                            " WHERE id IN (",
                            db::placeholders(post_ids.size()), ")"}),
              params);
}

void enqueue_publish_jobs(redis::RedisPool& redis, const std::vector<Post>& posts) {
    std::vector<long long> due;
    std::vector<queue::Delayed> later;
    for (const auto& post : posts) {
        for (const auto& t : post.targets) {
            if (!t.job_id) continue;
            if (t.status == TargetStatus::queued)
                due.push_back(*t.job_id);
            else if (t.status == TargetStatus::scheduled)
                later.push_back({*t.job_id, time::to_unix_ms(t.scheduled_time)});
        }
    }
    if (due.empty() && later.empty()) return;
    const std::string pool(jobs::kPublishTarget.pool);
    try {
        redis.run([&](redis::RedisClient& r) {
            queue::JobQueue queue(r);
            if (!due.empty()) queue.enqueue(pool, due);
            if (!later.empty()) queue.schedule_many(pool, later);
        });
    } catch (const redis::RedisUnavailable& e) {
        nlohmann::json post_ids = nlohmann::json::array();
        for (const auto& post : posts) post_ids.push_back(post.id);
        log::warn("posts accepted while redis is unavailable; the reconciler will enqueue them",
                  {{"post_ids", post_ids}, {"error", e.what()}});
    }
}

}  // namespace squawk::social
