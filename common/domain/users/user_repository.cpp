#include "common/domain/users/user_repository.hpp"

#include "common/core/db/sql_text.hpp"

namespace squawk::users {
namespace {

constexpr const char* kUserColumns =
    "SELECT id, workspace_id, email, role, password_hash, created_at FROM dashboard_users";

User user_of(const db::Row& row) {
    User u;
    u.id = row.integer(0);
    u.workspace_id = row.optional_integer(1);
    u.email = row.text(2);
    u.role = parse_role(row.text(3)).value_or(Role::viewer);
    u.password_hash = row.text(4);
    u.created_at = db::time_column(row, 5);
    return u;
}

}  // namespace

std::string_view role_name(Role role) {
    switch (role) {
        case Role::owner:
            return "owner";
        case Role::developer:
            return "developer";
        case Role::viewer:
            return "viewer";
        case Role::operator_:
            return "operator";
    }
    return "viewer";
}

std::optional<Role> parse_role(std::string_view name) {
    for (const Role r : {Role::owner, Role::developer, Role::viewer, Role::operator_})
        if (role_name(r) == name) return r;
    return std::nullopt;
}

void UserRepository::insert(db::Session& s, User& user) {
    s.execute(
        "INSERT INTO dashboard_users (workspace_id, email, role, password_hash, created_at,"
        " password_changed_at) VALUES (?,?,?,?,?,?)",
        {db::optional_param(user.workspace_id), user.email, std::string(role_name(user.role)),
         user.password_hash, db::time_param(user.created_at), db::time_param(user.created_at)});
    user.id = s.last_insert_id();
}

std::optional<User> UserRepository::find_by_email(db::Session& s, std::string_view email) {
    auto row = s.query_one(std::string(kUserColumns) + " WHERE email = ?", {std::string(email)});
    if (!row) return std::nullopt;
    return user_of(*row);
}

std::optional<User> UserRepository::find(db::Session& s, long long id) {
    auto row = s.query_one(std::string(kUserColumns) + " WHERE id = ?", {id});
    if (!row) return std::nullopt;
    return user_of(*row);
}

void SessionRepository::insert(db::Session& s, const SessionRecord& session) {
    s.execute(
        "INSERT INTO dashboard_sessions (id_hash, user_id, csrf_token, created_at, last_seen_at,"
        " expires_at) VALUES (?,?,?,?,?,?)",
        {session.id_hash, session.user_id, session.csrf_token, db::time_param(session.created_at),
         db::time_param(session.last_seen_at), db::time_param(session.expires_at)});
}

std::optional<SessionRecord> SessionRepository::find(db::Session& s, std::string_view id_hash) {
    auto row = s.query_one(
        "SELECT id_hash, user_id, csrf_token, created_at, last_seen_at, expires_at"
        " FROM dashboard_sessions WHERE id_hash = ?",
        {std::string(id_hash)});
    if (!row) return std::nullopt;
    SessionRecord r;
    r.id_hash = row->text(0);
    r.user_id = row->integer(1);
    r.csrf_token = row->text(2);
    r.created_at = db::time_column(*row, 3);
    r.last_seen_at = db::time_column(*row, 4);
    r.expires_at = db::time_column(*row, 5);
    return r;
}

void SessionRepository::touch(db::Session& s, std::string_view id_hash, time::TimePoint seen_at) {
    s.execute("UPDATE dashboard_sessions SET last_seen_at = ? WHERE id_hash = ?",
              {db::time_param(seen_at), std::string(id_hash)});
}

void SessionRepository::remove(db::Session& s, std::string_view id_hash) {
    s.execute("DELETE FROM dashboard_sessions WHERE id_hash = ?", {std::string(id_hash)});
}

}  // namespace squawk::users
