#include "common/domain/users/invitations.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/core/error/api_error.hpp"
#include "common/domain/users/user_service.hpp"

namespace squawk::users {
namespace {

constexpr size_t kTokenBytes = 32;
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

ApiError not_open() {
    return ApiError(ErrorCode::NotFound,
                    "This invitation link is not valid: it was used, revoked or has expired. "
                    "Ask the workspace's owner for a new one.");
}

}  // namespace

IssuedInvitation InvitationService::invite(db::Session& s, long long workspace_id,
                                           long long invited_by, std::string_view email,
                                           Role role) {
    nlohmann::json fields = nlohmann::json::object();
    IssuedInvitation issued;
    auto& invitation = issued.invitation;
    invitation.email = normalized_email(email);
    if (!plausible_email(invitation.email))
        fields["email"] = "must be an email address";
    else if (UserRepository::find_by_email(s, invitation.email))
        fields["email"] = "already has a dashboard account";
    if (role == Role::operator_) fields["role"] = "must be owner, developer or viewer";
    if (!fields.empty()) throw validation_error(fields);
    issued.token = crypto::random_token(kTokenBytes);
    invitation.workspace_id = workspace_id;
    invitation.role = role;
    invitation.invited_by = invited_by;
    invitation.created_at = time::now();
    invitation.expires_at = invitation.created_at + kInvitationLifetime;
    s.execute(
        "INSERT INTO dashboard_invitations (token_hash, workspace_id, email, role, invited_by,"
        " created_at, expires_at) VALUES (?,?,?,?,?,?,?)",
        {crypto::sha256_hex(issued.token), workspace_id, invitation.email,
         std::string(role_name(role)), invited_by, db::time_param(invitation.created_at),
         db::time_param(invitation.expires_at)});
    invitation.id = s.last_insert_id();
    return issued;
}

std::vector<Invitation> InvitationService::open_of_workspace(db::Session& s,
                                                             long long workspace_id) {
    std::vector<Invitation> out;
    for (const auto& row : s.query(
             std::string(kColumns) + " WHERE workspace_id = ? AND" + kOpen + " ORDER BY id DESC",
             {workspace_id, db::time_param(time::now())}))
        out.push_back(invitation_of(row));
    return out;
}

bool InvitationService::revoke(db::Session& s, long long workspace_id, long long invitation_id) {
    return s.execute(std::string("UPDATE dashboard_invitations SET revoked_at = ?"
                                 " WHERE id = ? AND workspace_id = ? AND") +
                         kOpen,
                     {db::time_param(time::now()), invitation_id, workspace_id,
                      db::time_param(time::now())}) > 0;
}

std::optional<Invitation> InvitationService::find_open(db::Session& s, std::string_view token) {
    const auto row = s.query_one(std::string(kColumns) + " WHERE token_hash = ? AND" + kOpen,
                                 {crypto::sha256_hex(token), db::time_param(time::now())});
    if (!row) return std::nullopt;
    return invitation_of(*row);
}

User InvitationService::accept(db::Session& s, std::string_view token, std::string_view password) {
    const std::string token_hash = crypto::sha256_hex(token);
    // Locked, so two browsers sending the same link at once make one user, not two.
    const auto row =
        s.query_one(std::string(kColumns) + " WHERE token_hash = ? AND" + kOpen + " FOR UPDATE",
                    {token_hash, db::time_param(time::now())});
    if (!row) throw not_open();
    const auto invitation = invitation_of(*row);
    auto user = UserService::create(
        s, {invitation.workspace_id, invitation.email, invitation.role, std::string(password)});
    s.execute("UPDATE dashboard_invitations SET accepted_at = ? WHERE token_hash = ?",
              {db::time_param(time::now()), token_hash});
    return user;
}

}  // namespace squawk::users
