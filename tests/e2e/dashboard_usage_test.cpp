// The dashboard's usage, billing and profile pages through the real stack: the figures are those
// of GET /v1/me/usage and /v1/me/billing, profiles made and paused on the page are those of
// /v1/profiles, viewers change nothing and another workspace's profile is not found.
#include "tests/e2e/dashboard_browsing.hpp"
#include "tests/support/api_checks.hpp"

#include <catch2/catch.hpp>

#include <iomanip>
#include <sstream>

using namespace squawk::testing;

namespace {

// The text of the element with id `id` on the page, or a failure naming the page.
std::string text_of(const PageAnswer& page, const std::string& id) {
    std::smatch m;
    if (!std::regex_search(page.body, m, std::regex("id=\"" + id + "\"[^>]*>([^<]*)<")))
        FAIL("the page has no element #" << id << ":\n" << page.body);
    return m[1];
}

std::string credits_text(double credits) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(4) << credits;
    return out.str();
}

long long profile_count(Stack& stack) {
    return stack.count("SELECT COUNT(*) FROM profiles");
}

// A user of the stack's workspace with `role`, signed in on `browser`.
void sign_in_as(Stack& stack, Browser& browser, const std::string& email, const std::string& role) {
    create_dashboard_user(stack,
                          {"--workspace", std::to_string(stack.tenant().workspace_id), "--email",
                           email, "--role", role},
                          kDashboardPassword);
    REQUIRE(browser.sign_in(email, kDashboardPassword).status == 302);
}

}  // namespace

TEST_CASE(
    "the usage page shows GET /v1/me/usage's figures for each period as a chart and a table, "
    "and the balance of GET /v1/me/billing") {
    StackOptions options = without_worker();
    options.extra_config =
        "[billing]\nmonthly_allowance = 0\n\n[billing.prices]\ntext_to_speech = 0.25\n";
    Stack stack(options);
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "5");
    const std::string poller = stack.create_key(tenant.workspace_id, "test", "all", 100000);
    // Each call reserves 2 s of speech (one word plus a second's pad) at 0.25: 1 credit in all.
    for (int i = 0; i < 2; ++i)
        check_success_envelope(stack.request("POST", "/v1/audio/text-to-speech",
                                             {{"text", "Count."}}, tenant.live_key),
                               202);
    // Usage three days back (a request and a charge of 2 credits): every period but today counts
    // it, and the page shows it on its own day.
    const std::string earlier_day = stack.db().run([&](squawk::db::Session& s) {
        s.execute(
            "INSERT INTO wallet_ledger (workspace_id, kind, operation, purchased_delta,"
            " monthly_delta, purchased_after, monthly_after, created_at)"
            " VALUES (?, 'charge', 'text_to_speech', -20000, 0, 0, 0,"
            " UTC_TIMESTAMP(6) - INTERVAL 3 DAY)",
            {tenant.workspace_id});
        s.execute(
            "INSERT INTO request_log (workspace_id, request_id, method, route, status,"
            " duration_us, created_at) VALUES (?, 'req_three_days_back', 'POST',"
            " '/v1/audio/text-to-speech', 202, 1000, UTC_TIMESTAMP(6) - INTERVAL 3 DAY)",
            {tenant.workspace_id});
        return s.query_one("SELECT DATE(UTC_TIMESTAMP(6) - INTERVAL 3 DAY)")->text(0);
    });
    Browser browser(stack.base_url());
    sign_in_as(stack, browser, "dev@example.com", "developer");

    const auto usage = [&](const std::string& period) {
        const auto r = stack.request("GET", "/v1/me/usage?period=" + period, nullptr, poller);
        REQUIRE(r.status == 200);
        return r.json["data"];
    };
    // The request log is written in the background, a moment after each answer.
    REQUIRE(Stack::wait_until([&] { return usage("today").value("total_requests", 0) >= 2; },
                              std::chrono::seconds(10)));

    for (const std::string period : {"today", "7d", "30d", "90d", "all"}) {
        INFO(period);
        const std::string credits = period == "today" ? "1.0000" : "3.0000";
        // Requests keep arriving (these reads are logged too), so the page's count lies between
        // the API's before and after it; credits do not move.
        const auto before = usage(period);
        const auto page = browser.get("/dashboard/usage?period=" + period);
        const auto after = usage(period);
        REQUIRE(page.status == 200);
        const long long shown = std::stoll(text_of(page, "total-requests"));
        CHECK(shown >= before["total_requests"].get<long long>());
        CHECK(shown <= after["total_requests"].get<long long>());
        CHECK(text_of(page, "total-credits") ==
              credits_text(after["total_credits_used"].get<double>()));
        CHECK(text_of(page, "total-credits") == credits);
        CHECK(page.body.find("href=\"/dashboard/usage?period=" + period +
                             "\" aria-current=\"page\"") != std::string::npos);
        // Both charts are drawn, each a labelled image with at least one bar (today's).
        for (const std::string chart : {"requests-chart", "credits-chart"}) {
            std::smatch m;
            CHECK(std::regex_search(
                page.body, m,
                std::regex("<svg id=\"" + chart + "\" role=\"img\" aria-label=\"[^\"]+ in total")));
            const auto start = page.body.find("<svg id=\"" + chart + "\"");
            const auto end = page.body.find("</svg>", start);
            REQUIRE(end != std::string::npos);
            CHECK(page.body.substr(start, end - start).find("<rect class=\"chart-bar\"") !=
                  std::string::npos);
        }
        // The table's rows add up to the totals it shows.
        long long requests = 0;
        const std::regex row(R"(<tr><th scope="row">\d{4}-\d\d-\d\d</th><td>(\d+)</td>)");
        for (auto it = std::sregex_iterator(page.body.begin(), page.body.end(), row);
             it != std::sregex_iterator(); ++it)
            requests += std::stoll((*it)[1]);
        CHECK(requests == shown);
        CHECK(page.body.find("<tfoot><tr><th scope=\"row\">Total</th><td>" + std::to_string(shown) +
                             "</td><td>" + credits + "</td>") != std::string::npos);
        const bool earlier_shown =
            page.body.find("<tr><th scope=\"row\">" + earlier_day +
                           "</th><td>1</td><td>2.0000</td></tr>") != std::string::npos;
        CHECK(earlier_shown == (period != "today"));
    }

    const auto fallback = browser.get("/dashboard/usage");
    CHECK(fallback.status == 200);
    CHECK(fallback.body.find("href=\"/dashboard/usage?period=30d\" aria-current=\"page\"") !=
          std::string::npos);

    for (const std::string bad : {"yesterday", "ALL", "7"}) {
        INFO(bad);
        const auto refused = browser.get("/dashboard/usage?period=" + bad);
        CHECK(refused.status == 422);
        CHECK(refused.body.find("The period must be one of today, 7d, 30d, 90d, all.") !=
              std::string::npos);
        CHECK(refused.body.find("id=\"total-requests\"") == std::string::npos);
    }

    const auto billing = stack.request("GET", "/v1/me/billing", nullptr, poller);
    REQUIRE(billing.status == 200);
    const auto page = browser.get("/dashboard/usage?period=today");
    CHECK(text_of(page, "balance-total") ==
          billing.json["data"]["balance"]["total"].get<std::string>() + " " +
              billing.json["data"]["currency"].get<std::string>());
    CHECK(text_of(page, "balance-total") == "4.0000 USD");
    CHECK(text_of(page, "payment-status") == billing.json["data"]["payment"]["status"]);
    CHECK(page.body.find("<th scope=\"row\">text_to_speech</th><td>0.2500</td>") !=
          std::string::npos);
}

TEST_CASE(
    "profiles created, paused and resumed on the dashboard are those of GET /v1/profiles, "
    "and a bad name is refused with nothing written") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    Browser browser(stack.base_url());
    sign_in_as(stack, browser, "dev@example.com", "developer");

    const auto empty = browser.get("/dashboard/profiles");
    REQUIRE(empty.status == 200);
    CHECK(empty.body.find("no profiles yet") != std::string::npos);
    const std::string csrf = empty.csrf();

    const auto created = browser.post(
        "/dashboard/profiles", {{"csrf", csrf}, {"name", "Acme shop"}, {"external_id", "cust-7"}});
    CHECK(created.status == 302);
    CHECK(created.header("location") == "/dashboard/profiles");
    const auto listed = stack.request("GET", "/v1/profiles", nullptr, key);
    REQUIRE(listed.status == 200);
    REQUIRE(listed.json["data"].size() == 1);
    const auto profile = listed.json["data"][0];
    CHECK(profile["name"] == "Acme shop");
    CHECK(profile["external_id"] == "cust-7");
    CHECK(profile["status"] == "active");
    const std::string id = std::to_string(profile["id"].get<long long>());
    const auto page = browser.get("/dashboard/profiles");
    CHECK(page.body.find("<td>Acme shop</td><td>cust-7</td>") != std::string::npos);
    CHECK(page.body.find("aria-label=\"Pause profile Acme shop\"") != std::string::npos);

    // The API's rules: a blank name, a name over 200 characters; the form keeps what was typed.
    const auto blank = browser.post("/dashboard/profiles",
                                    {{"csrf", csrf}, {"name", "   "}, {"external_id", "kept-1"}});
    CHECK(blank.status == 422);
    CHECK(blank.body.find("Name must not be blank.") != std::string::npos);
    CHECK(blank.body.find("value=\"kept-1\"") != std::string::npos);
    const auto api_blank = stack.request("POST", "/v1/profiles", {{"name", "   "}}, key);
    check_error_envelope(api_blank, 422, "VALIDATION_ERROR");
    CHECK(api_blank.json["error"]["details"]["fields"]["name"] == "must not be blank");
    const auto long_name =
        browser.post("/dashboard/profiles", {{"csrf", csrf}, {"name", std::string(201, 'n')}});
    CHECK(long_name.status == 422);
    CHECK(long_name.body.find("Name must be at most 200 characters.") != std::string::npos);
    CHECK(profile_count(stack) == 1);

    CHECK(browser.post("/dashboard/profiles/" + id + "/pause", {{"csrf", csrf}}).status == 302);
    const auto paused = stack.request("GET", "/v1/profiles/" + id, nullptr, key);
    CHECK(paused.json["status"] == "paused");
    CHECK(browser.get("/dashboard/profiles").body.find("aria-label=\"Resume profile Acme shop\"") !=
          std::string::npos);
    CHECK(browser.post("/dashboard/profiles/" + id + "/resume", {{"csrf", csrf}}).status == 302);
    CHECK(stack.request("GET", "/v1/profiles/" + id, nullptr, key).json["status"] == "active");

    // Another workspace's profile, and ids that are none, are not found; nothing changes.
    const auto other = stack.create_tenant("other");
    const auto foreign =
        stack.request("POST", "/v1/profiles", {{"name", "Not yours"}}, other.test_key);
    REQUIRE(foreign.status == 201);
    const std::string foreign_id = std::to_string(foreign.json["data"]["id"].get<long long>());
    CHECK(browser.post("/dashboard/profiles/" + foreign_id + "/pause", {{"csrf", csrf}}).status ==
          404);
    CHECK(stack.request("GET", "/v1/profiles/" + foreign_id, nullptr, other.test_key)
              .json["status"] == "active");
    for (const std::string bad : {"0", "abc", "999999999"})
        CHECK(browser.post("/dashboard/profiles/" + bad + "/pause", {{"csrf", csrf}}).status ==
              404);
    CHECK(browser.get("/dashboard/profiles").body.find("Not yours") == std::string::npos);
}

TEST_CASE("a viewer sees usage and profiles but cannot create, pause or resume a profile") {
    Stack stack(api_only());
    const auto profile =
        stack.request("POST", "/v1/profiles", {{"name", "Existing"}}, stack.tenant().test_key);
    REQUIRE(profile.status == 201);
    const std::string id = std::to_string(profile.json["data"]["id"].get<long long>());
    Browser viewer(stack.base_url());
    sign_in_as(stack, viewer, "viewer@example.com", "viewer");

    CHECK(viewer.get("/dashboard/usage").status == 200);
    const auto page = viewer.get("/dashboard/profiles");
    REQUIRE(page.status == 200);
    CHECK(page.body.find("<td>Existing</td>") != std::string::npos);
    CHECK(page.body.find("Create profile") == std::string::npos);
    CHECK(page.body.find("Pause profile") == std::string::npos);
    const std::string csrf = page.csrf();
    CHECK(viewer.post("/dashboard/profiles", {{"csrf", csrf}, {"name", "Sneaky"}}).status == 403);
    CHECK(viewer.post("/dashboard/profiles/" + id + "/pause", {{"csrf", csrf}}).status == 403);
    CHECK(viewer.post("/dashboard/profiles/" + id + "/resume", {{"csrf", csrf}}).status == 403);
    CHECK(profile_count(stack) == 1);
    CHECK(stack.request("GET", "/v1/profiles/" + id, nullptr, stack.tenant().test_key)
              .json["status"] == "active");
}
