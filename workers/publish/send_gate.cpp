#include "workers/publish/send_gate.hpp"

#include "common/domain/social/publish_repository.hpp"

#include <set>

namespace squawk::workers::publish {

std::vector<SendDecision> admit_sends(db::Session& s, const std::vector<SendRequest>& batch) {
    std::vector<SendDecision> decisions(batch.size());
    std::set<long long> account_ids;
    for (const auto& r : batch) account_ids.insert(r.account_id);
    const auto now = time::now();
    auto sends = social::PublishRepository::lock_recent_sends(
        s, std::vector<long long>(account_ids.begin(), account_ids.end()), now);
    std::vector<social::SendMark> marks;
    for (size_t i = 0; i < batch.size(); ++i) {
        const auto& r = batch[i];
        auto& account = sends[r.account_id];
        social::RecentSends view;
        view.any_platform_hour = account.any_platform_hour;
        view.same_platform_day = account.by_allowance[r.allowance];
        if (!r.sandbox && account.cooldown_until && *account.cooldown_until > now) {
            decisions[i].cooldown_until = account.cooldown_until;
            continue;
        }
        decisions[i].cap = social::check_caps(r.allowance, view, now);
        if (decisions[i].cap || r.sandbox) continue;
        account.any_platform_hour.push_back(now);
        account.by_allowance[r.allowance].push_back(now);
        marks.push_back({r.target_id, r.allowance});
    }
    social::PublishRepository::mark_sending(s, marks, now);
    return decisions;
}

}  // namespace squawk::workers::publish
