#include "common/domain/users/user_service.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/text/ascii.hpp"
#include "common/domain/users/password.hpp"
#include "common/domain/workspace/workspace_repository.hpp"

#include <algorithm>
#include <cctype>

namespace squawk::users {
namespace {

// Verifying against this when no user has the email spends the same time as a real check, so
// the answer's timing does not tell which emails have accounts.
const std::string& stand_in_hash() {
    static const std::string hash = hash_password(crypto::random_token(16));
    return hash;
}

}  // namespace

// 254 bytes is RFC 5321's path limit; whether the address receives mail is for the invitation to
// find out.
bool plausible_email(std::string_view email) {
    const auto at = email.find('@');
    return email.size() <= 254 && at != std::string_view::npos && at > 0 && at + 1 < email.size() &&
           email.find('@', at + 1) == std::string_view::npos &&
           std::none_of(email.begin(), email.end(),
                        [](unsigned char c) { return std::isspace(c) || std::iscntrl(c); });
}

bool acceptable_password(std::string_view password) {
    return password.size() >= kMinPasswordBytes && password.size() <= kMaxPasswordBytes;
}

std::string password_rule() {
    return "must be from " + std::to_string(kMinPasswordBytes) + " to " +
           std::to_string(kMaxPasswordBytes) + " bytes";
}

std::string normalized_email(std::string_view email) {
    std::string out(email);
    std::transform(out.begin(), out.end(), out.begin(), text::ascii_lower);
    return out;
}

User UserService::create(db::Session& s, const NewUser& request) {
    nlohmann::json fields = nlohmann::json::object();
    User user;
    user.email = normalized_email(request.email);
    if (!plausible_email(user.email))
        fields["email"] = "must be an email address";
    else if (UserRepository::find_by_email(s, user.email))
        fields["email"] = "a dashboard user with this email already exists";
    if (!acceptable_password(request.password)) fields["password"] = password_rule();
    if (request.role == Role::operator_) {
        if (request.workspace_id) fields["workspace_id"] = "an operator belongs to no workspace";
    } else if (!request.workspace_id) {
        fields["workspace_id"] = "a workspace role needs a workspace";
    } else if (!workspace::WorkspaceRepository::find(s, *request.workspace_id)) {
        fields["workspace_id"] = "no such workspace";
    }
    if (!fields.empty()) throw validation_error(fields);
    user.workspace_id = request.workspace_id;
    user.role = request.role;
    user.password_hash = hash_password(request.password);
    user.created_at = time::now();
    UserRepository::insert(s, user);
    return user;
}

std::optional<User> UserService::authenticate(db::Session& s, std::string_view email,
                                              std::string_view password) {
    if (password.size() > kMaxPasswordBytes) return std::nullopt;
    auto user = UserRepository::find_by_email(s, normalized_email(email));
    const bool matches = password_matches(user ? user->password_hash : stand_in_hash(), password);
    if (!user || !matches) return std::nullopt;
    return user;
}

StartedSession UserService::start_session(db::Session& s, const User& user,
                                          std::optional<std::string_view> replaced_id) {
    if (replaced_id) SessionRepository::remove(s, crypto::sha256_hex(*replaced_id));
    StartedSession started{crypto::random_token(32), crypto::random_token(32)};
    SessionRecord record;
    record.id_hash = crypto::sha256_hex(started.id);
    record.user_id = user.id;
    record.csrf_token = started.csrf_token;
    record.created_at = time::now();
    record.last_seen_at = record.created_at;
    record.expires_at = record.created_at + kSessionLifetime;
    SessionRepository::insert(s, record);
    return started;
}

std::optional<SignedIn> UserService::resume(db::Session& s, std::string_view session_id) {
    const std::string id_hash = crypto::sha256_hex(session_id);
    auto found = SessionRepository::find(s, id_hash);
    if (!found) return std::nullopt;
    const auto now = time::now();
    const auto& record = found->session;
    if (now >= record.expires_at || now >= record.last_seen_at + kSessionIdle) {
        SessionRepository::remove(s, id_hash);
        return std::nullopt;
    }
    // The idle timeout counts in minutes, so one write a minute keeps it: writing on every page
    // view made the session row the dashboard's most expensive statement under load.
    if (now - record.last_seen_at >= kSessionTouchInterval)
        SessionRepository::touch(s, id_hash, now);
    return SignedIn{std::move(found->user), record.csrf_token, std::move(found->workspace_name)};
}

void UserService::end_session(db::Session& s, std::string_view session_id) {
    SessionRepository::remove(s, crypto::sha256_hex(session_id));
}

void UserService::change_password(db::Session& s, const User& user, std::string_view current,
                                  std::string_view replacement) {
    nlohmann::json fields = nlohmann::json::object();
    const auto stored = UserRepository::find(s, user.id);
    if (!stored || current.size() > kMaxPasswordBytes ||
        !password_matches(stored->password_hash, current))
        fields["current_password"] = "is not your current password";
    if (!acceptable_password(replacement)) fields["new_password"] = password_rule();
    if (!fields.empty()) throw validation_error(fields);
    UserRepository::set_password(s, user.id, hash_password(replacement), time::now());
    SessionRepository::remove_all_of(s, user.id);
    SignInChallengeRepository::remove_all_of(s, user.id);
}

bool UserService::remove_member(db::Session& s, long long workspace_id, long long user_id) {
    const auto user = UserRepository::find(s, user_id);
    if (!user || user->workspace_id != workspace_id) return false;
    SessionRepository::remove_all_of(s, user_id);
    SignInChallengeRepository::remove_all_of(s, user_id);
    return UserRepository::remove(s, user_id);
}

std::string UserService::start_challenge(db::Session& s, const User& user) {
    std::string id = crypto::random_token(32);
    SignInChallengeRepository::insert(s, crypto::sha256_hex(id), user.id,
                                      time::now() + kSignInChallengeLifetime);
    return id;
}

std::optional<User> UserService::challenged(db::Session& s, std::string_view challenge_id) {
    const auto user_id =
        SignInChallengeRepository::find_user(s, crypto::sha256_hex(challenge_id), time::now());
    if (!user_id) return std::nullopt;
    return UserRepository::find(s, *user_id);
}

void UserService::end_challenge(db::Session& s, std::string_view challenge_id) {
    SignInChallengeRepository::remove(s, crypto::sha256_hex(challenge_id));
}

}  // namespace squawk::users
