// Invitations to a workspace's dashboard as rows, found by the SHA-256 of their token: SQL in,
// domain types out. Tokens, lifetimes and who may be invited are InvitationService's to decide.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/users/user_repository.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::users {

struct Invitation {
    long long id = 0;
    long long workspace_id = 0;
    std::string email;
    Role role = Role::viewer;
    long long invited_by = 0;
    time::TimePoint created_at;
    time::TimePoint expires_at;
};

// "Open" at a time: neither accepted nor revoked, and not expired then.
class InvitationRepository {
  public:
    // Sets invitation.id.
    static void insert(db::Session& s, Invitation& invitation, std::string_view token_hash);
    // Newest first.
    static std::vector<Invitation> open_of_workspace(db::Session& s, long long workspace_id,
                                                     time::TimePoint at);
    static std::optional<Invitation> find_open(db::Session& s, std::string_view token_hash,
                                               time::TimePoint at);
    // As find_open, locking the row until the transaction ends.
    static std::optional<Invitation> lock_open(db::Session& s, std::string_view token_hash,
                                               time::TimePoint at);
    // False when the workspace has no invitation with this id open at `at`.
    static bool revoke(db::Session& s, long long workspace_id, long long invitation_id,
                       time::TimePoint at);
    static void mark_accepted(db::Session& s, std::string_view token_hash, time::TimePoint at);
};

}  // namespace squawk::users
