// Signing in and out: the sign-in form, throttled per account and per address, a second step
// asking for the TOTP code of users who enabled it, and sessions whose id is new at every
// sign-in and gone at sign-out.
#include "api/dashboard/dashboard.hpp"
#include "api/dashboard/page.hpp"
#include "api/server/services.hpp"
#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/core/crypto/secret_key.hpp"
#include "common/domain/users/second_factor.hpp"
#include "common/domain/users/sign_in_throttle.hpp"

namespace squawk::api::dashboard {
namespace {

constexpr std::string_view kLoginPath = "/dashboard/login";
constexpr std::string_view kCodePath = "/dashboard/login/code";
// Holds the id of a sign-in whose password was right while its code is awaited.
constexpr std::string_view kChallengeCookie = "squawk_sign_in";
constexpr size_t kLoginTokenBytes = 24;

// The refusal of whichever throttle this attempt exceeds, or nothing; the attempt is counted.
std::optional<rate_limit::Decision> throttle(Services& services, const std::string& email,
                                             const std::string& address) {
    return users::count_attempt(services.redis, services.rate_limiter, "dashboard-login", email,
                                address);
}

Reply login_form(const Visit& visit, const std::string& token, int status, std::string_view error) {
    Reply reply = html_page(
        visit, "login", "Sign in",
        {{"login_token", token}, {"email", visit.field("email")}, {"error", error}}, status);
    reply.headers.emplace_back("Set-Cookie",
                               set_cookie(visit.services, kLoginCookie, token, kLoginPath));
    return reply;
}

// The second step: the code form, posted with the same pre-session token as the first.
Reply code_form(const Visit& visit, const std::string& token, int status, std::string_view error) {
    return html_page(visit, "login", "Sign in: code",
                     {{"login_token", token}, {"code_step", true}, {"error", error}}, status);
}

// A new session for `user`, replacing the browser's previous one, and the way to the home page.
Reply signed_in(Visit& visit, const users::User& user,
                const std::optional<std::string>& challenge) {
    const std::string previous = visit.cookie(kSessionCookie);
    const auto started = visit.services.mysql.transaction([&](db::Session& s) {
        if (challenge) users::UserService::end_challenge(s, *challenge);
        return users::UserService::start_session(
            s, user, previous.empty() ? std::nullopt : std::optional<std::string_view>(previous));
    });
    Reply reply = Reply::redirect("/dashboard/");
    reply.headers.emplace_back(
        "Set-Cookie", set_cookie(visit.services, kSessionCookie, started.id, "/dashboard"));
    reply.headers.emplace_back("Set-Cookie",
                               clear_cookie(visit.services, kLoginCookie, kLoginPath));
    if (challenge)
        reply.headers.emplace_back("Set-Cookie",
                                   clear_cookie(visit.services, kChallengeCookie, kLoginPath));
    return reply;
}

Reply show_login(Visit& visit) {
    std::string token = visit.cookie(kLoginCookie);
    if (token.size() != crypto::random_token(kLoginTokenBytes).size())
        token = crypto::random_token(kLoginTokenBytes);
    return login_form(visit, token, 200, {});
}

Reply sign_in(Visit& visit) {
    const std::string token = visit.cookie(kLoginCookie);
    const std::string sent = visit.field("csrf");
    if (token.empty() || !crypto::constant_time_equal(token, sent))
        return login_form(visit, crypto::random_token(kLoginTokenBytes), 403,
                          "The sign-in form had expired. Please try again.");
    const std::string email = visit.field("email");
    if (const auto refused = throttle(visit.services, email, visit.request.address)) {
        Reply reply = login_form(visit, token, 429,
                                 "Too many sign-in attempts. Wait a minute and try again.");
        reply.headers.emplace_back("Retry-After", std::to_string(refused->retry_after_seconds));
        return reply;
    }
    const auto user = visit.services.mysql.run([&](db::Session& s) {
        return users::UserService::authenticate(s, email, visit.field("password"));
    });
    if (!user) return login_form(visit, token, 401, "The email or the password is not right.");
    const users::SecondFactor factor(crypto::secret_key_bytes(visit.services.config.security));
    const auto challenge = visit.services.mysql.transaction([&](db::Session& s) {
        return factor.enabled(s, user->id)
                   ? std::optional<std::string>(users::UserService::start_challenge(s, *user))
                   : std::nullopt;
    });
    if (!challenge) return signed_in(visit, *user, std::nullopt);
    Reply reply = code_form(visit, token, 200, {});
    reply.headers.emplace_back(
        "Set-Cookie", set_cookie(visit.services, kChallengeCookie, *challenge, kLoginPath));
    return reply;
}

Reply sign_in_code(Visit& visit) {
    const std::string token = visit.cookie(kLoginCookie);
    const std::string challenge = visit.cookie(kChallengeCookie);
    std::optional<users::User> user;
    if (!challenge.empty())
        user = visit.services.mysql.run(
            [&](db::Session& s) { return users::UserService::challenged(s, challenge); });
    if (token.empty() || !crypto::constant_time_equal(token, visit.field("csrf")) || !user)
        return login_form(visit, crypto::random_token(kLoginTokenBytes), 403,
                          "The sign-in had expired. Please sign in again.");
    // Codes count against the same throttle as passwords: a million codes are not guessed at
    // five a minute.
    if (const auto refused = throttle(visit.services, user->email, visit.request.address)) {
        Reply reply =
            code_form(visit, token, 429, "Too many sign-in attempts. Wait a minute and try again.");
        reply.headers.emplace_back("Retry-After", std::to_string(refused->retry_after_seconds));
        return reply;
    }
    const users::SecondFactor factor(crypto::secret_key_bytes(visit.services.config.security));
    const bool right = visit.services.mysql.transaction([&](db::Session& s) {
        return factor.verify(s, user->id, visit.field("code"), time::now());
    });
    if (!right)
        return code_form(visit, token, 401,
                         "The code is not right, or was used already. Enter the next one.");
    return signed_in(visit, *user, challenge);
}

Reply sign_out(Visit& visit) {
    const std::string id = visit.cookie(kSessionCookie);
    visit.services.mysql.run([&](db::Session& s) { users::UserService::end_session(s, id); });
    Reply reply = Reply::redirect(std::string(kLoginPath));
    reply.headers.emplace_back("Set-Cookie",
                               clear_cookie(visit.services, kSessionCookie, "/dashboard"));
    return reply;
}

const Page kSessionPages[] = {
    {"GET", kLoginPath, Gate::anyone, show_login},
    {"POST", kLoginPath, Gate::anyone, sign_in},
    {"POST", kCodePath, Gate::anyone, sign_in_code},
    {"POST", "/dashboard/logout", Gate::signed_in, sign_out},
};

}  // namespace

std::span<const Page> session_pages() {
    return kSessionPages;
}

}  // namespace squawk::api::dashboard
