#include "common/domain/events/event_audience.hpp"

#include "common/core/db/sql_text.hpp"
#include "common/domain/webhooks/statuses.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace squawk::events {

Audience Audience::of(db::Session& s, const std::set<long long>& workspaces) {
    Audience audience;
    if (workspaces.empty()) return audience;
    db::Params ids(workspaces.begin(), workspaces.end());
    for (const auto& r : s.query("SELECT workspace_id, owner_workspace_id, id FROM profiles"
                                 " WHERE workspace_id IN (" +
                                     db::placeholders(ids.size()) + ")",
                                 ids))
        audience.owners_[r.integer(0)] = {r.integer(1), r.integer(2)};
    std::set<long long> all = workspaces;
    for (const auto& [profile_workspace, owner] : audience.owners_) all.insert(owner.workspace_id);
    db::Params params{name_of(webhooks::EndpointStatus::active),
                      name_of(webhooks::EndpointStatus::failing)};
    params.insert(params.end(), all.begin(), all.end());
    for (const auto& r : s.query("SELECT id, workspace_id, status, events FROM webhook_endpoints"
                                 " WHERE status IN (?, ?) AND workspace_id IN (" +
                                     db::placeholders(all.size()) + ")",
                                 params)) {
        Subscriber sub{
            r.integer(0),
            r.integer(1),
            stored_value<webhooks::EndpointStatus>(r.text(2)) == webhooks::EndpointStatus::failing,
            {}};
        const auto names = nlohmann::json::parse(r.text(3), nullptr, false);
        if (names.is_array())
            for (const auto& n : names)
                if (n.is_string()) sub.events.insert(n.get<std::string>());
        audience.subscribers_[sub.workspace_id].push_back(std::move(sub));
    }
    return audience;
}

const std::vector<Subscriber>& Audience::own(long long workspace_id) const {
    static const std::vector<Subscriber> none;
    const auto it = subscribers_.find(workspace_id);
    return it == subscribers_.end() ? none : it->second;
}

std::optional<ProfileOwner> Audience::owner(long long workspace_id) const {
    const auto it = owners_.find(workspace_id);
    if (it == owners_.end()) return std::nullopt;
    return it->second;
}

bool Audience::wants(long long workspace_id, std::string_view name) const {
    const auto subscribed = [&](long long ws) {
        return std::ranges::any_of(
            own(ws), [&](const Subscriber& sub) { return sub.events.contains(name); });
    };
    if (subscribed(workspace_id)) return true;
    const auto profile_owner = owner(workspace_id);
    return profile_owner && subscribed(profile_owner->workspace_id);
}

}  // namespace squawk::events
