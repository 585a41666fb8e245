#include "common/domain/social/group_repository.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/db/row_mapper.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/domain/social/account_status.hpp"

namespace squawk::social {
namespace {

using db::time_param;

// Whole literals: GCC 12 warns (-Warray-bounds) on chains of std::string concatenation.
constexpr const char* kFindGroup =
    "SELECT id, public_id, workspace_id, name, created_at, updated_at FROM account_groups"
    " WHERE public_id = ? AND workspace_id = ?";
constexpr const char* kFindGroupForUpdate =
    "SELECT id, public_id, workspace_id, name, created_at, updated_at FROM account_groups"
    " WHERE public_id = ? AND workspace_id = ? FOR UPDATE";
constexpr const char* kListPage =
    "SELECT id, public_id, workspace_id, name, created_at, updated_at FROM account_groups"
    " WHERE workspace_id = ? ORDER BY id LIMIT ? OFFSET ?";

const db::RowMapper<AccountGroup> kGroupRows{db::field<&AccountGroup::id>("id"),
                                             db::field<&AccountGroup::public_id>("public_id"),
                                             db::field<&AccountGroup::workspace_id>("workspace_id"),
                                             db::field<&AccountGroup::name>("name"),
                                             db::field<&AccountGroup::created_at>("created_at"),
                                             db::field<&AccountGroup::updated_at>("updated_at")};

void load_members(db::Session& s, AccountView view, AccountGroup& g) {
    g.account_ids.clear();
    // Members are connected accounts of the group's workspace; others were moved or removed.
    for (const auto& r :
         s.query("SELECT a.public_id FROM account_group_members m"
                 " JOIN social_accounts a ON a.id = m.account_id"
                 " WHERE m.group_id = ? AND a.workspace_id = ? AND a.status = ?"
                 " AND a.sandbox IN (0, ?) ORDER BY m.created_at, a.id",
                 {g.id, g.workspace_id, name_of(AccountStatus::connected), sandbox_param(view)}))
        g.account_ids.push_back(r.text(0));
}

}  // namespace

long long GroupRepository::count_locked(db::Session& s, long long workspace_id) {
    s.query("SELECT id FROM workspaces WHERE id = ? FOR UPDATE", {workspace_id});
    return s
        .query_one("SELECT COUNT(*) FROM account_groups WHERE workspace_id = ?", {workspace_id})
        ->integer(0);
}

AccountGroup GroupRepository::insert(db::Session& s, long long workspace_id,
                                     const std::string& name) {
    AccountGroup g;
    g.public_id = "grp_" + crypto::hex(crypto::random_bytes(12));
    g.workspace_id = workspace_id;
    g.name = name;
    g.created_at = g.updated_at = time::now();
    g.id = s.insert(
        "INSERT INTO account_groups (public_id, workspace_id, name, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?)",
        {g.public_id, workspace_id, name, time_param(g.created_at), time_param(g.updated_at)});
    return g;
}

std::optional<AccountGroup> GroupRepository::find(db::Session& s, long long workspace_id,
                                                  AccountView view, const std::string& public_id,
                                                  bool for_update) {
    auto g = kGroupRows.first(
        s.select(for_update ? kFindGroupForUpdate : kFindGroup, {public_id, workspace_id}));
    if (g) load_members(s, view, *g);
    return g;
}

GroupPage GroupRepository::list(db::Session& s, long long workspace_id, AccountView view,
                                long long offset, int limit) {
    GroupPage page;
    page.total =
        s.query_one("SELECT COUNT(*) FROM account_groups WHERE workspace_id = ?", {workspace_id})
            ->integer(0);
    page.items =
        kGroupRows.all(s.select(kListPage, {workspace_id, static_cast<long long>(limit), offset}));
    for (auto& g : page.items) load_members(s, view, g);
    return page;
}

void GroupRepository::rename(db::Session& s, long long id, const std::string& name) {
    s.execute("UPDATE account_groups SET name = ?, updated_at = ? WHERE id = ?",
              {name, time_param(time::now()), id});
}

void GroupRepository::set_members(db::Session& s, long long id, AccountView view,
                                  const std::vector<long long>& account_row_ids) {
    s.execute(
        "DELETE m FROM account_group_members m JOIN social_accounts a ON a.id = m.account_id"
        " WHERE m.group_id = ? AND a.sandbox IN (0, ?)",
        {id, sandbox_param(view)});
    if (!account_row_ids.empty()) {
        const auto now = time_param(time::now());
        std::string sql =
            "INSERT INTO account_group_members (group_id, account_id, created_at) VALUES ";
        db::Params params;
        for (size_t i = 0; i < account_row_ids.size(); ++i) {
            sql += i == 0 ? "(?, ?, ?)" : ", (?, ?, ?)";
            params.insert(params.end(), {id, account_row_ids[i], now});
        }
        s.execute(sql, params);
    }
    s.execute("UPDATE account_groups SET updated_at = ? WHERE id = ?",
              {time_param(time::now()), id});
}

void GroupRepository::remove(db::Session& s, long long id) {
    s.execute("DELETE FROM account_group_members WHERE group_id = ?", {id});
    s.execute("DELETE FROM account_groups WHERE id = ?", {id});
}

}  // namespace squawk::social
