// Dashboard accounts through the real stack: invitations (shown once, single use, expiry,
// revocation, owners only, tenancy), removing a user, password changes ending other sessions and
// the optional TOTP second step at sign-in (wrong and replayed codes refused).
#include "common/core/crypto/crypto.hpp"
#include "common/domain/users/totp.hpp"
#include "tests/e2e/dashboard_browsing.hpp"

#include <catch2/catch.hpp>

#include <thread>

using namespace squawk::testing;
namespace users = squawk::users;

namespace {

constexpr const char* kNewPassword = "a much better passphrase";

// The token of the invitation link an answer page shows.
std::string invitation_token(const Stack& stack, const PageAnswer& page) {
    std::smatch m;
    const std::string base = stack.public_base_url().substr(0, stack.public_base_url().size() - 3);
    if (!std::regex_search(page.body, m, std::regex(R"(id="invitation-link">([^<]+)</code>)")))
        throw std::runtime_error("the page shows no invitation link:\n" + page.body);
    const std::string link = m[1];
    const std::string prefix = base + "/dashboard/invitations/";
    if (!link.starts_with(prefix)) throw std::runtime_error("unexpected link " + link);
    return link.substr(prefix.size());
}

PageAnswer invite(Browser& owner, const std::string& email, const std::string& role) {
    return owner.post(
        "/dashboard/team/invitations",
        {{"csrf", owner.get("/dashboard/team").csrf()}, {"email", email}, {"role", role}});
}

// The raw TOTP secret the account page shows while enrolling.
std::string enrollment_secret(const PageAnswer& page) {
    std::smatch m;
    if (!std::regex_search(page.body, m, std::regex(R"(id="totp-secret">([A-Z2-7 ]+)<)")))
        throw std::runtime_error("the page shows no TOTP secret:\n" + page.body);
    return users::base32_decode(m[1].str()).value();
}

std::string code_at(const std::string& secret, long long step) {
    return users::totp_code(secret, step);
}

}  // namespace

TEST_CASE("an owner's invitation link signs the invitee in with the role, once") {
    Stack stack(api_only());
    const auto workspace_id = stack.tenant().workspace_id;
    add_dashboard_user(stack, workspace_id, "owner@example.com", "owner");
    Browser owner(stack.base_url());
    REQUIRE(owner.sign_in("owner@example.com", kDashboardPassword).status == 302);

    const auto bad = invite(owner, "not an email", "developer");
    CHECK(bad.status == 422);
    CHECK(bad.body.find("must be an email address") != std::string::npos);
    CHECK(stack.count("SELECT COUNT(*) FROM dashboard_invitations") == 0);

    const auto created = invite(owner, "Dev@Example.com", "developer");
    REQUIRE(created.status == 201);
    const std::string token = invitation_token(stack, created);
    CHECK(stack.count("SELECT COUNT(*) FROM dashboard_invitations WHERE token_hash = ?",
                      {squawk::crypto::sha256_hex(token)}) == 1);
    const auto team = owner.get("/dashboard/team");
    CHECK(team.body.find("dev@example.com") != std::string::npos);
    CHECK(team.body.find(token) == std::string::npos);

    Browser invitee(stack.base_url());
    const std::string link = "/dashboard/invitations/" + token;
    const auto form = invitee.get(link);
    REQUIRE(form.status == 200);
    CHECK(form.body.find("dev@example.com") != std::string::npos);
    const auto short_password = invitee.post(
        link, {{"csrf", form.csrf()}, {"password", "short"}, {"password_again", "short"}});
    CHECK(short_password.status == 422);
    CHECK(short_password.body.find("from 12 to 1024 bytes") != std::string::npos);
    const auto differing = invitee.post(link, {{"csrf", form.csrf()},
                                               {"password", kDashboardPassword},
                                               {"password_again", kNewPassword}});
    CHECK(differing.status == 422);
    CHECK(stack.count("SELECT COUNT(*) FROM dashboard_users WHERE email = 'dev@example.com'") == 0);
    CHECK(
        invitee
            .post(link, {{"password", kDashboardPassword}, {"password_again", kDashboardPassword}})
            .status == 403);

    const auto accepted = invitee.post(link, {{"csrf", invitee.get(link).csrf()},
                                              {"password", kDashboardPassword},
                                              {"password_again", kDashboardPassword}});
    REQUIRE(accepted.status == 302);
    CHECK(accepted.header("location") == "/dashboard/");
    const auto home = invitee.get("/dashboard/");
    REQUIRE(home.status == 200);
    CHECK(home.body.find("dev@example.com · developer") != std::string::npos);
    CHECK(stack.count("SELECT COUNT(*) FROM dashboard_users WHERE email = 'dev@example.com'"
                      " AND role = 'developer' AND workspace_id = ?",
                      {workspace_id}) == 1);

    // Used, expired, revoked and unknown links all answer the same page.
    Browser stranger(stack.base_url());
    const auto unknown = stranger.get("/dashboard/invitations/no-such-token");
    CHECK(unknown.status == 404);
    const auto used = stranger.get(link);
    CHECK(used.status == 404);
    CHECK(used.body == unknown.body);
    CHECK(
        stranger
            .post(link, {{"password", kDashboardPassword}, {"password_again", kDashboardPassword}})
            .status == 404);

    const std::string late = invitation_token(stack, invite(owner, "late@example.com", "viewer"));
    CHECK(stranger.get("/dashboard/invitations/" + late).status == 200);
    stack.db().run([&](squawk::db::Session& s) {
        s.execute(
            "UPDATE dashboard_invitations SET expires_at = NOW(6) - INTERVAL 1 SECOND"
            " WHERE token_hash = ?",
            {squawk::crypto::sha256_hex(late)});
    });
    const auto expired = stranger.get("/dashboard/invitations/" + late);
    CHECK(expired.status == 404);
    CHECK(expired.body == unknown.body);

    const std::string revoked = invitation_token(stack, invite(owner, "rev@example.com", "viewer"));
    const auto revoked_id = stack.db().run([&](squawk::db::Session& s) {
        return s
            .query_one("SELECT id FROM dashboard_invitations WHERE token_hash = ?",
                       {squawk::crypto::sha256_hex(revoked)})
            ->integer(0);
    });
    // Another workspace's owner cannot revoke it: its id is unknown there.
    const auto other = stack.create_tenant("other");
    add_dashboard_user(stack, other.workspace_id, "other@example.com", "owner");
    Browser outsider(stack.base_url());
    REQUIRE(outsider.sign_in("other@example.com", kDashboardPassword).status == 302);
    CHECK(outsider
              .post("/dashboard/team/invitations/revoke",
                    {{"csrf", outsider.get("/dashboard/team").csrf()},
                     {"invitation_id", std::to_string(revoked_id)}})
              .status == 404);
    CHECK(stranger.get("/dashboard/invitations/" + revoked).status == 200);
    CHECK(owner
              .post("/dashboard/team/invitations/revoke",
                    {{"csrf", team.csrf()}, {"invitation_id", std::to_string(revoked_id)}})
              .status == 302);
    const auto after_revoke = stranger.get("/dashboard/invitations/" + revoked);
    CHECK(after_revoke.status == 404);
    CHECK(after_revoke.body == unknown.body);
}

TEST_CASE("only owners invite and remove people, and a removed user's sessions end") {
    Stack stack(api_only());
    const auto workspace_id = stack.tenant().workspace_id;
    const auto owner_id = add_dashboard_user(stack, workspace_id, "owner@example.com", "owner");
    add_dashboard_user(stack, workspace_id, "dev@example.com", "developer");
    const auto viewer_id = add_dashboard_user(stack, workspace_id, "viewer@example.com", "viewer");

    for (const std::string email : {"dev@example.com", "viewer@example.com"}) {
        Browser browser(stack.base_url());
        REQUIRE(browser.sign_in(email, kDashboardPassword).status == 302);
        const auto team = browser.get("/dashboard/team");
        REQUIRE(team.status == 200);
        CHECK(team.body.find("Create invitation link") == std::string::npos);
        CHECK(invite(browser, "new@example.com", "owner").status == 403);
        CHECK(browser
                  .post("/dashboard/team/members/remove",
                        {{"csrf", team.csrf()}, {"user_id", std::to_string(owner_id)}})
                  .status == 403);
    }
    CHECK(stack.count("SELECT COUNT(*) FROM dashboard_invitations") == 0);
    CHECK(stack.count("SELECT COUNT(*) FROM dashboard_users") == 3);

    Browser viewer(stack.base_url());
    REQUIRE(viewer.sign_in("viewer@example.com", kDashboardPassword).status == 302);
    Browser owner(stack.base_url());
    REQUIRE(owner.sign_in("owner@example.com", kDashboardPassword).status == 302);
    const auto team = owner.get("/dashboard/team");
    const auto self = owner.post("/dashboard/team/members/remove",
                                 {{"csrf", team.csrf()}, {"user_id", std::to_string(owner_id)}});
    CHECK(self.status == 422);
    CHECK(self.body.find("You cannot remove yourself.") != std::string::npos);

    const auto other = stack.create_tenant("other");
    const auto stranger_id =
        add_dashboard_user(stack, other.workspace_id, "s@example.com", "viewer");
    CHECK(owner
              .post("/dashboard/team/members/remove",
                    {{"csrf", team.csrf()}, {"user_id", std::to_string(stranger_id)}})
              .status == 404);
    CHECK(stack.count("SELECT COUNT(*) FROM dashboard_users WHERE id = ?", {stranger_id}) == 1);

    REQUIRE(viewer.get("/dashboard/").status == 200);
    CHECK(owner
              .post("/dashboard/team/members/remove",
                    {{"csrf", team.csrf()}, {"user_id", std::to_string(viewer_id)}})
              .status == 302);
    CHECK(viewer.get("/dashboard/").status == 302);
    CHECK(stack.count("SELECT COUNT(*) FROM dashboard_sessions WHERE user_id = ?", {viewer_id}) ==
          0);
    CHECK(owner.get("/dashboard/team").body.find("viewer@example.com") == std::string::npos);
}

TEST_CASE("a password change ends the other browser's session and keeps this one") {
    Stack stack(api_only());
    add_dashboard_user(stack, stack.tenant().workspace_id, "dev@example.com", "developer");
    Browser here(stack.base_url());
    Browser elsewhere(stack.base_url());
    REQUIRE(here.sign_in("dev@example.com", kDashboardPassword).status == 302);
    REQUIRE(elsewhere.sign_in("dev@example.com", kDashboardPassword).status == 302);
    const std::string before = here.cookie("squawk_session");

    const auto page = here.get("/dashboard/account");
    REQUIRE(page.status == 200);
    const auto differing = here.post("/dashboard/account/password",
                                     {{"csrf", page.csrf()},
                                      {"current_password", kDashboardPassword},
                                      {"new_password", kNewPassword},
                                      {"new_password_again", "something else entirely"}});
    CHECK(differing.status == 422);
    const auto wrong =
        here.post("/dashboard/account/password", {{"csrf", page.csrf()},
                                                  {"current_password", "not the password"},
                                                  {"new_password", kNewPassword},
                                                  {"new_password_again", kNewPassword}});
    CHECK(wrong.status == 422);
    CHECK(wrong.body.find("The current password is not your current password.") !=
          std::string::npos);
    CHECK(elsewhere.get("/dashboard/").status == 200);

    const auto changed =
        here.post("/dashboard/account/password", {{"csrf", page.csrf()},
                                                  {"current_password", kDashboardPassword},
                                                  {"new_password", kNewPassword},
                                                  {"new_password_again", kNewPassword}});
    REQUIRE(changed.status == 302);
    CHECK(changed.header("location") == "/dashboard/account?done=password");
    CHECK(here.cookie("squawk_session") != before);
    const auto after = here.get(changed.header("location"));
    CHECK(after.status == 200);
    CHECK(after.body.find("Your password was changed.") != std::string::npos);
    CHECK(elsewhere.get("/dashboard/").status == 302);

    Browser fresh(stack.base_url());
    CHECK(fresh.sign_in("dev@example.com", kDashboardPassword).status == 401);
    CHECK(fresh.sign_in("dev@example.com", kNewPassword).status == 302);
}

TEST_CASE("guessing the current password on the account page is throttled") {
    Stack stack(api_only());
    add_dashboard_user(stack, stack.tenant().workspace_id, "dev@example.com", "developer");
    Browser browser(stack.base_url());
    REQUIRE(browser.sign_in("dev@example.com", kDashboardPassword).status == 302);
    const std::string csrf = browser.get("/dashboard/account").csrf();
    const auto change = [&](const std::string& current) {
        return browser.post("/dashboard/account/password", {{"csrf", csrf},
                                                            {"current_password", current},
                                                            {"new_password", kNewPassword},
                                                            {"new_password_again", kNewPassword}});
    };
    // Five attempts a minute: the throttle answers within the next few (a minute's window may
    // turn over once during the loop), even to the right password.
    long last = 0;
    for (int attempt = 0; attempt < 11 && last != 429; ++attempt)
        last = change("not the password").status;
    REQUIRE(last == 429);
    const auto refused = change(kDashboardPassword);
    CHECK(refused.status == 429);
    CHECK_FALSE(refused.header("retry-after").empty());
    CHECK(browser.get("/dashboard/").status == 200);
    CHECK(Browser(stack.base_url()).sign_in("dev@example.com", kDashboardPassword).status == 302);
}

TEST_CASE("with TOTP on, sign-in needs a right code that was not used before") {
    Stack stack(api_only());
    const auto user_id =
        add_dashboard_user(stack, stack.tenant().workspace_id, "owner@example.com", "owner");
    Browser owner(stack.base_url());
    REQUIRE(owner.sign_in("owner@example.com", kDashboardPassword).status == 302);

    const auto start =
        owner.post("/dashboard/account/totp", {{"csrf", owner.get("/dashboard/account").csrf()}});
    REQUIRE(start.status == 302);
    const auto enrolling = owner.get("/dashboard/account");
    const std::string secret = enrollment_secret(enrolling);
    CHECK(enrolling.body.find("otpauth://totp/Squawk:owner%40example.com?secret=") !=
          std::string::npos);
    const long long step = users::totp_step(squawk::time::now());
    const auto wrong =
        owner.post("/dashboard/account/totp/confirm",
                   {{"csrf", enrolling.csrf()}, {"code", code_at(secret, step + 7)}});
    CHECK(wrong.status == 422);
    CHECK(stack.count("SELECT COUNT(*) FROM dashboard_users WHERE totp_secret IS NOT NULL") == 0);
    const auto on = owner.post("/dashboard/account/totp/confirm",
                               {{"csrf", enrolling.csrf()}, {"code", code_at(secret, step)}});
    REQUIRE(on.status == 302);
    CHECK(stack.count("SELECT COUNT(*) FROM dashboard_users WHERE totp_secret IS NOT NULL") == 1);

    // The password alone makes no session: the answer is the code's form.
    Browser other(stack.base_url());
    const auto password_step = other.sign_in("owner@example.com", kDashboardPassword);
    REQUIRE(password_step.status == 200);
    CHECK(password_step.body.find("action=\"/dashboard/login/code\"") != std::string::npos);
    CHECK(other.cookie("squawk_session").empty());
    CHECK(other.get("/dashboard/").status == 302);
    const std::string csrf = password_step.csrf();
    const auto wrong_code =
        other.post("/dashboard/login/code", {{"csrf", csrf}, {"code", code_at(secret, step + 9)}});
    CHECK(wrong_code.status == 401);
    CHECK(wrong_code.body.find("The code is not right") != std::string::npos);
    // The code that enabled it was accepted once already.
    CHECK(other.post("/dashboard/login/code", {{"csrf", csrf}, {"code", code_at(secret, step)}})
              .status == 401);
    CHECK(other.cookie("squawk_session").empty());
    const auto in =
        other.post("/dashboard/login/code", {{"csrf", csrf}, {"code", code_at(secret, step + 1)}});
    REQUIRE(in.status == 302);
    CHECK(in.header("location") == "/dashboard/");
    CHECK(other.get("/dashboard/").status == 200);
    CHECK(stack.count("SELECT COUNT(*) FROM dashboard_sign_in_challenges") == 0);

    // Turning it off takes the password and an unused code: wait for the step after step + 1's
    // window opens.
    const auto page = owner.get("/dashboard/account");
    const auto no_password =
        owner.post("/dashboard/account/totp/disable",
                   {{"csrf", page.csrf()}, {"password", "not the password"}, {"code", "123456"}});
    CHECK(no_password.status == 422);
    CHECK(owner
              .post("/dashboard/account/totp/disable", {{"csrf", page.csrf()},
                                                        {"password", kDashboardPassword},
                                                        {"code", code_at(secret, step + 1)}})
              .status == 422);
    while (users::totp_step(squawk::time::now()) <= step)
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto off =
        owner.post("/dashboard/account/totp/disable", {{"csrf", page.csrf()},
                                                       {"password", kDashboardPassword},
                                                       {"code", code_at(secret, step + 2)}});
    CHECK(off.status == 302);
    CHECK(stack.count("SELECT COUNT(*) FROM dashboard_users WHERE id = ? AND totp_secret IS NULL",
                      {user_id}) == 1);
}
