#include "common/domain/social/group_service.hpp"

#include "common/core/error/api_error.hpp"
#include "common/core/text/concat.hpp"
#include "common/domain/social/account_repository.hpp"

#include <algorithm>

namespace squawk::social {
namespace {

[[noreturn]] void group_not_found() {
    throw ApiError(ErrorCode::NotFound, "No account group with this id.");
}

}  // namespace

std::vector<long long> GroupService::members(db::Session& s, long long workspace_id,
                                             AccountView view,
                                             const std::vector<std::string>& account_ids) const {
    if (account_ids.size() > static_cast<size_t>(settings_.max_accounts_per_group))
        throw validation_error(
            {{"account_ids",
              text::concat({"at most ", std::to_string(settings_.max_accounts_per_group),
                            " accounts per group"})}});
    const auto found = AccountRepository::resolve(s, workspace_id, view, account_ids);
    std::vector<std::string> unknown;
    std::vector<long long> rows;
    for (const auto& id : account_ids) {
        const auto hit =
            std::find_if(found.begin(), found.end(), [&](const auto& f) { return f.first == id; });
        if (hit == found.end())
            unknown.push_back(id);
        else
            rows.push_back(hit->second);
    }
    if (!unknown.empty()) {
        std::string list;
        for (const auto& id : unknown) list.append(list.empty() ? "" : ", ").append(id);
        throw validation_error(
            {{"account_ids", text::concat({"not connected accounts of this workspace: ", list})}});
    }
    return rows;
}

AccountGroup GroupService::create(long long workspace_id, AccountView view,
                                  const GroupChange& change) {
    return mysql_.transaction([&](db::Session& s) {
        if (GroupRepository::count_locked(s, workspace_id) >= settings_.max_groups_per_workspace)
            throw ApiError(ErrorCode::Conflict,
                           "The workspace already has the most account groups allowed.",
                           {{"limit", settings_.max_groups_per_workspace}});
        const auto rows =
            members(s, workspace_id, view, change.account_ids.value_or(std::vector<std::string>{}));
        auto group = GroupRepository::insert(s, workspace_id, change.name.value_or(""));
        GroupRepository::set_members(s, group.id, view, rows);
        return *GroupRepository::find(s, workspace_id, view, group.public_id);
    });
}

GroupPage GroupService::list(long long workspace_id, AccountView view, long long offset,
                             int limit) {
    return mysql_.run([&](db::Session& s) {
        return GroupRepository::list(s, workspace_id, view, offset, limit);
    });
}

AccountGroup GroupService::get(long long workspace_id, AccountView view, const std::string& id) {
    auto group = mysql_.run(
        [&](db::Session& s) { return GroupRepository::find(s, workspace_id, view, id); });
    if (!group) group_not_found();
    return std::move(*group);
}

AccountGroup GroupService::update(long long workspace_id, AccountView view, const std::string& id,
                                  const GroupChange& change) {
    return mysql_.transaction([&](db::Session& s) {
        auto group = GroupRepository::find(s, workspace_id, view, id, true);
        if (!group) group_not_found();
        if (change.account_ids)
            GroupRepository::set_members(s, group->id, view,
                                         members(s, workspace_id, view, *change.account_ids));
        if (change.name) GroupRepository::rename(s, group->id, *change.name);
        return *GroupRepository::find(s, workspace_id, view, id);
    });
}

void GroupService::remove(long long workspace_id, const std::string& id) {
    mysql_.transaction([&](db::Session& s) {
        // Deleting reads no members, so any view finds the group.
        auto group = GroupRepository::find(s, workspace_id, AccountView::live, id, true);
        if (!group) group_not_found();
        GroupRepository::remove(s, group->id);
    });
}

}  // namespace squawk::social
