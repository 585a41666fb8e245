// SQL for account groups: tenant-scoped groups of connected accounts, with the per-workspace
// count taken under a lock so two creates cannot both pass the limit. Members are read and
// replaced as the key's AccountView sees them: a live key never sees a sandbox member.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/social/account_repository.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::social {

struct AccountGroup {
    long long id = 0;
    std::string public_id;
    long long workspace_id = 0;
    std::string name;
    std::vector<std::string> account_ids;  // public ids of the connected members
    time::TimePoint created_at;
    time::TimePoint updated_at;
};

struct GroupPage {
    std::vector<AccountGroup> items;
    long long total = 0;
};

class GroupRepository {
  public:
    // Locks the workspace row, then counts its groups.
    static long long count_locked(db::Session& s, long long workspace_id);
    static AccountGroup insert(db::Session& s, long long workspace_id, const std::string& name);
    static std::optional<AccountGroup> find(db::Session& s, long long workspace_id,
                                            AccountView view, const std::string& public_id,
                                            bool for_update = false);
    static GroupPage list(db::Session& s, long long workspace_id, AccountView view,
                          long long offset, int limit);
    static void rename(db::Session& s, long long id, const std::string& name);
    // Replaces the members the view sees with `account_row_ids`; members it does not see stay.
    static void set_members(db::Session& s, long long id, AccountView view,
                            const std::vector<long long>& account_row_ids);
    static void remove(db::Session& s, long long id);
};

}  // namespace squawk::social
