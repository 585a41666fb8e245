#include "common/social/publish_repository.hpp"

#include "common/db/sql_text.hpp"
#include "common/events/event_outbox.hpp"
#include "common/social/post_repository.hpp"

#include <algorithm>

namespace squawk::social {
namespace {

using db::optional_time_column;
using db::time_column;
using db::time_param;

constexpr const char* kLoad =
    "SELECT t.id, t.status, t.send_started_at, t.scheduled_time, t.post_id, a.id, a.public_id,"
    " a.platform, a.status, a.external_id, a.display_name, a.external_handle, a.credentials_enc"
    " FROM social_post_targets t JOIN social_accounts a ON a.id = t.account_id WHERE t.id = ?";

// Sends that count against the caps: published ones, and ones whose platform call is under way
// (send mark set, no outcome yet). Sandbox posts never reach a platform and do not count.
const std::string kRecentSends =
    "SELECT t.account_id, t.platform, COALESCE(t.published_at, t.send_started_at)"
    " FROM social_post_targets t JOIN social_posts p ON p.id = t.post_id WHERE p.is_test = 0"
    " AND ((t.status = 'published' AND t.published_at > ?) OR"
    " (t.status = 'publishing' AND t.send_started_at > ?)) AND t.account_id IN (";

constexpr const char* kOpenStatuses[] = {target_status::draft, target_status::scheduled,
                                         target_status::queued, target_status::publishing};

bool is_open(const std::string& status) {
    return std::any_of(std::begin(kOpenStatuses), std::end(kOpenStatuses),
                       [&](const char* open) { return status == open; });
}

std::string dump(const nlohmann::json& j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The post row lock that orders the outcomes of one post's targets; its status, or nothing
// when the post is gone.
std::optional<std::string> lock_post(db::Session& s, long long post_id) {
    const auto row =
        s.query_one("SELECT status FROM social_posts WHERE id = ? FOR UPDATE", {post_id});
    if (!row) return std::nullopt;
    return row->text(0);
}

std::optional<SettledPost> settle(db::Session& s, long long post_id,
                                  const std::string& post_status_before) {
    if (post_status_before == post_status::published ||
        post_status_before == post_status::partial || post_status_before == post_status::failed)
        return std::nullopt;
    int published = 0;
    int failed = 0;
    std::optional<time::TimePoint> last_published;
    for (const auto& r : s.query("SELECT status, published_at FROM social_post_targets"
                                 " WHERE post_id = ? FOR UPDATE",
                                 {post_id})) {
        const std::string status = r.text(0);
        if (is_open(status)) return std::nullopt;
        if (status == target_status::published) {
            ++published;
            const auto at = optional_time_column(r, 1);
            if (at && (!last_published || *at > *last_published)) last_published = at;
        } else if (status == target_status::failed) {
            ++failed;
        }
    }
    const char* status = published == 0 ? post_status::failed
                         : failed == 0  ? post_status::published
                                        : post_status::partial;
    s.execute(
        "UPDATE social_posts SET status = ?, published_at = ?, updated_at = ? WHERE id = ?",
        {std::string(status), last_published ? time_param(*last_published) : db::Param(nullptr),
         time_param(time::now()), post_id});
    auto post = PostRepository::find_by_id(s, post_id);
    if (!post) return std::nullopt;
    SettledPost settled{std::move(*post), std::string("post.") + status};
    events::emit(s, settled.post.workspace_id, settled.event, post_event_data(settled.post));
    return settled;
}

}  // namespace

std::optional<PublishWork> PublishRepository::load(db::Session& s, long long target_id) {
    const auto r = s.query_one(kLoad, {target_id});
    if (!r) return std::nullopt;
    PublishWork w;
    w.target_id = r->integer(0);
    w.target_status = r->text(1);
    w.send_started_at = optional_time_column(*r, 2);
    w.scheduled_time = time_column(*r, 3);
    auto post = PostRepository::find_by_id(s, r->integer(4));
    if (!post) return std::nullopt;
    w.post = std::move(*post);
    w.account.id = r->integer(5);
    w.account.public_id = r->optional_text(6).value_or("");
    w.account.platform = r->text(7);
    w.account.status = r->text(8);
    w.account.external_id = r->optional_text(9).value_or("");
    w.account.display_name = r->optional_text(10).value_or("");
    w.account.handle = r->optional_text(11).value_or("");
    w.account.credentials_sealed = r->optional_text(12).value_or("");
    return w;
}

bool PublishRepository::enter_stage(db::Session& s, const PublishWork& work, const char* stage) {
    const auto now = time_param(time::now());
    const auto changed = s.execute(
        "UPDATE social_post_targets SET status = 'publishing', publish_stage = ?, updated_at = ?"
        " WHERE id = ? AND status IN ('scheduled', 'queued', 'publishing')",
        {std::string(stage), now, work.target_id});
    if (changed == 0) return false;
    s.execute(
        "UPDATE social_posts SET status = 'processing', updated_at = ?"
        " WHERE id = ? AND status = 'scheduled'",
        {now, work.post.id});
    return true;
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
    s.query("SELECT id FROM social_accounts WHERE id IN (" + db::placeholders(ids.size()) +
                ") ORDER BY id FOR UPDATE",
            ids);
    const auto day_ago = time_param(now - std::chrono::hours(24));
    const auto hour_ago = now - std::chrono::hours(1);
    db::Params params{day_ago, day_ago};
    params.insert(params.end(), ids.begin(), ids.end());
    for (const auto& r : s.query(kRecentSends + db::placeholders(ids.size()) + ")", params)) {
        auto& account = out[r.integer(0)];
        const auto at = time_column(r, 2);
        account.by_platform[r.text(1)].push_back(at);
        if (at > hour_ago) account.any_platform_hour.push_back(at);
    }
    return out;
}

void PublishRepository::mark_sending(db::Session& s, const std::vector<long long>& target_ids,
                                     time::TimePoint at) {
    if (target_ids.empty()) return;
    db::Params params{time_param(at), time_param(at)};
    for (const auto id : target_ids) params.emplace_back(id);
    s.execute(
        "UPDATE social_post_targets SET send_started_at = ?, publish_stage = 'publishing',"
        " updated_at = ? WHERE id IN (" +
            db::placeholders(target_ids.size()) + ")",
        params);
}

void PublishRepository::clear_sending(db::Session& s, long long target_id) {
    s.execute(
        "UPDATE social_post_targets SET send_started_at = NULL, status = 'queued',"
        " publish_stage = NULL, updated_at = ? WHERE id = ? AND status = 'publishing'",
        {time_param(time::now()), target_id});
}

std::optional<SettledPost> PublishRepository::record_published(
    db::Session& s, const PublishWork& work, const std::string& external_id,
    const std::optional<std::string>& url, time::TimePoint at) {
    const auto post_status_before = lock_post(s, work.post.id);
    s.execute(
        "UPDATE social_post_targets SET status = 'published', publish_stage = NULL,"
        " external_id = ?, url = ?, published_at = ?, error = NULL, updated_at = ?"
        " WHERE id = ?",
        {external_id, url ? db::Param(*url) : db::Param(nullptr), time_param(at),
         time_param(time::now()), work.target_id});
    if (!post_status_before) return std::nullopt;
    return settle(s, work.post.id, *post_status_before);
}

std::optional<SettledPost> PublishRepository::record_failed(db::Session& s, long long post_id,
                                                            long long target_id,
                                                            const nlohmann::json& error) {
    const auto post_status_before = lock_post(s, post_id);
    s.execute(
        "UPDATE social_post_targets SET status = 'failed', publish_stage = NULL, error = ?,"
        " updated_at = ? WHERE id = ? AND status IN ('scheduled', 'queued', 'publishing')",
        {dump(error), time_param(time::now()), target_id});
    if (!post_status_before) return std::nullopt;
    return settle(s, post_id, *post_status_before);
}

void fail_abandoned_target(db::Session& s, const jobs::Job& job) {
    const auto target_id = job.payload.value("target_id", 0LL);
    const auto r = s.query_one(
        "SELECT post_id, send_started_at FROM social_post_targets WHERE id = ?", {target_id});
    if (!r) return;
    const bool sent = !r->is_null(1);
    const nlohmann::json error =
        sent ? nlohmann::json{{"code", "PUBLISH_OUTCOME_UNKNOWN"},
                              {"message",
                               "publish outcome unknown: the worker stopped after sending, on "
                               "every attempt; the message is not sent again"},
                              {"detail", {{"attempts", job.attempts}}}}
             : nlohmann::json{{"code", "PUBLISH_FAILED"},
                              {"message",
                               "The worker publishing this target stopped on every "
                               "attempt before sending."},
                              {"detail", {{"attempts", job.attempts}}}};
    PublishRepository::record_failed(s, r->integer(0), target_id, error);
}

nlohmann::json post_event_data(const Post& post) {
    nlohmann::json data = to_api_json(post);
    data["post_id"] = post.id;
    nlohmann::json detail = nlohmann::json::array();
    nlohmann::json transcoded = nlohmann::json::array();
    size_t failed = 0;
    for (const auto& t : post.targets) {
        if (t.transcodes.is_array())
            for (const auto& fix : t.transcodes)
                transcoded.push_back({{"platform", t.platform}, {"fix", fix}});
        if (t.status != target_status::failed) continue;
        ++failed;
        const auto& e = t.error.is_object() ? t.error : nlohmann::json::object();
        detail.push_back({{"account_id", t.account_public_id},
                          {"platform", t.platform},
                          {"code", e.value("code", "PUBLISH_FAILED")},
                          {"message", e.value("message", "")},
                          {"detail", e.contains("detail") ? e["detail"] : nlohmann::json()}});
    }
    if (failed > 0)
        data["error"] = {
            {"code", "PUBLISH_FAILED"},
            {"message", std::to_string(failed) + " of " + std::to_string(post.targets.size()) +
                            " targets were not published."},
            {"detail", std::move(detail)}};
    data["transcoded"] = std::move(transcoded);
    return data;
}

}  // namespace squawk::social
