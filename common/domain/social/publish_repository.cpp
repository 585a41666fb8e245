#include "common/domain/social/publish_repository.hpp"

#include "common/core/db/sql_text.hpp"
#include "common/domain/events/event_outbox.hpp"
#include "common/domain/social/post_json.hpp"
#include "common/domain/social/post_repository.hpp"
#include "common/domain/social/target_error.hpp"

#include <set>

namespace squawk::social {
namespace {

using db::optional_time_column;
using db::time_column;
using db::time_param;

const std::string kTakeUp =
    "SELECT id, status, send_started_at, scheduled_time, post_id, account_id"
    " FROM social_post_targets WHERE id IN (";
const std::string kTakeUpAccounts =
    "SELECT id, public_id, platform, status, external_id, display_name, external_handle,"
    " credentials_enc, token_valid, last_error FROM social_accounts WHERE id IN (";

// Each batch is one statement: its rows' values are a derived table (db::update_from_rows).
constexpr const char* kPublishedRow =
    "CAST(? AS SIGNED) AS id, ? AS external_id, ? AS url, ? AS published_at, ? AS transcodes,"
    " ? AS warnings";
constexpr const char* kSetPublished =
    "v.id = t.id SET t.status = ?, t.publish_stage = NULL,"
    " t.external_id = v.external_id, t.url = v.url, t.published_at = v.published_at,"
    " t.error = NULL, t.transcodes = v.transcodes, t.warnings = v.warnings, t.updated_at = ?";
constexpr const char* kFailedRow = "CAST(? AS SIGNED) AS id, ? AS error, ? AS transcodes";
constexpr const char* kSetFailed =
    "v.id = t.id SET t.status = ?, t.publish_stage = NULL, t.error = v.error,"
    " t.transcodes = v.transcodes, t.warnings = NULL, t.updated_at = ? WHERE t.status IN (?, ?, ?)";
constexpr const char* kSettledRow = "CAST(? AS SIGNED) AS id, ? AS status, ? AS published_at";
constexpr const char* kSetSettled =
    "v.id = p.id SET p.status = v.status, p.published_at = v.published_at,"
    " p.updated_at = ?";

// Sends that count against the caps: published ones, and ones whose platform call is under way
// (send mark set, no outcome yet). Sandbox posts never reach a platform and do not count.
const std::string kRecentSends =
    "SELECT t.account_id, COALESCE(t.allowance, t.platform),"
    " COALESCE(t.published_at, t.send_started_at)"
    " FROM social_post_targets t JOIN social_posts p ON p.id = t.post_id WHERE p.is_test = 0"
    " AND ((t.status = ? AND t.published_at > ?) OR"
    " (t.status = ? AND t.send_started_at > ?)) AND t.account_id IN (";

bool is_open(TargetStatus status) {
    return status == TargetStatus::draft || status == TargetStatus::scheduled ||
           status == TargetStatus::queued || status == TargetStatus::publishing;
}

bool has_ended(PostStatus status) {
    return status == PostStatus::published || status == PostStatus::partial ||
           status == PostStatus::failed;
}

// NULL for an empty list (no fix applied, nothing left out), so such a target reads as it
// always did.
db::Param list_param(const nlohmann::json& list) {
    if (!list.is_array() || list.empty()) return db::Param(nullptr);
    return db::json_text(list);
}

db::Params id_params(const std::set<long long>& ids) {
    return db::Params(ids.begin(), ids.end());
}

// A post as its row lock found it: enough to settle it and to know whether anyone must read it
// whole afterwards.
struct LockedPost {
    PostStatus status = PostStatus::scheduled;
    long long workspace_id = 0;
    bool recycles = false;
};

// Locks the posts' rows in id order; what they held by id (a deleted post is absent).
std::map<long long, LockedPost> lock_posts(db::Session& s, const std::set<long long>& ids) {
    std::map<long long, LockedPost> out;
    if (ids.empty()) return out;
    const auto params = id_params(ids);
    for (const auto& r :
         s.query("SELECT id, status, workspace_id, COALESCE(recycle_interval_hours, 0) > 0"
                 " FROM social_posts WHERE id IN (" +
                     db::placeholders(params.size()) + ") ORDER BY id FOR UPDATE",
                 params))
        out[r.integer(0)] = {stored_value<PostStatus>(r.text(1)), r.integer(2), r.integer(3) != 0};
    return out;
}

// Settles every post of `open` whose targets all ended: status, published_at and its event.
// Returns the settled posts that recycle, as stored. A settled post is read whole only when an
// endpoint hears its event or it recycles: most posts have neither.
std::map<long long, Post> settle(db::Session& s, const std::map<long long, LockedPost>& open) {
    std::map<long long, Post> out;
    if (open.empty()) return out;
    struct Tally {
        int published = 0;
        int failed = 0;
        bool open = false;
        std::optional<time::TimePoint> last_published;
    };
    std::map<long long, Tally> tallies;
    db::Params params;
    for (const auto& [id, locked] : open) params.emplace_back(id);
    // Shared locks: a target being taken up holds one too while it waits for its post's lock.
    // The index is named: with a long list of ids or statistics behind a fast-grown table,
    // MariaDB scanned the whole table.
    for (const auto& r : s.query("SELECT post_id, status, published_at FROM social_post_targets"
                                 " FORCE INDEX (ix_social_post_targets_post) WHERE post_id IN (" +
                                     db::placeholders(params.size()) + ") LOCK IN SHARE MODE",
                                 params)) {
        auto& tally = tallies[r.integer(0)];
        const auto status = stored_value<TargetStatus>(r.text(1));
        if (is_open(status)) {
            tally.open = true;
        } else if (status == TargetStatus::published) {
            ++tally.published;
            const auto at = optional_time_column(r, 2);
            if (at && (!tally.last_published || *at > *tally.last_published))
                tally.last_published = at;
        } else if (status == TargetStatus::failed) {
            ++tally.failed;
        }
    }
    db::Params rows;
    std::map<long long, std::string> events;
    std::set<long long> workspaces;
    for (const auto& [post_id, tally] : tallies) {
        if (tally.open) continue;
        const auto status = tally.published == 0 ? PostStatus::failed
                            : tally.failed == 0  ? PostStatus::published
                                                 : PostStatus::partial;
        rows.insert(rows.end(), {post_id, name_of(status),
                                 tally.last_published ? time_param(*tally.last_published)
                                                      : db::Param(nullptr)});
        events[post_id] = std::string("post.") + name_of(status);
        workspaces.insert(open.at(post_id).workspace_id);
    }
    if (events.empty()) return out;
    rows.push_back(time_param(time::now()));
    s.execute(db::update_from_rows("social_posts p", kSettledRow, events.size()) + kSetSettled,
              rows);
    const auto audience = events::Audience::of(s, workspaces);
    std::vector<long long> read;
    for (const auto& [post_id, event] : events) {
        const auto& locked = open.at(post_id);
        if (locked.recycles || audience.wants(locked.workspace_id, event)) read.push_back(post_id);
    }
    std::vector<events::NewEvent> heard;
    for (auto& post : PostRepository::find_many(s, read)) {
        const auto& event = events.at(post.id);
        if (audience.wants(post.workspace_id, event))
            heard.push_back({post.workspace_id, event, post_event_data(post)});
        if (open.at(post.id).recycles) out.emplace(post.id, std::move(post));
    }
    events::emit_many(s, audience, heard);
    return out;
}

}  // namespace

std::vector<std::optional<PublishWork>> PublishRepository::take_up(
    db::Session& s, const std::vector<long long>& ids) {
    std::vector<std::optional<PublishWork>> out(ids.size());
    if (ids.empty()) return out;
    const std::set<long long> unique(ids.begin(), ids.end());
    const auto params = id_params(unique);
    const auto in_list = db::placeholders(params.size()) + ")";
    // Post locks before the targets' exclusive locks, as outcomes take them, so that the two
    // cannot deadlock. Only locking reads come before the posts are locked: the first plain
    // read fixes the transaction's snapshot, which must not predate a change committed under
    // the post lock we waited for.
    std::set<long long> post_ids;
    for (const auto& r : s.query("SELECT post_id FROM social_post_targets WHERE id IN (" + in_list +
                                     " LOCK IN SHARE MODE",
                                 params))
        post_ids.insert(r.integer(0));
    lock_posts(s, post_ids);

    std::map<long long, PublishWork> found;
    std::set<long long> account_ids;
    for (const auto& r : s.query(kTakeUp + in_list + " FOR UPDATE", params)) {
        PublishWork w;
        w.target_id = r.integer(0);
        w.target_status = stored_value<TargetStatus>(r.text(1));
        w.send_started_at = optional_time_column(r, 2);
        w.scheduled_time = time_column(r, 3);
        w.post.id = r.integer(4);
        w.account.id = r.integer(5);
        account_ids.insert(w.account.id);
        found.emplace(w.target_id, std::move(w));
    }
    // Read, not locked: the send gate locks the accounts at the send time, and a lock here would
    // hold up the gate of every earlier post to the same accounts while later ones are taken up.
    std::map<long long, PublishAccount> accounts;
    if (!account_ids.empty()) {
        const auto account_params = id_params(account_ids);
        for (const auto& r : s.query(
                 kTakeUpAccounts + db::placeholders(account_params.size()) + ")", account_params)) {
            PublishAccount a;
            a.id = r.integer(0);
            a.public_id = r.optional_text(1).value_or("");
            a.platform = r.text(2);
            a.status = stored_value<AccountStatus>(r.text(3));
            a.external_id = r.optional_text(4).value_or("");
            a.display_name = r.optional_text(5).value_or("");
            a.handle = r.optional_text(6).value_or("");
            a.credentials_sealed = r.optional_text(7).value_or("");
            a.token_valid = r.integer(8) != 0;
            a.last_error = r.optional_text(9);
            accounts.emplace(a.id, std::move(a));
        }
    }
    std::map<long long, Post> posts;
    for (auto& p :
         PostRepository::find_many(s, std::vector<long long>(post_ids.begin(), post_ids.end())))
        posts.emplace(p.id, std::move(p));

    db::Params entering;
    std::set<long long> processing;
    for (auto it = found.begin(); it != found.end();) {
        auto& w = it->second;
        const auto post = posts.find(w.post.id);
        if (post == posts.end()) {
            it = found.erase(it);
            continue;
        }
        const auto account = accounts.find(w.account.id);
        if (account == accounts.end()) {
            it = found.erase(it);
            continue;
        }
        w.post = post->second;
        w.account = account->second;
        if (!w.send_started_at && is_open(w.target_status) &&
            w.target_status != TargetStatus::draft) {
            entering.emplace_back(w.target_id);
            processing.insert(w.post.id);
        }
        ++it;
    }
    if (!entering.empty()) {
        const auto now = time_param(time::now());
        db::Params params{name_of(TargetStatus::publishing), name_of(PublishStage::validating),
                          now};
        params.insert(params.end(), entering.begin(), entering.end());
        s.execute(
            "UPDATE social_post_targets SET status = ?, publish_stage = ?, updated_at = ?"
            " WHERE id IN (" +
                db::placeholders(entering.size()) + ")",
            params);
        db::Params post_params{name_of(PostStatus::processing), now,
                               name_of(PostStatus::scheduled)};
        post_params.insert(post_params.end(), processing.begin(), processing.end());
        s.execute(
            "UPDATE social_posts SET status = ?, updated_at = ?"
            " WHERE status = ? AND id IN (" +
                db::placeholders(processing.size()) + ")",
            post_params);
    }
    for (size_t i = 0; i < ids.size(); ++i)
        if (const auto w = found.find(ids[i]); w != found.end()) out[i] = w->second;
    return out;
}

std::vector<bool> PublishRepository::enter_stage(db::Session& s,
                                                 const std::vector<StagedTarget>& targets,
                                                 PublishStage stage) {
    std::vector<bool> out(targets.size(), false);
    if (targets.empty()) return out;
    std::set<long long> post_ids;
    for (const auto& t : targets) post_ids.insert(t.post_id);
    lock_posts(s, post_ids);
    const char* publishing = name_of(TargetStatus::publishing);
    db::Params params;
    for (const auto& t : targets) params.emplace_back(t.target_id);
    params.insert(params.end(),
                  {name_of(TargetStatus::scheduled), name_of(TargetStatus::queued), publishing});
    std::set<long long> open;
    for (const auto& r :
         s.query("SELECT id FROM social_post_targets WHERE id IN (" +
                     db::placeholders(targets.size()) + ") AND status IN (?, ?, ?) FOR UPDATE",
                 params))
        open.insert(r.integer(0));
    if (open.empty()) return out;
    const auto now = time_param(time::now());
    db::Params change{publishing, name_of(stage), now};
    change.insert(change.end(), open.begin(), open.end());
    s.execute(
        "UPDATE social_post_targets SET status = ?, publish_stage = ?, updated_at = ?"
        " WHERE id IN (" +
            db::placeholders(open.size()) + ")",
        change);
    std::set<long long> running;
    for (size_t i = 0; i < targets.size(); ++i)
        if (open.contains(targets[i].target_id)) {
            out[i] = true;
            running.insert(targets[i].post_id);
        }
    db::Params posts{name_of(PostStatus::processing), now};
    posts.insert(posts.end(), running.begin(), running.end());
    posts.emplace_back(name_of(PostStatus::scheduled));
    s.execute("UPDATE social_posts SET status = ?, updated_at = ? WHERE id IN (" +
                  db::placeholders(running.size()) + ") AND status = ?",
              posts);
    return out;
}

std::map<long long, AccountSends> PublishRepository::lock_recent_sends(
    db::Session& s, const std::vector<long long>& account_ids, time::TimePoint now) {
    std::map<long long, AccountSends> out;
    if (account_ids.empty()) return out;
    db::Params ids;
    for (const auto id : account_ids) {
        ids.emplace_back(id);
        out[id];
    }
    for (const auto& r : s.query("SELECT id, cooldown_until FROM social_accounts WHERE id IN (" +
                                     db::placeholders(ids.size()) + ") ORDER BY id FOR UPDATE",
                                 ids))
        out[r.integer(0)].cooldown_until = db::optional_time_column(r, 1);
    const auto day_ago = time_param(now - std::chrono::hours(24));
    const auto hour_ago = now - std::chrono::hours(1);
    db::Params params{name_of(TargetStatus::published), day_ago, name_of(TargetStatus::publishing),
                      day_ago};
    params.insert(params.end(), ids.begin(), ids.end());
    for (const auto& r : s.query(kRecentSends + db::placeholders(ids.size()) + ")", params)) {
        auto& account = out[r.integer(0)];
        const auto at = time_column(r, 2);
        account.by_allowance[r.text(1)].push_back(at);
        if (at > hour_ago) account.any_platform_hour.push_back(at);
    }
    return out;
}

void PublishRepository::cool_down(db::Session& s, long long account_id, time::TimePoint until) {
    s.execute(
        "UPDATE social_accounts SET cooldown_until = ? WHERE id = ?"
        " AND (cooldown_until IS NULL OR cooldown_until < ?)",
        {time_param(until), account_id, time_param(until)});
}

void PublishRepository::mark_sending(db::Session& s, const std::vector<SendMark>& marks,
                                     time::TimePoint at) {
    std::map<std::string, std::vector<long long>> by_allowance;
    for (const auto& mark : marks) by_allowance[mark.allowance].push_back(mark.target_id);
    for (const auto& [allowance, ids] : by_allowance) {
        db::Params params{time_param(at), name_of(PublishStage::publishing), allowance,
                          time_param(at)};
        for (const auto id : ids) params.emplace_back(id);
        s.execute(
            "UPDATE social_post_targets SET send_started_at = ?, publish_stage = ?,"
            " allowance = ?, updated_at = ? WHERE id IN (" +
                db::placeholders(ids.size()) + ")",
            params);
    }
}

void PublishRepository::clear_sending(db::Session& s, long long target_id) {
    s.execute(
        "UPDATE social_post_targets SET send_started_at = NULL, status = ?,"
        " publish_stage = NULL, updated_at = ? WHERE id = ? AND status = ?",
        {name_of(TargetStatus::queued), time_param(time::now()), target_id,
         name_of(TargetStatus::publishing)});
}

std::vector<std::optional<Post>> PublishRepository::record_outcomes(
    db::Session& s, const std::vector<TargetOutcome>& outcomes) {
    std::vector<std::optional<Post>> out(outcomes.size());
    std::set<long long> post_ids;
    for (const auto& o : outcomes) post_ids.insert(o.post_id);
    const auto before = lock_posts(s, post_ids);

    db::Params published;
    db::Params failed;
    for (const auto& o : outcomes) {
        if (o.delivery)
            published.insert(
                published.end(),
                {o.target_id, o.delivery->external_id, db::optional_param(o.delivery->url),
                 time_param(o.delivery->at), list_param(o.transcodes), list_param(o.warnings)});
        else
            failed.insert(failed.end(),
                          {o.target_id, db::json_text(o.error), list_param(o.transcodes)});
    }
    const auto now = time_param(time::now());
    if (!published.empty()) {
        const auto count = published.size() / 6;
        published.insert(published.end(), {name_of(TargetStatus::published), now});
        s.execute(
            db::update_from_rows("social_post_targets t", kPublishedRow, count) + kSetPublished,
            published);
    }
    if (!failed.empty()) {
        const auto count = failed.size() / 3;
        failed.insert(failed.end(),
                      {name_of(TargetStatus::failed), now, name_of(TargetStatus::scheduled),
                       name_of(TargetStatus::queued), name_of(TargetStatus::publishing)});
        s.execute(db::update_from_rows("social_post_targets t", kFailedRow, count) + kSetFailed,
                  failed);
    }

    std::map<long long, LockedPost> unsettled;
    for (const auto& [id, locked] : before)
        if (!has_ended(locked.status)) unsettled.emplace(id, locked);
    auto settled = settle(s, unsettled);
    for (size_t i = 0; i < outcomes.size(); ++i) {
        const auto found = settled.find(outcomes[i].post_id);
        if (found == settled.end()) continue;
        out[i] = std::move(found->second);
        settled.erase(found);
    }
    return out;
}

void fail_abandoned_target(db::Session& s, const jobs::Job& job) {
    const auto target_id = job.payload.value("target_id", 0LL);
    const auto r = s.query_one(
        "SELECT post_id, send_started_at FROM social_post_targets WHERE id = ?", {target_id});
    if (!r) return;
    const bool sent = !r->is_null(1);
    const nlohmann::json attempts = {{"attempts", job.attempts}};
    const nlohmann::json error =
        sent ? target_error(TargetErrorCode::publish_outcome_unknown,
                            "publish outcome unknown: the worker stopped after sending, on "
                            "every attempt; the message is not sent again",
                            attempts)
             : target_error(TargetErrorCode::publish_failed,
                            "The worker publishing this target stopped on every "
                            "attempt before sending.",
                            attempts);
    TargetOutcome outcome;
    outcome.post_id = r->integer(0);
    outcome.target_id = target_id;
    outcome.error = error;
    PublishRepository::record_outcomes(s, {outcome});
}

nlohmann::json post_event_data(const Post& post) {
    nlohmann::json data = post_json(post);
    data["post_id"] = post.id;
    nlohmann::json detail = nlohmann::json::array();
    nlohmann::json transcoded = nlohmann::json::array();
    size_t failed = 0;
    for (const auto& t : post.targets) {
        if (t.transcodes.is_array())
            for (const auto& fix : t.transcodes)
                transcoded.push_back({{"platform", t.platform}, {"fix", fix}});
        if (t.status != TargetStatus::failed) continue;
        ++failed;
        const auto& e = t.error.is_object() ? t.error : nlohmann::json::object();
        detail.push_back({{"account_id", t.account_public_id},
                          {"platform", t.platform},
                          {"code", e.value("code", name_of(TargetErrorCode::publish_failed))},
                          {"message", e.value("message", "")},
                          {"detail", e.contains("detail") ? e["detail"] : nlohmann::json()}});
    }
    if (failed > 0)
        data["error"] =
            target_error(TargetErrorCode::publish_failed,
                         std::to_string(failed) + " of " + std::to_string(post.targets.size()) +
                             " targets were not published.",
                         std::move(detail));
    data["transcoded"] = std::move(transcoded);
    return data;
}

}  // namespace squawk::social
