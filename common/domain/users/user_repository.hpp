// Dashboard users, their sessions and invitations as rows: SQL in, domain types out. What is
// allowed (roles, expiry, passwords) is decided by UserService.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"

#include <optional>
#include <string>
#include <string_view>

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

class UserRepository {
  public:
    // Sets user.id; throws db::DatabaseError on a duplicate email.
    static void insert(db::Session& s, User& user);
    static std::optional<User> find_by_email(db::Session& s, std::string_view email);
    static std::optional<User> find(db::Session& s, long long id);
};

class SessionRepository {
  public:
    static void insert(db::Session& s, const SessionRecord& session);
    static std::optional<SessionRecord> find(db::Session& s, std::string_view id_hash);
    static void touch(db::Session& s, std::string_view id_hash, time::TimePoint seen_at);
    static void remove(db::Session& s, std::string_view id_hash);
};

}  // namespace squawk::users
