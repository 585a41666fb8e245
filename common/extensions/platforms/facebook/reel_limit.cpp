#include "common/extensions/platforms/facebook/reel_limit.hpp"

#include "common/core/db/sql_text.hpp"
#include "common/core/error/api_error.hpp"

#include <algorithm>

namespace squawk::social::facebook {
namespace {

constexpr std::chrono::hours kWindow{24};

// The post type lives in the post's platform_options.facebook.post_type, as the client sent it.
bool is_reel(const nlohmann::json& options) {
    if (!options.is_object() || !options.contains("facebook")) return false;
    const auto& facebook = options["facebook"];
    return facebook.is_object() && facebook.value("post_type", nlohmann::json()) == "reel";
}

}  // namespace

std::vector<time::TimePoint> ReelLimitRepository::recent_reels(db::Session& s, long long account_id,
                                                               time::TimePoint since,
                                                               long long except_post_id) {
    std::vector<time::TimePoint> out;
    const auto rows = s.query(
        "SELECT COALESCE(t.published_at, t.send_started_at, t.updated_at), p.platform_options"
        " FROM social_post_targets t JOIN social_posts p ON p.id = t.post_id"
        " WHERE t.account_id = ? AND t.platform = 'facebook' AND t.post_id <> ?"
        " AND ((t.status = 'published' AND t.published_at > ?) OR t.status = 'publishing')",
        {account_id, except_post_id, db::time_param(since)});
    for (const auto& row : rows)
        if (is_reel(db::json_column(row, 1))) out.push_back(db::time_column(row, 0));
    return out;
}

ReelUsage reel_usage(db::Session& s, long long account_id, time::TimePoint now,
                     long long except_post_id) {
    auto sends = ReelLimitRepository::recent_reels(s, account_id, now - kWindow, except_post_id);
    ReelUsage usage;
    usage.used = static_cast<int>(sends.size());
    usage.remaining = std::max(0, usage.limit - usage.used);
    usage.next_available_at = now;
    if (usage.remaining == 0) {
        // With `limit` slots and n used, the (n - limit + 1)th oldest must leave the window.
        std::sort(sends.begin(), sends.end());
        usage.next_available_at =
            std::max(now, sends[sends.size() - static_cast<size_t>(usage.limit)] + kWindow);
    }
    return usage;
}

void check_reel_limit(db::Session& s,
                      const std::vector<std::pair<std::string, long long>>& accounts,
                      std::string_view post_type, time::TimePoint now, long long except_post_id) {
    if (post_type != "reel") return;
    for (const auto& [public_id, id] : accounts) {
        const auto usage = reel_usage(s, id, now, except_post_id);
        if (usage.remaining > 0) continue;
        throw ApiError(ErrorCode::PlatformDailyLimitReached,
                       "This Facebook Page has published " + std::to_string(usage.used) +
                           " reels in the last 24 hours, Facebook's limit; the next one fits at " +
                           time::format_iso8601(usage.next_available_at) + ".",
                       {{"account_id", public_id},
                        {"limit", usage.limit},
                        {"used", usage.used},
                        {"next_available_at", time::format_iso8601(usage.next_available_at)}});
    }
}

void admit_post(db::Session& s, const PostAdmission& post) {
    check_reel_limit(s, post.accounts, post.post_type, post.now, post.post_id);
}

}  // namespace squawk::social::facebook
