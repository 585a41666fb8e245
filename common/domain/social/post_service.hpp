// What the social post routes do: create and schedule (checked against every target platform,
// guarded against duplicates), bulk batches, listing, edits of unpublished posts, metadata,
// cancelling, and stopping a recycling chain. Raises ApiError; the handlers stay thin.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/core/db/group_commit.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/http/http_client.hpp"
#include "common/core/redis/redis_pool.hpp"
#include "common/domain/social/post_repository.hpp"
#include "common/domain/social/post_validation.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace squawk::social {

// The editable fields a PATCH sent; absent ones stay as they are.
struct PostChange {
    std::optional<std::string> content;
    std::optional<std::string> link;
    std::optional<std::vector<std::string>> media_urls;
    std::optional<time::TimePoint> scheduled_time;
    std::optional<nlohmann::json> platform_options;
    std::map<std::string, time::TimePoint> platform_times;
};

// One bad row of a batch: its index and its details.fields.
struct RowProblem {
    size_t index = 0;
    std::map<std::string, std::string> fields;
};

// A stored post and what its checks warned about (keyed by platform).
struct CreatedPost {
    Post post;
    nlohmann::json warnings = nlohmann::json::object();
};

// A batch that passed: the posts stored (none on a dry run) and each row's warnings, in order.
struct PostBatch {
    size_t rows = 0;
    std::vector<Post> posts;
    std::vector<nlohmann::json> warnings;
};

// A recycling chain stopped: every post of the chain, and those returned to draft.
struct StoppedRecycling {
    std::vector<long long> chain_post_ids;
    std::vector<long long> drafted_post_ids;
};

// One caller's POST of a single post, as a round of creations serves it.
struct PostCreationRequest {
    long long workspace_id = 0;
    bool is_test = false;
    const PostInput* input = nullptr;
    // What the caller's thread commits with its writes (db::CommitCompanion): its request's
    // idempotency mark, committed with its post and only when its post is written.
    std::function<void(db::Session&)> commit_companion;
};

// The rounds single posts are created in, shared by every PostService of a process: posts sent
// at the same moment are written in one transaction (db::GroupCommit).
using PostCreations = db::GroupCommit<PostCreationRequest, CreatedPost>;

class PostService {
  public:
    PostService(db::MysqlPool& mysql, redis::RedisPool& redis, PostCreations& creations);

    // Each post is checked and answered on its own, duplicates of each other included, even
    // when it is written in the same transaction as posts sent at the same moment.
    CreatedPost create(long long workspace_id, bool is_test, const PostInput& input);
    // All rows in one transaction, or none: a bad row throws 422 with details.rows. `dry_run`
    // runs every check and stores nothing.
    PostBatch create_batch(long long workspace_id, bool is_test, const std::vector<PostInput>& rows,
                           std::vector<RowProblem> shape_problems, bool dry_run);
    PostPage list(long long workspace_id, const PostFilter& filter, long long offset, int limit);
    Post get(long long workspace_id, long long id);
    Post update(long long workspace_id, long long id, const PostChange& change);
    Post update_metadata(long long workspace_id, long long id, const nlohmann::json& metadata);
    void cancel(long long workspace_id, long long id);
    // Stops recycling for the chain of post `id`.
    StoppedRecycling stop_recycling(long long workspace_id, long long id);

  private:
    // The post to write for `input`, or the problems that refuse it.
    struct Prepared {
        NewPost post;
        nlohmann::json warnings = nlohmann::json::object();
        std::map<std::string, std::string> problems;
        // Accounts whose token the platform refused (token_valid false): connect them again.
        std::vector<std::string> reconnect_required;
    };
    class ConnectedAccounts;
    Prepared prepare(db::Session& s, long long workspace_id, bool is_test, const PostInput& input,
                     ConnectedAccounts& accounts) const;
    std::vector<PostCreations::Outcome> create_round(
        const std::vector<const PostCreationRequest*>& requests);
    Post find_locked(db::Session& s, long long workspace_id, long long id) const;

    db::MysqlPool& mysql_;
    redis::RedisPool& redis_;
    PostCreations& creations_;
    const LimitsTable& limits_;
};

}  // namespace squawk::social
