// The signed-in user's own account: changing the password (which ends every other session) and
// the optional second factor (TOTP), enrolled with a first right code and disabled with the
// password and a code. Every role has this page, operators included.
#include "api/dashboard/dashboard.hpp"
#include "api/dashboard/page.hpp"
#include "api/server/services.hpp"
#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/core/crypto/secret_key.hpp"
#include "common/core/error/api_error.hpp"
#include "common/domain/users/password.hpp"
#include "common/domain/users/second_factor.hpp"
#include "common/domain/users/sign_in_throttle.hpp"
#include "common/domain/users/totp.hpp"

#include <map>

namespace squawk::api::dashboard {
namespace {

constexpr std::string_view kAccountPath = "/dashboard/account";
constexpr std::string_view kIssuer = "Squawk";

users::SecondFactor second_factor(const Visit& visit) {
    return users::SecondFactor(crypto::secret_key_bytes(visit.services.config.security));
}

// The notice a redirect after a change names; a fixed list, so a link cannot make the page say
// anything else.
std::string_view notice(std::string_view done) {
    if (done == "password") return "Your password was changed. Every other session has ended.";
    if (done == "totp-on") return "Two-step sign-in is on: sign-in now asks for a code.";
    if (done == "totp-off") return "Two-step sign-in is off.";
    return {};
}

// Base32 in groups of four, as authenticator apps print it for typing.
std::string grouped(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); i += 4) out += (i ? " " : "") + text.substr(i, 4);
    return out;
}

Reply account_page(Visit& visit, nlohmann::json password_errors, nlohmann::json totp_errors,
                   int status) {
    const auto factor = second_factor(visit);
    const long long user_id = visit.session->user.id;
    const auto [enabled, pending] = visit.services.mysql.run([&](db::Session& s) {
        return std::pair(factor.enabled(s, user_id), factor.pending(s, user_id));
    });
    nlohmann::json data = {{"password_errors", std::move(password_errors)},
                           {"totp_errors", std::move(totp_errors)},
                           {"totp_enabled", enabled},
                           {"owner", visit.session->user.role == users::Role::owner},
                           {"notice", notice(visit.query_value("done"))}};
    if (!enabled && pending)
        data["enrollment"] = {
            {"secret", grouped(users::base32_encode(*pending))},
            {"uri", users::otpauth_uri(kIssuer, visit.session->user.email, *pending)}};
    return html_page(visit, "account", "Your account", std::move(data), status);
}

nlohmann::json problems(const ApiError& error, const std::map<std::string, std::string>& labels) {
    nlohmann::json out = nlohmann::json::array();
    const auto fields = error.details().value("fields", nlohmann::json::object());
    for (const auto& [field, problem] : fields.items()) {
        const auto label = labels.find(field);
        out.push_back((label == labels.end() ? field : label->second) + " " +
                      problem.get<std::string>() + ".");
    }
    return out;
}

// Proving the password or a code again counts against a throttle of its own, so a session left
// open is no way to guess the password at Argon2's speed.
std::optional<Reply> throttled(Visit& visit, bool password_form) {
    const auto refused =
        users::count_attempt(visit.services.redis, visit.services.rate_limiter, "dashboard-account",
                             visit.session->user.email, visit.request.address);
    if (!refused) return std::nullopt;
    nlohmann::json errors = {"Too many attempts. Wait a minute and try again."};
    Reply reply = password_form ? account_page(visit, errors, nlohmann::json::array(), 429)
                                : account_page(visit, nlohmann::json::array(), errors, 429);
    reply.headers.emplace_back("Retry-After", std::to_string(refused->retry_after_seconds));
    return reply;
}

Reply after_change(std::string_view done) {
    std::string target(kAccountPath);
    target.append("?done=").append(done);
    return Reply::redirect(target);
}

Reply show_account(Visit& visit) {
    return account_page(visit, nlohmann::json::array(), nlohmann::json::array(), 200);
}

Reply change_password(Visit& visit) {
    const std::string replacement = visit.field("new_password");
    if (replacement != visit.field("new_password_again"))
        return account_page(visit, {"The new password and its repetition differ."},
                            nlohmann::json::array(), 422);
    if (auto refused = throttled(visit, true)) return std::move(*refused);
    const auto& user = visit.session->user;
    try {
        // Every session of the user ends, this browser's too, which gets a new id: whoever held a
        // copy of any of them is signed out.
        const auto started = visit.services.mysql.transaction([&](db::Session& s) {
            users::UserService::change_password(s, user, visit.field("current_password"),
                                                replacement);
            return users::UserService::start_session(s, user, std::nullopt);
        });
        Reply reply = after_change("password");
        reply.headers.emplace_back(
            "Set-Cookie", set_cookie(visit.services, kSessionCookie, started.id, "/dashboard"));
        return reply;
    } catch (const ApiError& e) {
        if (e.code() != ErrorCode::ValidationError) throw;
        return account_page(visit,
                            problems(e, {{"current_password", "The current password"},
                                         {"new_password", "The new password"}}),
                            nlohmann::json::array(), 422);
    }
}

Reply start_totp(Visit& visit) {
    const auto factor = second_factor(visit);
    const bool enabled = visit.services.mysql.transaction([&](db::Session& s) {
        if (factor.enabled(s, visit.session->user.id)) return true;
        factor.start_enrollment(s, visit.session->user.id);
        return false;
    });
    if (enabled)
        return account_page(visit, nlohmann::json::array(),
                            {"Two-step sign-in is already on; turn it off first."}, 422);
    return Reply::redirect(std::string(kAccountPath) + "#totp-heading");
}

Reply confirm_totp(Visit& visit) {
    const auto factor = second_factor(visit);
    const bool confirmed = visit.services.mysql.transaction([&](db::Session& s) {
        return factor.confirm(s, visit.session->user.id, visit.field("code"), time::now());
    });
    if (!confirmed)
        return account_page(visit, nlohmann::json::array(),
                            {"The code is not right. Enter the code your app shows now."}, 422);
    return after_change("totp-on");
}

Reply disable_totp(Visit& visit) {
    if (auto refused = throttled(visit, false)) return std::move(*refused);
    const auto factor = second_factor(visit);
    const auto& user = visit.session->user;
    nlohmann::json errors = nlohmann::json::array();
    const std::string password = visit.field("password");
    if (password.size() > users::kMaxPasswordBytes ||
        !users::password_matches(user.password_hash, password))
        errors.push_back("The password is not right.");
    const bool disabled = errors.empty() && visit.services.mysql.transaction([&](db::Session& s) {
        if (!factor.verify(s, user.id, visit.field("code"), time::now())) return false;
        factor.disable(s, user.id);
        return true;
    });
    if (errors.empty() && !disabled)
        errors.push_back("The code is not right, or was used already. Enter the next one.");
    if (!errors.empty()) return account_page(visit, nlohmann::json::array(), errors, 422);
    return after_change("totp-off");
}

const Page kAccountPages[] = {
    {"GET", kAccountPath, Gate::signed_in, show_account},
    {"POST", "/dashboard/account/password", Gate::signed_in, change_password},
    {"POST", "/dashboard/account/totp", Gate::signed_in, start_totp},
    {"POST", "/dashboard/account/totp/confirm", Gate::signed_in, confirm_totp},
    {"POST", "/dashboard/account/totp/disable", Gate::signed_in, disable_totp},
};

}  // namespace

std::span<const Page> account_pages() {
    return kAccountPages;
}

}  // namespace squawk::api::dashboard
