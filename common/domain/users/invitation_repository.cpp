#include "common/domain/users/invitation_repository.hpp"

#include "common/core/db/sql_text.hpp"

namespace squawk::users {
namespace {

constexpr const char* kColumns =
    "SELECT id, workspace_id, email, role, invited_by, created_at, expires_at"
    " FROM dashboard_invitations";
constexpr const char* kOpen = " accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?";

Invitation invitation_of(const db::Row& row) {
    Invitation i;
    i.id = row.integer(0);
    i.workspace_id = row.integer(1);
    i.email = row.text(2);
    i.role = parse_role(row.text(3)).value_or(Role::viewer);
    i.invited_by = row.integer(4);
    i.created_at = db::time_column(row, 5);
    i.expires_at = db::time_column(row, 6);
    return i;
}

// The invitation of `token_hash` open at `at`; `suffix` ends the statement.
std::optional<Invitation> open_by_token(db::Session& s, std::string_view token_hash,
                                        time::TimePoint at, const char* suffix) {
    const auto row =
        s.query_one(std::string(kColumns) + " WHERE token_hash = ? AND" + kOpen + suffix,
                    {std::string(token_hash), db::time_param(at)});
    if (!row) return std::nullopt;
    return invitation_of(*row);
}

}  // namespace

void InvitationRepository::insert(db::Session& s, Invitation& invitation,
                                  std::string_view token_hash) {
    invitation.id = s.insert(
        "INSERT INTO dashboard_invitations (token_hash, workspace_id, email, role, invited_by,"
        " created_at, expires_at) VALUES (?,?,?,?,?,?,?)",
        {std::string(token_hash), invitation.workspace_id, invitation.email,
         std::string(role_name(invitation.role)), invitation.invited_by,
         db::time_param(invitation.created_at), db::time_param(invitation.expires_at)});
}

std::vector<Invitation> InvitationRepository::open_of_workspace(db::Session& s,
                                                                long long workspace_id,
                                                                time::TimePoint at) {
    std::vector<Invitation> out;
    for (const auto& row : s.query(
             std::string(kColumns) + " WHERE workspace_id = ? AND" + kOpen + " ORDER BY id DESC",
             {workspace_id, db::time_param(at)}))
        out.push_back(invitation_of(row));
    return out;
}

std::optional<Invitation> InvitationRepository::find_open(db::Session& s,
                                                          std::string_view token_hash,
                                                          time::TimePoint at) {
    return open_by_token(s, token_hash, at, "");
}

std::optional<Invitation> InvitationRepository::lock_open(db::Session& s,
                                                          std::string_view token_hash,
                                                          time::TimePoint at) {
    return open_by_token(s, token_hash, at, " FOR UPDATE");
}

bool InvitationRepository::revoke(db::Session& s, long long workspace_id, long long invitation_id,
                                  time::TimePoint at) {
    return s.execute(std::string("UPDATE dashboard_invitations SET revoked_at = ?"
                                 " WHERE id = ? AND workspace_id = ? AND") +
                         kOpen,
                     {db::time_param(at), invitation_id, workspace_id, db::time_param(at)}) > 0;
}

void InvitationRepository::mark_accepted(db::Session& s, std::string_view token_hash,
                                         time::TimePoint at) {
    s.execute("UPDATE dashboard_invitations SET accepted_at = ? WHERE token_hash = ?",
              {db::time_param(at), std::string(token_hash)});
}

}  // namespace squawk::users
