#include "common/domain/users/invitations.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/error/api_error.hpp"
#include "common/domain/users/user_service.hpp"

namespace squawk::users {
namespace {

constexpr size_t kTokenBytes = 32;

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
    InvitationRepository::insert(s, invitation, crypto::sha256_hex(issued.token));
    return issued;
}

std::vector<Invitation> InvitationService::open_of_workspace(db::Session& s,
                                                             long long workspace_id) {
    return InvitationRepository::open_of_workspace(s, workspace_id, time::now());
}

bool InvitationService::revoke(db::Session& s, long long workspace_id, long long invitation_id) {
    return InvitationRepository::revoke(s, workspace_id, invitation_id, time::now());
}

std::optional<Invitation> InvitationService::find_open(db::Session& s, std::string_view token) {
    return InvitationRepository::find_open(s, crypto::sha256_hex(token), time::now());
}

User InvitationService::accept(db::Session& s, std::string_view token, std::string_view password) {
    const std::string token_hash = crypto::sha256_hex(token);
    // Locked, so two browsers sending the same link at once make one user, not two.
    const auto invitation = InvitationRepository::lock_open(s, token_hash, time::now());
    if (!invitation) throw not_open();
    auto user = UserService::create(
        s, {invitation->workspace_id, invitation->email, invitation->role, std::string(password)});
    InvitationRepository::mark_accepted(s, token_hash, time::now());
    return user;
}

}  // namespace squawk::users
