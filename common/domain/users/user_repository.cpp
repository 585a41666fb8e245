#include "common/domain/users/user_repository.hpp"

#include "common/core/db/sql_text.hpp"

namespace squawk::users {
namespace {

constexpr const char* kUserColumns =
    "SELECT id, workspace_id, email, role, password_hash, created_at FROM dashboard_users";

// The user's six columns as kUserColumns lists them, from column `first` on.
User user_of(const db::Row& row, int first = 0) {
    User u;
    u.id = row.integer(first);
    u.workspace_id = row.optional_integer(first + 1);
    u.email = row.text(first + 2);
    u.role = parse_role(row.text(first + 3)).value_or(Role::viewer);
    u.password_hash = row.text(first + 4);
    u.created_at = db::time_column(row, first + 5);
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
    user.id = s.insert(
        "INSERT INTO dashboard_users (workspace_id, email, role, password_hash, created_at,"
        " password_changed_at) VALUES (?,?,?,?,?,?)",
        {db::optional_param(user.workspace_id), user.email, std::string(role_name(user.role)),
         user.password_hash, db::time_param(user.created_at), db::time_param(user.created_at)});
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

std::vector<User> UserRepository::list_of_workspace(db::Session& s, long long workspace_id) {
    std::vector<User> users;
    for (const auto& row :
         s.query(std::string(kUserColumns) + " WHERE workspace_id = ? ORDER BY id", {workspace_id}))
        users.push_back(user_of(row));
    return users;
}

void UserRepository::set_password(db::Session& s, long long id, std::string_view password_hash,
                                  time::TimePoint changed_at) {
    s.execute("UPDATE dashboard_users SET password_hash = ?, password_changed_at = ? WHERE id = ?",
              {std::string(password_hash), db::time_param(changed_at), id});
}

bool UserRepository::remove(db::Session& s, long long id) {
    return s.execute("DELETE FROM dashboard_users WHERE id = ?", {id}) > 0;
}

TotpRecord TotpRepository::find(db::Session& s, long long user_id) {
    const auto row = s.query_one(
        "SELECT totp_secret, totp_pending_secret, totp_last_step FROM dashboard_users"
        " WHERE id = ?",
        {user_id});
    if (!row) return {};
    return {row->optional_text(0), row->optional_text(1), row->optional_integer(2)};
}

void TotpRepository::set_pending(db::Session& s, long long user_id, const std::string& sealed) {
    s.execute("UPDATE dashboard_users SET totp_pending_secret = ? WHERE id = ?", {sealed, user_id});
}

void TotpRepository::enable(db::Session& s, long long user_id, const std::string& sealed,
                            long long step) {
    s.execute(
        "UPDATE dashboard_users SET totp_secret = ?, totp_pending_secret = NULL,"
        " totp_last_step = ? WHERE id = ?",
        {sealed, step, user_id});
}

void TotpRepository::disable(db::Session& s, long long user_id) {
    s.execute(
        "UPDATE dashboard_users SET totp_secret = NULL, totp_pending_secret = NULL,"
        " totp_last_step = NULL WHERE id = ?",
        {user_id});
}

bool TotpRepository::claim_step(db::Session& s, long long user_id, long long step) {
    return s.execute(
               "UPDATE dashboard_users SET totp_last_step = ? WHERE id = ?"
               " AND (totp_last_step IS NULL OR totp_last_step < ?)",
               {step, user_id, step}) > 0;
}

void SessionRepository::insert(db::Session& s, const SessionRecord& session) {
    s.execute(
        "INSERT INTO dashboard_sessions (id_hash, user_id, csrf_token, created_at, last_seen_at,"
        " expires_at) VALUES (?,?,?,?,?,?)",
        {session.id_hash, session.user_id, session.csrf_token, db::time_param(session.created_at),
         db::time_param(session.last_seen_at), db::time_param(session.expires_at)});
}

std::optional<SessionOfUser> SessionRepository::find(db::Session& s, std::string_view id_hash) {
    // One statement for what every dashboard page needs before it reads its own data: the
    // session, its user and the user's workspace name.
    auto row = s.query_one(
        "SELECT s.id_hash, s.csrf_token, s.created_at, s.last_seen_at, s.expires_at,"
        " u.id, u.workspace_id, u.email, u.role, u.password_hash, u.created_at, w.name"
        " FROM dashboard_sessions s JOIN dashboard_users u ON u.id = s.user_id"
        " LEFT JOIN workspaces w ON w.id = u.workspace_id WHERE s.id_hash = ?",
        {std::string(id_hash)});
    if (!row) return std::nullopt;
    SessionOfUser found;
    found.user = user_of(*row, 5);
    SessionRecord& r = found.session;
    r.id_hash = row->text(0);
    r.user_id = found.user.id;
    r.csrf_token = row->text(1);
    r.created_at = db::time_column(*row, 2);
    r.last_seen_at = db::time_column(*row, 3);
    r.expires_at = db::time_column(*row, 4);
    found.workspace_name = row->optional_text(11).value_or("");
    return found;
}

void SessionRepository::touch(db::Session& s, std::string_view id_hash, time::TimePoint seen_at) {
    s.execute("UPDATE dashboard_sessions SET last_seen_at = ? WHERE id_hash = ?",
              {db::time_param(seen_at), std::string(id_hash)});
}

void SessionRepository::remove(db::Session& s, std::string_view id_hash) {
    s.execute("DELETE FROM dashboard_sessions WHERE id_hash = ?", {std::string(id_hash)});
}

void SessionRepository::remove_all_of(db::Session& s, long long user_id) {
    s.execute("DELETE FROM dashboard_sessions WHERE user_id = ?", {user_id});
}

void SignInChallengeRepository::insert(db::Session& s, std::string_view id_hash, long long user_id,
                                       time::TimePoint expires_at) {
    s.execute(
        "INSERT INTO dashboard_sign_in_challenges (id_hash, user_id, expires_at) VALUES (?,?,?)",
        {std::string(id_hash), user_id, db::time_param(expires_at)});
}

std::optional<long long> SignInChallengeRepository::find_user(db::Session& s,
                                                              std::string_view id_hash,
                                                              time::TimePoint at) {
    const auto row = s.query_one(
        "SELECT user_id FROM dashboard_sign_in_challenges WHERE id_hash = ? AND expires_at > ?",
        {std::string(id_hash), db::time_param(at)});
    if (!row) return std::nullopt;
    return row->integer(0);
}

void SignInChallengeRepository::remove(db::Session& s, std::string_view id_hash) {
    s.execute("DELETE FROM dashboard_sign_in_challenges WHERE id_hash = ?", {std::string(id_hash)});
}

void SignInChallengeRepository::remove_all_of(db::Session& s, long long user_id) {
    s.execute("DELETE FROM dashboard_sign_in_challenges WHERE user_id = ?", {user_id});
}

}  // namespace squawk::users
