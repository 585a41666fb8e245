#include "common/domain/social/post_service.hpp"

#include "common/core/config/config.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/queue/job_queue.hpp"
#include "common/domain/events/event_outbox.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "common/domain/jobs/job_types.hpp"
#include "common/domain/social/account_repository.hpp"
#include "common/domain/social/queue_service.hpp"
#include "common/domain/social/reconnect_check.hpp"

#include <algorithm>

namespace squawk::social {
namespace {

constexpr size_t kMaxMetadataBytes = 8192;
// Far above any workspace's accounts on one platform; a post reaches every one of them.
constexpr int kMaxAccountsPerPlatform = 2000;

[[noreturn]] void post_not_found() {
    throw ApiError(ErrorCode::NotFound, "No post with this id.");
}

nlohmann::json fields_json(const std::map<std::string, std::string>& problems) {
    nlohmann::json fields = nlohmann::json::object();
    for (const auto& [name, reason] : problems) fields[name] = reason;
    return fields;
}

std::vector<std::string> platforms_of(const std::vector<NewTarget>& targets) {
    std::vector<std::string> out;
    for (const auto& t : targets)
        if (std::find(out.begin(), out.end(), t.platform) == out.end()) out.push_back(t.platform);
    return out;
}

void emit_scheduled(db::Session& s, const Post& post) {
    if (post.status != PostStatus::scheduled) return;
    nlohmann::json platforms = nlohmann::json::array();
    for (const auto& t : post.targets) platforms.push_back(t.platform);
    events::emit(s, post.workspace_id, "post.scheduled",
                 {{"post_id", post.id},
                  {"scheduled_time", time::format_iso8601(*post.scheduled_time)},
                  {"platforms", platforms}});
}

bool is_editable(const Post& post) {
    return post.status == PostStatus::scheduled || post.status == PostStatus::draft;
}

// A row's refusal that ends the whole batch (a post type a platform does not publish, a daily
// limit) says which row it is: the message starts with it and details.index gives it.
template <class Step>
auto row_named_in_errors(size_t index, Step step) {
    try {
        return step();
    } catch (const ApiError& e) {
        auto details = e.details().is_object() ? e.details() : nlohmann::json::object();
        details["index"] = index;
        throw ApiError(e.code(), "Row " + std::to_string(index) + ": " + e.what(),
                       std::move(details));
    }
}

}  // namespace

// The connected accounts of each platform the posts of one transaction name, read once for all.
class PostService::ConnectedAccounts {
  public:
    const std::vector<Account>& on(db::Session& s, long long workspace_id, AccountView view,
                                   const std::string& platform) {
        auto key = std::make_tuple(workspace_id, view, platform);
        auto found = read_.find(key);
        if (found == read_.end())
            found = read_
                        .emplace(std::move(key),
                                 AccountRepository::connected(s, workspace_id, view, platform, 0,
                                                              kMaxAccountsPerPlatform))
                        .first;
        return found->second;
    }

  private:
    std::map<std::tuple<long long, AccountView, std::string>, std::vector<Account>> read_;
};

PostService::PostService(db::MysqlPool& mysql, redis::RedisPool& redis, PostCreations& creations)
    : mysql_(mysql), redis_(redis), creations_(creations), limits_(known_limits()) {}

PostService::Prepared PostService::prepare(db::Session& s, long long workspace_id, bool is_test,
                                           const PostInput& input,
                                           ConnectedAccounts& connected) const {
    Prepared out;
    const auto now = time::now();
    // A test key's post may go to sandbox accounts too; it passes every check all the same.
    const auto view = account_view(is_test);
    auto add_target = [&](const Account& account) {
        for (const auto& t : out.post.targets)
            if (t.account_id == account.id) return;
        if (!account.token_valid) out.reconnect_required.push_back(account.public_id);
        const std::string& platform = account.platform;
        NewTarget target;
        target.account_id = account.id;
        target.account_public_id = account.public_id;
        target.platform = platform;
        const auto own = input.platform_times.find(platform);
        target.scheduled_time =
            own != input.platform_times.end() ? own->second : input.scheduled_time.value_or(now);
        out.post.targets.push_back(std::move(target));
    };
    std::vector<std::string> unknown;
    for (const auto& platform : input.platforms) {
        if (!limits_.count(platform)) {
            unknown.push_back(platform);
            continue;
        }
        const auto& accounts = connected.on(s, workspace_id, view, platform);
        if (accounts.empty()) {
            out.problems["platforms"] +=
                (out.problems["platforms"].empty() ? "" : "; ") +
                ("no connected " + platform + " account in this workspace");
            continue;
        }
        for (const auto& a : accounts) add_target(a);
    }
    if (!unknown.empty()) {
        std::string list;
        for (const auto& p : unknown) list += (list.empty() ? "" : ", ") + p;
        out.problems["platforms"] +=
            (out.problems["platforms"].empty() ? "" : "; ") + ("unknown platforms: " + list);
    }
    std::vector<std::string> missing;
    for (const auto& id : input.account_ids) {
        const auto account = AccountRepository::find(s, workspace_id, view, id);
        if (!account || account->status != AccountStatus::connected)
            missing.push_back(id);
        else
            add_target(*account);
    }
    if (!missing.empty()) {
        std::string list;
        for (const auto& id : missing) list += (list.empty() ? "" : ", ") + id;
        out.problems["account_ids"] = "not connected accounts of this workspace: " + list;
    }
    const auto review = review_for_platforms(input, platforms_of(out.post.targets), limits_);
    for (const auto& [field, reason] : review.problems)
        out.problems[field] += (out.problems[field].empty() ? "" : "; ") + reason;
    out.warnings = review.warnings;

    auto& post = out.post;
    post.workspace_id = workspace_id;
    post.content = input.content;
    post.link = input.link;
    post.media_urls = input.media_urls;
    post.platform_options = input.platform_options;
    post.first_comments = input.first_comments;
    post.is_test = is_test;
    post.draft = input.draft;
    post.recycle = input.recycle;
    if (input.queue_id && out.problems.empty()) {
        // Locks the queue until the insert commits, so concurrent posts take different slots.
        const auto slot = QueueService::take_next_slot(s, workspace_id, *input.queue_id, now);
        post.queue_id = input.queue_id;
        for (auto& target : post.targets) target.scheduled_time = slot;
    }
    return out;
}

CreatedPost PostService::create(long long workspace_id, bool is_test, const PostInput& input) {
    const PostCreationRequest request{workspace_id, is_test, &input,
                                      db::CommitCompanion::current_work()};
    // A post for a queue takes the queue's first free slot, which the posts written before it
    // decide, so it has a transaction of its own.
    if (input.queue_id) {
        auto outcome = std::move(create_round({&request}).front());
        if (outcome.error) std::rethrow_exception(outcome.error);
        return std::move(*outcome.result);
    }
    return creations_.run(request, [this](const auto& round) { return create_round(round); });
}

std::vector<PostCreations::Outcome> PostService::create_round(
    const std::vector<const PostCreationRequest*>& requests) {
    using Outcome = PostCreations::Outcome;
    const auto guarded = [](const PostInput& input) {
        return !input.draft && !input.allow_duplicates;
    };
    const auto duplicate = [](long long existing) {
        return std::make_exception_ptr(
            ApiError(ErrorCode::DuplicateContent,
                     "Identical content was posted in this workspace within 24 hours; send "
                     "allow_duplicates to post it again.",
                     {{"duplicate_post_id", existing}}));
    };
    const auto n = requests.size();
    std::vector<Outcome> outcomes;
    std::vector<Post> written;
    // The companions of the requests whose posts are written run inside the transaction below;
    // the one of the thread running it must not join that COMMIT on its own.
    const db::CommitCompanion none({});
    try {
        mysql_.transaction([&](db::Session& s) {
            outcomes.assign(n, Outcome{});
            written.clear();
            std::vector<Prepared> prepared(n);
            std::vector<std::string> hashes(n);
            std::vector<bool> accepted(n, false);
            // Taken first and in (workspace, hash) order, so concurrent creators of the same
            // content check duplicates in turn: two identical posts sent at once cannot both pass.
            std::map<long long, std::vector<std::string>> to_lock;
            for (size_t i = 0; i < n; ++i) {
                hashes[i] = content_hash(requests[i]->input->content);
                if (guarded(*requests[i]->input))
                    to_lock[requests[i]->workspace_id].push_back(hashes[i]);
            }
            for (const auto& [workspace_id, contents] : to_lock)
                PostRepository::lock_contents(s, workspace_id, contents);

            ConnectedAccounts accounts;
            std::map<long long, std::vector<std::string>> to_look_up;
            for (size_t i = 0; i < n; ++i) {
                const auto& r = *requests[i];
                try {
                    prepared[i] = prepare(s, r.workspace_id, r.is_test, *r.input, accounts);
                    if (!prepared[i].problems.empty())
                        throw validation_error(fields_json(prepared[i].problems));
                    if (!r.input->draft) {
                        admit_for_platforms(s, accounts_by_platform(prepared[i].post.targets),
                                            r.input->platform_options, 0);
                        refuse_accounts_to_reconnect(prepared[i].reconnect_required);
                    }
                    accepted[i] = true;
                    if (guarded(*r.input)) to_look_up[r.workspace_id].push_back(hashes[i]);
                } catch (const ApiError&) {
                    outcomes[i].error = std::current_exception();
                }
            }

            std::map<std::pair<long long, std::string>, long long> existing;
            const auto since = time::now() - kDuplicateWindow;
            for (const auto& [workspace_id, contents] : to_look_up)
                for (auto& [hash, id] :
                     PostRepository::find_duplicates(s, workspace_id, contents, since))
                    existing.emplace(std::make_pair(workspace_id, hash), id);
            std::map<std::pair<long long, std::string>, size_t> first_in_round;
            std::vector<std::optional<size_t>> repeats(n);
            std::vector<NewPost> posts;
            std::vector<size_t> written_for;
            for (size_t i = 0; i < n; ++i) {
                if (!accepted[i]) continue;
                if (guarded(*requests[i]->input)) {
                    const auto key = std::make_pair(requests[i]->workspace_id, hashes[i]);
                    if (const auto found = existing.find(key); found != existing.end()) {
                        outcomes[i].error = duplicate(found->second);
                        continue;
                    }
                    if (const auto first = first_in_round.find(key);
                        first != first_in_round.end()) {
                        repeats[i] = first->second;
                        continue;
                    }
                    first_in_round.emplace(key, posts.size());
                }
                posts.push_back(prepared[i].post);
                written_for.push_back(i);
            }

            written = PostRepository::insert_many(s, posts);
            for (size_t k = 0; k < written.size(); ++k) {
                const auto i = written_for[k];
                emit_scheduled(s, written[k]);
                if (requests[i]->commit_companion) requests[i]->commit_companion(s);
                outcomes[i].result = CreatedPost{written[k], std::move(prepared[i].warnings)};
            }
            for (size_t i = 0; i < n; ++i)
                if (repeats[i]) outcomes[i].error = duplicate(written[*repeats[i]].id);
        });
    } catch (const db::DatabaseError&) {
        // What the server refused may be one request's doing: each is served again on its own,
        // so that it fails no other.
        if (n == 1) throw;
        outcomes.assign(n, Outcome{});
        for (size_t i = 0; i < n; ++i) {
            try {
                outcomes[i] = std::move(create_round({requests[i]}).front());
            } catch (...) {
                outcomes[i].error = std::current_exception();
            }
        }
        return outcomes;
    }
    enqueue_publish_jobs(redis_, written);
    return outcomes;
}

PostBatch PostService::create_batch(long long workspace_id, bool is_test,
                                    const std::vector<PostInput>& rows,
                                    std::vector<RowProblem> problems, bool dry_run) {
    PostBatch batch;
    batch.rows = rows.size();
    mysql_.transaction([&](db::Session& s) {
        batch.warnings.clear();
        batch.posts.clear();
        std::vector<std::string> hashes;
        std::vector<std::string> guarded_hashes;
        for (const auto& row : rows) {
            hashes.push_back(content_hash(row.content));
            if (!row.draft && !row.allow_duplicates) guarded_hashes.push_back(hashes.back());
        }
        PostRepository::lock_contents(s, workspace_id, guarded_hashes);
        const auto existing = PostRepository::find_duplicates(s, workspace_id, guarded_hashes,
                                                              time::now() - kDuplicateWindow);
        ConnectedAccounts accounts;
        std::vector<Prepared> prepared;
        std::vector<std::string> batch_hashes;
        for (size_t i = 0; i < rows.size(); ++i) {
            auto p = row_named_in_errors(
                i, [&] { return prepare(s, workspace_id, is_test, rows[i], accounts); });
            const auto& hash = hashes[i];
            if (!rows[i].draft && !rows[i].allow_duplicates &&
                (std::find(batch_hashes.begin(), batch_hashes.end(), hash) != batch_hashes.end() ||
                 existing.count(hash)))
                p.problems["content"] += (p.problems["content"].empty() ? "" : "; ") +
                                         std::string("duplicates a post of the last 24 hours");
            batch_hashes.push_back(hash);
            if (p.problems.empty() && !rows[i].draft)
                row_named_in_errors(i, [&] {
                    admit_for_platforms(s, accounts_by_platform(p.post.targets),
                                        rows[i].platform_options, 0);
                    refuse_accounts_to_reconnect(p.reconnect_required);
                });
            if (!p.problems.empty()) {
                auto hit = std::find_if(problems.begin(), problems.end(),
                                        [&](const RowProblem& r) { return r.index == i; });
                if (hit == problems.end()) {
                    problems.push_back({i, {}});
                    hit = problems.end() - 1;
                }
                for (auto& [field, reason] : p.problems) hit->fields.emplace(field, reason);
            }
            prepared.push_back(std::move(p));
        }
        if (!problems.empty()) {
            std::sort(problems.begin(), problems.end(),
                      [](const RowProblem& a, const RowProblem& b) { return a.index < b.index; });
            nlohmann::json rows_json = nlohmann::json::array();
            nlohmann::json fields = nlohmann::json::object();
            for (const auto& row : problems) {
                rows_json.push_back({{"index", row.index}, {"fields", fields_json(row.fields)}});
                for (const auto& [field, reason] : row.fields)
                    fields["posts[" + std::to_string(row.index) + "]." + field] = reason;
            }
            throw ApiError(
                ErrorCode::ValidationError,
                std::to_string(problems.size()) + " rows are invalid; nothing was stored.",
                {{"fields", fields}, {"rows", rows_json}});
        }
        std::vector<NewPost> posts;
        for (auto& p : prepared) {
            batch.warnings.push_back(std::move(p.warnings));
            posts.push_back(std::move(p.post));
        }
        if (dry_run) return;
        batch.posts = PostRepository::insert_many(s, posts);
        for (const auto& post : batch.posts) emit_scheduled(s, post);
    });
    enqueue_publish_jobs(redis_, batch.posts);
    return batch;
}

PostPage PostService::list(long long workspace_id, const PostFilter& filter, long long offset,
                           int limit) {
    return mysql_.run([&](db::Session& s) {
        return PostRepository::list(s, workspace_id, filter, offset, limit);
    });
}

Post PostService::get(long long workspace_id, long long id) {
    auto post =
        mysql_.run([&](db::Session& s) { return PostRepository::find(s, workspace_id, id); });
    if (!post) post_not_found();
    return std::move(*post);
}

Post PostService::find_locked(db::Session& s, long long workspace_id, long long id) const {
    auto post = PostRepository::find(s, workspace_id, id, true);
    if (!post) post_not_found();
    return std::move(*post);
}

Post PostService::update(long long workspace_id, long long id, const PostChange& change) {
    std::vector<queue::Delayed> moved;
    const Post post = mysql_.transaction([&](db::Session& s) {
        Post p = find_locked(s, workspace_id, id);
        if (!is_editable(p))
            throw ApiError(ErrorCode::Conflict,
                           "Only scheduled or draft posts can be changed; publishing has begun.",
                           {{"status", p.status}});
        PostInput input;
        input.content = change.content.value_or(p.content);
        input.link = change.link ? change.link : p.link;
        input.media_urls = change.media_urls.value_or(p.media_urls);
        input.platform_options = change.platform_options.value_or(p.platform_options);
        input.platform_times = change.platform_times;
        input.scheduled_time = change.scheduled_time;
        std::vector<std::string> platforms;
        for (const auto& t : p.targets)
            if (std::find(platforms.begin(), platforms.end(), t.platform) == platforms.end())
                platforms.push_back(t.platform);
        const auto review = review_for_platforms(input, platforms, limits_);
        if (!review.problems.empty()) throw validation_error(fields_json(review.problems));
        // As at creation, drafts are not checked: they publish nothing.
        if (p.status != PostStatus::draft) {
            admit_for_platforms(s, accounts_by_platform(p.targets), input.platform_options, p.id);
            refuse_accounts_to_reconnect(s, p.targets);
        }

        p.content = input.content;
        p.link = input.link;
        p.media_urls = input.media_urls;
        p.platform_options = input.platform_options;
        p.scheduled_time.reset();
        for (auto& t : p.targets) {
            const auto own = input.platform_times.find(t.platform);
            if (own != input.platform_times.end())
                t.scheduled_time = own->second;
            else if (input.scheduled_time)
                t.scheduled_time = *input.scheduled_time;
            if (!p.scheduled_time || t.scheduled_time < *p.scheduled_time)
                p.scheduled_time = t.scheduled_time;
            if (t.job_id && t.status == TargetStatus::scheduled) {
                if (!jobs::JobRepository::reschedule(s, *t.job_id, t.scheduled_time))
                    throw ApiError(ErrorCode::Conflict,
                                   "Publishing of this post has begun; it can no longer change.",
                                   {{"status", p.status}});
                moved.push_back({*t.job_id, time::to_unix_ms(t.scheduled_time)});
            }
        }
        PostRepository::update_editable(s, p);
        return *PostRepository::find(s, workspace_id, p.id);
    });
    if (!moved.empty()) {
        try {
            redis_.run([&](redis::RedisClient& r) {
                queue::JobQueue(r).schedule_many(std::string(jobs::kPublishTarget.pool), moved);
            });
        } catch (const redis::RedisUnavailable& e) {
            // The jobs' run_after in MySQL is the truth; the scheduler rebuilds the delayed set.
            log::warn("post rescheduled while redis is unavailable",
                      {{"post_id", post.id}, {"error", e.what()}});
        }
    }
    return post;
}

Post PostService::update_metadata(long long workspace_id, long long id,
                                  const nlohmann::json& metadata) {
    if (metadata.dump().size() > kMaxMetadataBytes)
        throw validation_error({{"metadata", "must be at most 8 KB as JSON"}});
    return mysql_.transaction([&](db::Session& s) {
        const Post p = find_locked(s, workspace_id, id);
        PostRepository::set_metadata(s, p.id, metadata);
        return *PostRepository::find(s, workspace_id, p.id);
    });
}

void PostService::cancel(long long workspace_id, long long id) {
    mysql_.transaction([&](db::Session& s) {
        const Post p = find_locked(s, workspace_id, id);
        const bool started = std::any_of(p.targets.begin(), p.targets.end(), [](const auto& t) {
            return t.status == TargetStatus::publishing || t.status == TargetStatus::published ||
                   t.status == TargetStatus::failed;
        });
        if (!is_editable(p) || started)
            throw ApiError(ErrorCode::Conflict,
                           std::string("Only scheduled or draft posts can be cancelled, and "
                                       "published or partial ones unpublished; this post is ") +
                               name_of(p.status) + ".",
                           {{"status", p.status}});
        jobs::JobRepository::cancel_many(s, PostRepository::cancel(s, p));
        events::emit(s, workspace_id, "post.cancelled", {{"post_id", p.id}});
    });
}

StoppedRecycling PostService::stop_recycling(long long workspace_id, long long id) {
    return mysql_.transaction([&](db::Session& s) {
        const Post p = find_locked(s, workspace_id, id);
        StoppedRecycling stopped;
        for (const auto& member : PostRepository::chain(s, p)) {
            stopped.chain_post_ids.push_back(member.id);
            if (member.status != PostStatus::scheduled) continue;
            jobs::JobRepository::cancel_many(s, PostRepository::return_to_draft(s, member));
            stopped.drafted_post_ids.push_back(member.id);
        }
        PostRepository::clear_recycling(s, stopped.chain_post_ids);
        return stopped;
    });
}

}  // namespace squawk::social
