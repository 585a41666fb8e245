// What the dashboard's people may do: who is created with which role, who signs in, how long a
// session lasts. Sessions are ids in cookies whose SHA-256 alone is stored, so a copy of the
// database cannot be replayed as a browser.
#pragma once

#include "common/domain/users/user_repository.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace squawk::users {

inline constexpr size_t kMinPasswordBytes = 12;
inline constexpr size_t kMaxPasswordBytes = 1024;
// A session ends after this long without a request, and in any case this long after sign-in.
inline constexpr std::chrono::minutes kSessionIdle{30};
// How stale a session's last_seen_at may get before a request records it again.
inline constexpr std::chrono::minutes kSessionTouchInterval{1};
inline constexpr std::chrono::hours kSessionLifetime{12};
// How long a right password waits for its second-factor code.
inline constexpr std::chrono::minutes kSignInChallengeLifetime{5};

// Emails are compared and stored in lower case.
std::string normalized_email(std::string_view email);
// One '@' with something on both sides, no spaces or controls, at most 254 bytes.
bool plausible_email(std::string_view email);
bool acceptable_password(std::string_view password);
// What acceptable_password asks, as a field's problem: "must be from 12 to 1024 bytes".
std::string password_rule();

struct NewUser {
    std::optional<long long> workspace_id;  // required for workspace roles, absent for operators
    std::string email;
    Role role = Role::viewer;
    std::string password;
};

// A session as its browser holds it: the id goes in the cookie, the token in every form.
struct StartedSession {
    std::string id;
    std::string csrf_token;
};

struct SignedIn {
    User user;
    std::string csrf_token;
    std::string workspace_name;  // empty for operators
};

class UserService {
  public:
    // Throws ApiError VALIDATION_ERROR naming the fields at fault (email shape or already taken,
    // password length, a workspace that does not exist, a role that does not fit).
    static User create(db::Session& s, const NewUser& request);
    // The user whose password this is; nothing otherwise, after the same work either way.
    static std::optional<User> authenticate(db::Session& s, std::string_view email,
                                            std::string_view password);
    // A new session id for `user`; the session `replaced_id` names (the browser's previous one,
    // if any) ends, so an id planted before sign-in is worth nothing after it.
    static StartedSession start_session(db::Session& s, const User& user,
                                        std::optional<std::string_view> replaced_id);
    // The signed-in user of a live session, which counts as seen now; nothing for an unknown,
    // idle or expired session (which is removed).
    static std::optional<SignedIn> resume(db::Session& s, std::string_view session_id);
    static void end_session(db::Session& s, std::string_view session_id);

    // Throws ApiError VALIDATION_ERROR naming current_password (not right) or new_password
    // (length). Every session of the user ends: a stolen session does not outlive the change.
    static void change_password(db::Session& s, const User& user, std::string_view current,
                                std::string_view replacement);
    // Removes a user of `workspace_id` with their sessions; false when the workspace has no user
    // with this id (another workspace's user included).
    static bool remove_member(db::Session& s, long long workspace_id, long long user_id);

    // A right password whose second factor is still awaited: the id its browser holds.
    static std::string start_challenge(db::Session& s, const User& user);
    // The user of a challenge that has not expired.
    static std::optional<User> challenged(db::Session& s, std::string_view challenge_id);
    static void end_challenge(db::Session& s, std::string_view challenge_id);
};

}  // namespace squawk::users
