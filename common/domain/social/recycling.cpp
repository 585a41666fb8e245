#include "common/domain/social/recycling.hpp"

namespace squawk::social {

std::optional<NewPost> next_occurrence(const Post& post) {
    if (!post.recycle || post.recycle->interval_hours <= 0 || post.targets.empty())
        return std::nullopt;
    const auto& rule = *post.recycle;
    const int count = post.recycle_count + 1;
    if (rule.max_repeats && count > *rule.max_repeats) return std::nullopt;
    const auto interval = std::chrono::hours(rule.interval_hours);

    NewPost next;
    static_cast<PostFields&>(next) = post;
    next.recycle_count = count;
    next.recycle_parent_id = post.recycle_parent_id.value_or(post.id);
    for (const auto& t : post.targets) {
        if (t.status == TargetStatus::cancelled) continue;
        const auto at = t.scheduled_time + interval;
        if (rule.until && at > *rule.until) return std::nullopt;
        next.targets.push_back(NewTarget{t.account_id, t.account_public_id, t.platform, at});
    }
    if (next.targets.empty()) return std::nullopt;
    return next;
}

}  // namespace squawk::social
