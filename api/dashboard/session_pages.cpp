// Signing in and out: the sign-in form, throttled per account and per address, and sessions
// whose id is new at every sign-in and gone at sign-out.
#include "api/dashboard/dashboard.hpp"
#include "api/dashboard/page.hpp"
#include "api/server/services.hpp"
#include "common/core/crypto/crypto.hpp"

namespace squawk::api::dashboard {
namespace {

constexpr std::string_view kLoginPath = "/dashboard/login";
// Sign-in attempts per minute, right or wrong: a guesser of one account, or from one address,
// gets this many tries a minute whoever it aims at.
constexpr int kAttemptsPerAccount = 5;
constexpr int kAttemptsPerAddress = 20;
constexpr size_t kLoginTokenBytes = 24;

std::string cookie(const Visit& visit, std::string_view name) {
    const auto found = visit.request.cookies.find(std::string(name));
    return found == visit.request.cookies.end() ? std::string() : found->second;
}

// The refusal of whichever throttle this attempt exceeds, or nothing; the attempt is counted.
std::optional<rate_limit::Decision> throttle(Services& services, const std::string& email,
                                             const std::string& address) {
    const rate_limit::Subject subjects[] = {
        {"dashboard-login:account:" + crypto::sha256_hex(users::normalized_email(email)), 0,
         kAttemptsPerAccount, false},
        {"dashboard-login:address:" + address, 0, kAttemptsPerAddress, false},
    };
    return services.redis.run([&](redis::RedisClient& r) -> std::optional<rate_limit::Decision> {
        std::optional<rate_limit::Decision> refused;
        for (const auto& subject : subjects) {
            // A fixed limit never needs the workspace's account count.
            const auto d = services.rate_limiter.check(r, subject, [] { return 0LL; });
            if (!d.allowed && !refused) refused = d;
        }
        return refused;
    });
}

Reply login_form(const Visit& visit, const std::string& token, int status, std::string_view error) {
    Reply reply = html_page(
        visit, "login", "Sign in",
        {{"login_token", token}, {"email", visit.field("email")}, {"error", error}}, status);
    reply.headers.emplace_back("Set-Cookie",
                               set_cookie(visit.services, kLoginCookie, token, kLoginPath));
    return reply;
}

Reply show_login(Visit& visit) {
    std::string token = cookie(visit, kLoginCookie);
    if (token.size() != crypto::random_token(kLoginTokenBytes).size())
        token = crypto::random_token(kLoginTokenBytes);
    return login_form(visit, token, 200, {});
}

Reply sign_in(Visit& visit) {
    const std::string token = cookie(visit, kLoginCookie);
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
    const std::string previous = cookie(visit, kSessionCookie);
    const auto started = visit.services.mysql.transaction([&](db::Session& s) {
        return users::UserService::start_session(
            s, *user, previous.empty() ? std::nullopt : std::optional<std::string_view>(previous));
    });
    Reply reply = Reply::redirect("/dashboard/");
    reply.headers.emplace_back(
        "Set-Cookie", set_cookie(visit.services, kSessionCookie, started.id, "/dashboard"));
    reply.headers.emplace_back("Set-Cookie",
                               clear_cookie(visit.services, kLoginCookie, kLoginPath));
    return reply;
}

Reply sign_out(Visit& visit) {
    const std::string id = cookie(visit, kSessionCookie);
    visit.services.mysql.run([&](db::Session& s) { users::UserService::end_session(s, id); });
    Reply reply = Reply::redirect(std::string(kLoginPath));
    reply.headers.emplace_back("Set-Cookie",
                               clear_cookie(visit.services, kSessionCookie, "/dashboard"));
    return reply;
}

const Page kPages[] = {
    {"GET", kLoginPath, Gate::anyone, show_login},
    {"POST", kLoginPath, Gate::anyone, sign_in},
    {"POST", "/dashboard/logout", Gate::signed_in, sign_out},
};

}  // namespace

std::span<const Page> session_pages() {
    return kPages;
}

}  // namespace squawk::api::dashboard
