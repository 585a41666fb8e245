// Dashboard users and their sessions as rows: SQL in, domain types out. What is
// allowed (roles, expiry, passwords) is decided by UserService.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::users {

// owner, developer and viewer belong to one workspace; an operator runs the whole server.
enum class Role { owner, developer, viewer, operator_ };

std::string_view role_name(Role role);
std::optional<Role> parse_role(std::string_view name);

struct User {
    long long id = 0;
    std::optional<long long> workspace_id;  // nothing for operators
    std::string email;                      // lower case
    Role role = Role::viewer;
    std::string password_hash;
    time::TimePoint created_at;
};

struct SessionRecord {
    std::string id_hash;  // SHA-256 of the cookie's session id
    long long user_id = 0;
    std::string csrf_token;
    time::TimePoint created_at;
    time::TimePoint last_seen_at;
    time::TimePoint expires_at;
};

// A session found with its user and the name of the user's workspace (empty for operators).
struct SessionOfUser {
    SessionRecord session;
    User user;
    std::string workspace_name;
};

class UserRepository {
  public:
    // Sets user.id; throws db::DatabaseError on a duplicate email.
    static void insert(db::Session& s, User& user);
    static std::optional<User> find_by_email(db::Session& s, std::string_view email);
    static std::optional<User> find(db::Session& s, long long id);
    // The workspace's users, oldest first.
    static std::vector<User> list_of_workspace(db::Session& s, long long workspace_id);
    static void set_password(db::Session& s, long long id, std::string_view password_hash,
                             time::TimePoint changed_at);
    // Whether a user was removed; their sessions and pending sign-ins are the caller's to end.
    static bool remove(db::Session& s, long long id);
};

// A user's second factor as stored: secrets sealed with security.secret_key.
struct TotpRecord {
    std::optional<std::string> sealed_secret;          // enabled when present
    std::optional<std::string> sealed_pending_secret;  // an enrollment awaiting its first code
    std::optional<long long> last_step;                // the last step whose code was accepted
};

class TotpRepository {
  public:
    static TotpRecord find(db::Session& s, long long user_id);
    static void set_pending(db::Session& s, long long user_id, const std::string& sealed);
    // The pending secret becomes the enabled one, its first code's step counted as used.
    static void enable(db::Session& s, long long user_id, const std::string& sealed,
                       long long step);
    static void disable(db::Session& s, long long user_id);
    // Marks `step` used unless it or a later one already was: false means a replayed code.
    static bool claim_step(db::Session& s, long long user_id, long long step);
};

class SessionRepository {
  public:
    static void insert(db::Session& s, const SessionRecord& session);
    static std::optional<SessionOfUser> find(db::Session& s, std::string_view id_hash);
    static void touch(db::Session& s, std::string_view id_hash, time::TimePoint seen_at);
    static void remove(db::Session& s, std::string_view id_hash);
    static void remove_all_of(db::Session& s, long long user_id);
};

// Sign-ins waiting for a second-factor code, found by the SHA-256 of the id the browser holds.
class SignInChallengeRepository {
  public:
    static void insert(db::Session& s, std::string_view id_hash, long long user_id,
                       time::TimePoint expires_at);
    // The user of a challenge that has not expired.
    static std::optional<long long> find_user(db::Session& s, std::string_view id_hash,
                                              time::TimePoint at);
    static void remove(db::Session& s, std::string_view id_hash);
    static void remove_all_of(db::Session& s, long long user_id);
};

}  // namespace squawk::users
