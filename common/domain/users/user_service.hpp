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
inline constexpr std::chrono::hours kSessionLifetime{12};

// Emails are compared and stored in lower case.
std::string normalized_email(std::string_view email);

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
};

}  // namespace squawk::users
