#include "common/domain/profiles/profile_repository.hpp"

#include "common/core/db/row_mapper.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/domain/workspace/workspace_repository.hpp"

namespace squawk::profiles {
namespace {

const db::RowMapper<Profile> kProfileRows{
    db::field<&Profile::id>("id"),
    db::field<&Profile::workspace_id>("workspace_id"),
    db::field<&Profile::owner_workspace_id>("owner_workspace_id"),
    db::field<&Profile::name>("name"),
    db::field<&Profile::external_id>("external_id"),
    db::field<&Profile::status>("status"),
    db::field<&Profile::paused_for_billing>("paused_for_billing"),
    db::field<&Profile::created_at>("created_at")};

}  // namespace

Profile ProfileRepository::create(db::Session& s, long long owner_workspace_id,
                                  const std::string& name,
                                  const std::optional<std::string>& external_id) {
    const auto ws = workspace::WorkspaceRepository::create(s, name, owner_workspace_id);
    Profile p;
    p.workspace_id = ws.id;
    p.owner_workspace_id = owner_workspace_id;
    p.name = name;
    p.external_id = external_id;
    p.created_at = ws.created_at;
    p.id = s.insert(
        "INSERT INTO profiles (workspace_id, owner_workspace_id, name, external_id, status,"
        " paused_for_billing, created_at) VALUES (?,?,?,?,?,?,?)",
        {p.workspace_id, owner_workspace_id, name, db::optional_param(external_id), p.status, false,
         db::time_param(p.created_at)});
    return p;
}

std::optional<Profile> ProfileRepository::find(db::Session& s, long long owner_workspace_id,
                                               long long id) {
    return kProfileRows.first(s.select("SELECT " + kProfileRows.select_list() +
                                           " FROM profiles WHERE id = ? AND owner_workspace_id = ?",
                                       {id, owner_workspace_id}));
}

ProfilePage ProfileRepository::list(db::Session& s, long long owner_workspace_id, long long offset,
                                    int limit) {
    ProfilePage page;
    page.total = s.query_one("SELECT COUNT(*) FROM profiles WHERE owner_workspace_id = ?",
                             {owner_workspace_id})
                     ->integer(0);
    page.items = kProfileRows.all(
        s.select("SELECT " + kProfileRows.select_list() +
                     " FROM profiles WHERE owner_workspace_id = ? ORDER BY id LIMIT ? OFFSET ?",
                 {owner_workspace_id, static_cast<long long>(limit), offset}));
    return page;
}

std::optional<Profile> ProfileRepository::update(db::Session& s, long long owner_workspace_id,
                                                 long long id, const ProfileChanges& changes) {
    auto found = find(s, owner_workspace_id, id);
    if (!found) return std::nullopt;
    if (changes.name) found->name = *changes.name;
    if (changes.set_external_id) found->external_id = changes.external_id;
    s.execute("UPDATE profiles SET name = ?, external_id = ? WHERE id = ?",
              {found->name, db::optional_param(found->external_id), id});
    if (changes.name)
        s.execute("UPDATE workspaces SET name = ? WHERE id = ?",
                  {found->name, found->workspace_id});
    return found;
}

std::optional<Profile> ProfileRepository::set_paused(db::Session& s, long long owner_workspace_id,
                                                     long long id, bool paused) {
    auto found = find(s, owner_workspace_id, id);
    if (!found) return std::nullopt;
    found->paused_for_billing = paused;
    found->status = paused ? "paused" : "active";
    s.execute("UPDATE profiles SET paused_for_billing = ?, status = ? WHERE id = ?",
              {paused, found->status, id});
    return found;
}

bool ProfileRepository::remove(db::Session& s, long long owner_workspace_id, long long id) {
    return s.execute("DELETE FROM profiles WHERE id = ? AND owner_workspace_id = ?",
                     {id, owner_workspace_id}) > 0;
}

}  // namespace squawk::profiles
