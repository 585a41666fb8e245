// What the account-group routes do: groups of a workspace's connected accounts, at most
// social.max_groups_per_workspace groups of social.max_accounts_per_group accounts. Raises
// ApiError; returns domain types. Members are those the key's AccountView sees.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/social/group_repository.hpp"
#include "common/domain/social/social_settings.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace squawk::social {

struct GroupChange {
    std::optional<std::string> name;
    std::optional<std::vector<std::string>> account_ids;  // replaces the members when given
};

class GroupService {
  public:
    GroupService(db::MysqlPool& mysql, const config::SocialSettings& settings)
        : mysql_(mysql), settings_(settings) {}

    AccountGroup create(long long workspace_id, AccountView view, const GroupChange& change);
    GroupPage list(long long workspace_id, AccountView view, long long offset, int limit);
    AccountGroup get(long long workspace_id, AccountView view, const std::string& id);
    AccountGroup update(long long workspace_id, AccountView view, const std::string& id,
                        const GroupChange& change);
    void remove(long long workspace_id, const std::string& id);

  private:
    // Row ids of `account_ids`, all connected accounts of the workspace the view sees, else a
    // 422.
    std::vector<long long> members(db::Session& s, long long workspace_id, AccountView view,
                                   const std::vector<std::string>& account_ids) const;

    db::MysqlPool& mysql_;
    const config::SocialSettings& settings_;
};

}  // namespace squawk::social
