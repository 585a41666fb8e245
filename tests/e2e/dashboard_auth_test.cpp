// The dashboard's security through the real stack: sign-in, its throttle, sessions, CSRF, roles,
// tenancy, headers, and API keys made on the dashboard working against the API.
#include "tests/e2e/dashboard_browsing.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;

namespace {

void check_security_headers(const PageAnswer& page) {
    CHECK(page.header("content-security-policy") ==
          "default-src 'self'; script-src 'self'; style-src 'self'; frame-ancestors 'none'; "
          "form-action 'self'; base-uri 'none'");
    CHECK(page.header("x-frame-options") == "DENY");
    CHECK(page.header("x-content-type-options") == "nosniff");
    CHECK(page.header("referrer-policy") == "same-origin");
}

}  // namespace

TEST_CASE("dashboard sign-in refuses a wrong password and throttles repeated attempts") {
    Stack stack(api_only());
    create_dashboard_user(stack,
                          {"--workspace", std::to_string(stack.tenant().workspace_id), "--email",
                           "dev@example.com", "--role", "developer"},
                          kDashboardPassword);
    Browser browser(stack.base_url());

    const auto wrong = browser.sign_in("dev@example.com", "not the password");
    CHECK(wrong.status == 401);
    CHECK(browser.cookie("squawk_session").empty());
    CHECK(wrong.body.find("not the password") == std::string::npos);

    // Five attempts a minute per account: the throttle answers 429 within the next few, even to
    // the right password (a minute's window may turn over once during the loop).
    long last = wrong.status;
    for (int attempt = 0; attempt < 11 && last != 429; ++attempt)
        last = browser.sign_in("dev@example.com", "still not it").status;
    REQUIRE(last == 429);
    const auto throttled = browser.sign_in("DEV@example.com", kDashboardPassword);
    CHECK(throttled.status == 429);
    CHECK_FALSE(throttled.header("retry-after").empty());
    CHECK(browser.cookie("squawk_session").empty());
}

TEST_CASE("dashboard sign-in issues a new session id and sign-out ends the session") {
    Stack stack(api_only());
    create_dashboard_user(stack,
                          {"--workspace", std::to_string(stack.tenant().workspace_id), "--email",
                           "owner@example.com", "--role", "owner"},
                          kDashboardPassword);
    Browser browser(stack.base_url());
    CHECK(browser.get("/dashboard/").status == 302);

    browser.plant_cookie("squawk_session", "planted-by-someone-else");
    const auto signed_in = browser.sign_in("owner@example.com", kDashboardPassword);
    REQUIRE(signed_in.status == 302);
    CHECK(signed_in.header("location") == "/dashboard/");
    bool session_cookie_set = false;
    for (const auto& cookie : signed_in.all("set-cookie")) {
        if (!cookie.starts_with("squawk_session=")) continue;
        session_cookie_set = true;
        CHECK(cookie.find("HttpOnly") != std::string::npos);
        CHECK(cookie.find("SameSite=Lax") != std::string::npos);
        CHECK(cookie.find("Path=/dashboard") != std::string::npos);
        // The stack's API is served over plain HTTP (api.public_base_url), as in development.
        CHECK(cookie.find("Secure") == std::string::npos);
    }
    CHECK(session_cookie_set);
    const std::string first = browser.cookie("squawk_session");
    CHECK(first != "planted-by-someone-else");
    CHECK(first.size() >= 40);

    const auto home = browser.get("/dashboard/");
    CHECK(home.status == 200);
    CHECK(home.body.find("<nav") != std::string::npos);
    CHECK(home.body.find("<main") != std::string::npos);

    // Signing in again (the same browser) replaces the session: the old id is worth nothing.
    REQUIRE(browser.sign_in("owner@example.com", kDashboardPassword).status == 302);
    const std::string second = browser.cookie("squawk_session");
    CHECK(second != first);
    Browser replayer(stack.base_url());
    replayer.plant_cookie("squawk_session", first);
    CHECK(replayer.get("/dashboard/").status == 302);

    const auto signed_out = browser.post("/dashboard/logout", {{"csrf", home.csrf()}});
    // The token of the replaced session is refused: the form must come from this session.
    CHECK(signed_out.status == 403);
    const auto out =
        browser.post("/dashboard/logout", {{"csrf", browser.get("/dashboard/").csrf()}});
    CHECK(out.status == 302);
    CHECK(out.header("location") == "/dashboard/login");
    Browser after(stack.base_url());
    after.plant_cookie("squawk_session", second);
    CHECK(after.get("/dashboard/").status == 302);
    CHECK(browser.get("/dashboard/keys").status == 302);
}

TEST_CASE(
    "dashboard forms are refused without the session's CSRF token and viewers change nothing") {
    Stack stack(api_only());
    const auto workspace = std::to_string(stack.tenant().workspace_id);
    create_dashboard_user(
        stack, {"--workspace", workspace, "--email", "dev@example.com", "--role", "developer"},
        kDashboardPassword);
    create_dashboard_user(
        stack, {"--workspace", workspace, "--email", "viewer@example.com", "--role", "viewer"},
        kDashboardPassword);
    const auto keys_before = stack.count("SELECT COUNT(*) FROM api_keys");

    Browser developer(stack.base_url());
    REQUIRE(developer.sign_in("dev@example.com", kDashboardPassword).status == 302);
    const squawk::http::FormFields key_form = {{"type", "test"}, {"scopes", "jobs:read"}};
    CHECK(developer.post("/dashboard/keys", key_form).status == 403);
    auto wrong = key_form;
    wrong.emplace_back("csrf", "not-the-token");
    CHECK(developer.post("/dashboard/keys", wrong).status == 403);
    CHECK(stack.count("SELECT COUNT(*) FROM api_keys") == keys_before);

    Browser viewer(stack.base_url());
    REQUIRE(viewer.sign_in("viewer@example.com", kDashboardPassword).status == 302);
    const auto page = viewer.get("/dashboard/keys");
    REQUIRE(page.status == 200);
    CHECK(page.body.find("Create key") == std::string::npos);
    auto with_token = key_form;
    with_token.emplace_back("csrf", page.csrf());
    CHECK(viewer.post("/dashboard/keys", with_token).status == 403);
    const auto key_id = stack.db().run([](squawk::db::Session& s) {
        return s.query_one("SELECT MIN(id) FROM api_keys")->integer(0);
    });
    CHECK(viewer
              .post("/dashboard/keys/revoke",
                    {{"csrf", page.csrf()}, {"key_id", std::to_string(key_id)}})
              .status == 403);
    CHECK(stack.count("SELECT COUNT(*) FROM api_keys WHERE revoked_at IS NULL") == keys_before);

    // Every answer carries the security headers: pages, errors, redirects and assets.
    check_security_headers(page);
    check_security_headers(viewer.get("/dashboard/"));
    check_security_headers(viewer.get("/dashboard/nowhere"));
    check_security_headers(viewer.get("/dashboard/login"));
    check_security_headers(Browser(stack.base_url()).get("/dashboard/keys"));
    const auto css = viewer.get("/dashboard/assets/dashboard.css");
    CHECK(css.status == 200);
    CHECK(css.header("content-type").starts_with("text/css"));
    check_security_headers(css);
}

TEST_CASE("a key created on the dashboard is shown once, works against the API and is revoked") {
    Stack stack(api_only());
    create_dashboard_user(stack,
                          {"--workspace", std::to_string(stack.tenant().workspace_id), "--email",
                           "dev@example.com", "--role", "developer"},
                          kDashboardPassword);
    Browser browser(stack.base_url());
    REQUIRE(browser.sign_in("dev@example.com", kDashboardPassword).status == 302);

    const auto created =
        browser.post("/dashboard/keys", {{"csrf", browser.get("/dashboard/keys").csrf()},
                                         {"type", "test"},
                                         {"scopes", "jobs:read"},
                                         {"scopes", "media:read"},
                                         {"rate_limit", "90"}});
    REQUIRE(created.status == 201);
    CHECK(created.header("cache-control") == "no-store");
    std::smatch m;
    REQUIRE(std::regex_search(created.body, m, std::regex(R"(sqk_test_[A-Za-z0-9_-]{20,})")));
    const std::string secret = m[0];

    const auto me = stack.request("GET", "/v1/me", nullptr, secret);
    CHECK(me.status == 200);
    CHECK(me.json["data"]["workspace"]["id"] == stack.tenant().workspace_id);
    CHECK(me.json["data"]["key"]["type"] == "test");
    CHECK(me.json["data"]["key"]["rate_limit"] == 90);

    const auto list = browser.get("/dashboard/keys");
    REQUIRE(list.status == 200);
    CHECK(list.body.find(secret) == std::string::npos);
    CHECK(list.body.find(secret.substr(0, 13)) != std::string::npos);
    CHECK(list.body.find("jobs:read, media:read") != std::string::npos);

    // Another workspace's key is as unknown to this session as no key at all.
    const auto other = stack.create_tenant("other");
    const auto other_key_id = stack.db().run([&](squawk::db::Session& s) {
        return s
            .query_one("SELECT MIN(id) FROM api_keys WHERE workspace_id = ?", {other.workspace_id})
            ->integer(0);
    });
    CHECK(browser
              .post("/dashboard/keys/revoke",
                    {{"csrf", list.csrf()}, {"key_id", std::to_string(other_key_id)}})
              .status == 404);
    CHECK(stack.request("GET", "/v1/me", nullptr, other.test_key).status == 200);

    const auto key_id = stack.db().run([&](squawk::db::Session& s) {
        return s.query_one("SELECT id FROM api_keys WHERE key_prefix = ?", {secret.substr(0, 13)})
            ->integer(0);
    });
    const auto revoked = browser.post("/dashboard/keys/revoke",
                                      {{"csrf", list.csrf()}, {"key_id", std::to_string(key_id)}});
    CHECK(revoked.status == 302);
    CHECK(stack.request("GET", "/v1/me", nullptr, secret).status == 401);
    CHECK(browser.get("/dashboard/keys").body.find("revoked") != std::string::npos);
}
