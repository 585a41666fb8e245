// Invitations to join a workspace: an owner names an email and a role, the invitee follows a
// link holding a random single-use token (only its SHA-256 is stored) and chooses a password.
// A token works once, for seven days, unless revoked.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/users/invitation_repository.hpp"
#include "common/domain/users/user_repository.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::users {

inline constexpr std::chrono::hours kInvitationLifetime{24 * 7};

struct IssuedInvitation {
    Invitation invitation;
    std::string token;  // for the link; not kept
};

class InvitationService {
  public:
    // Throws ApiError VALIDATION_ERROR naming email (shape, or already a dashboard user) or role
    // (operators are not invited).
    static IssuedInvitation invite(db::Session& s, long long workspace_id, long long invited_by,
                                   std::string_view email, Role role);
    // The workspace's invitations not used, revoked or expired, newest first.
    static std::vector<Invitation> open_of_workspace(db::Session& s, long long workspace_id);
    // False when the workspace has no open invitation with this id.
    static bool revoke(db::Session& s, long long workspace_id, long long invitation_id);
    // The open invitation of `token`; nothing for a used, revoked, expired or unknown one.
    static std::optional<Invitation> find_open(db::Session& s, std::string_view token);
    // Creates the invitation's user with `password` and uses the token up. Throws ApiError
    // NOT_FOUND when the token is not open (as find_open), VALIDATION_ERROR as UserService::create.
    static User accept(db::Session& s, std::string_view token, std::string_view password);
};

}  // namespace squawk::users
