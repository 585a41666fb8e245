// The dashboard's posts calendar through the real stack: posts scheduled through the API on their
// UTC day in the week and month views, the account filter, a post's page with each account's
// status, link, failure and recycling chain, another workspace's posts unknown, bad input 422.
#include "common/domain/social/post.hpp"
#include "tests/e2e/dashboard_browsing.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/post_fixtures.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <chrono>

using namespace squawk::testing;
namespace social = squawk::social;
namespace time_ = squawk::time;
using nlohmann::json;
using std::chrono::days;
using std::chrono::sys_days;

namespace {

// POST /v1/social/connect/<platform> {"sandbox": true, "name"}; the account's public id.
std::string connect_sandbox(Stack& stack, const std::string& test_key, const std::string& platform,
                            const std::string& name) {
    const auto r = stack.request("POST", "/v1/social/connect/" + platform,
                                 {{"sandbox", true}, {"name", name}}, test_key);
    check_success_envelope(r, 201);
    return r.json["data"]["id"];
}

// POST /v1/social/posts/schedule; the new post's id.
long long schedule(Stack& stack, const std::string& test_key, json body) {
    const auto r = stack.request("POST", "/v1/social/posts/schedule", body, test_key);
    check_success_envelope(r, 201);
    return r.json["data"]["id"];
}

std::string iso(sys_days day, int hour, int minute) {
    return time_::format_iso8601(time_::TimePoint{day} + std::chrono::hours(hour) +
                                 std::chrono::minutes(minute));
}

std::string date_of(sys_days day) {
    return iso(day, 0, 0).substr(0, 10);
}

// The calendar's label of a day: "Mon 7 Dec".
std::string day_label(sys_days day) {
    static constexpr std::array<const char*, 7> weekdays = {"Mon", "Tue", "Wed", "Thu",
                                                            "Fri", "Sat", "Sun"};
    static constexpr std::array<const char*, 12> months = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const std::chrono::year_month_day ymd{day};
    return std::string(weekdays[std::chrono::weekday{day}.iso_encoding() - 1]) + " " +
           std::to_string(unsigned(ymd.day())) + " " + months[unsigned(ymd.month()) - 1];
}

// The calendar cell of `day` on the page: from its label to the end of its cell.
std::string cell(const std::string& page, sys_days day) {
    const std::string label = "<p class=\"cal-day\">" + day_label(day) + "</p>";
    const auto start = page.find(label);
    if (start == std::string::npos) return {};
    return page.substr(start, page.find("</td>", start) - start);
}

std::string link_to(long long post_id) {
    return "href=\"/dashboard/posts/" + std::to_string(post_id) + "\"";
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

void sign_in(Stack& stack, Browser& browser, const std::string& email, const std::string& role) {
    create_dashboard_user(stack,
                          {"--workspace", std::to_string(stack.tenant().workspace_id), "--email",
                           email, "--role", role},
                          kDashboardPassword);
    REQUIRE(browser.sign_in(email, kDashboardPassword).status == 302);
}

}  // namespace

TEST_CASE("the posts calendar shows scheduled posts on their UTC day by week and by month") {
    Stack stack(api_only());
    const auto& test_key = stack.tenant().test_key;
    const std::string x = connect_sandbox(stack, test_key, "x", "Sandbox X");
    const std::string telegram = connect_sandbox(stack, test_key, "telegram", "Sandbox Telegram");
    // A Monday two weeks ahead: the week and the month of it hold every post below.
    const sys_days today{std::chrono::floor<days>(time_::now())};
    const sys_days monday = today - (std::chrono::weekday{today} - std::chrono::Monday) + days{14};
    const long long to_x = schedule(stack, test_key,
                                    {{"content", "Launch day on X"},
                                     {"account_ids", json::array({x})},
                                     {"scheduled_time", iso(monday, 9, 30)}});
    const long long to_telegram = schedule(stack, test_key,
                                           {{"content", "Tuesday <b>news</b> on Telegram"},
                                            {"account_ids", json::array({telegram})},
                                            {"scheduled_time", iso(monday + days{1}, 15, 5)}});
    // One post, each account at its own time: it shows on both days, each with its platform.
    const long long both = schedule(
        stack, test_key,
        {{"content", "Everywhere, in turn"},
         {"account_ids", json::array({x, telegram})},
         {"scheduled_time", iso(monday, 11, 0)},
         {"platform_options", {{"telegram", {{"scheduled_time", iso(monday + days{3}, 8, 0)}}}}}});

    Browser browser(stack.base_url());
    sign_in(stack, browser, "viewer@example.com", "viewer");

    const auto week = browser.get("/dashboard/posts?view=week&date=" + date_of(monday + days{2}));
    REQUIRE(week.status == 200);
    CHECK(has(week.body, "<caption>Week of "));
    CHECK(has(week.body, "(UTC)</caption>"));
    CHECK(has(week.body, "<th scope=\"col\">" + day_label(monday) + "</th>"));
    const auto monday_cell = cell(week.body, monday);
    CHECK(has(monday_cell, link_to(to_x)));
    CHECK(has(monday_cell, "<time datetime=\"" + date_of(monday) + "T09:30Z\">09:30</time>"));
    CHECK(has(monday_cell, "x · scheduled"));
    CHECK(has(monday_cell, link_to(both)));
    CHECK_FALSE(has(monday_cell, link_to(to_telegram)));
    // Earlier first within a day.
    CHECK(monday_cell.find(link_to(to_x)) < monday_cell.find(link_to(both)));
    const auto tuesday_cell = cell(week.body, monday + days{1});
    CHECK(has(tuesday_cell, link_to(to_telegram)));
    CHECK(has(tuesday_cell, "Tuesday &lt;b&gt;news&lt;/b&gt; on Telegram"));
    CHECK(has(tuesday_cell, "telegram · scheduled"));
    const auto thursday_cell = cell(week.body, monday + days{3});
    CHECK(has(thursday_cell, link_to(both)));
    CHECK(has(thursday_cell, "08:00"));
    CHECK(has(thursday_cell, "telegram · scheduled"));
    CHECK_FALSE(has(cell(week.body, monday + days{2}), "/dashboard/posts/"));
    // The neighbouring weeks are a link away and hold none of them.
    CHECK(has(week.body, "href=\"/dashboard/posts?view=week&amp;date=" + date_of(monday - days{7}) +
                             "\">Previous week</a>"));
    const auto next_week =
        browser.get("/dashboard/posts?view=week&date=" + date_of(monday + days{7}));
    REQUIRE(next_week.status == 200);
    CHECK_FALSE(has(next_week.body, link_to(to_x)));
    CHECK(has(next_week.body, "No posts in this period."));

    const auto month = browser.get("/dashboard/posts?view=month&date=" + date_of(monday));
    REQUIRE(month.status == 200);
    CHECK(has(month.body, "cal-month"));
    CHECK(has(cell(month.body, monday), link_to(to_x)));
    CHECK(has(cell(month.body, monday + days{1}), link_to(to_telegram)));
    CHECK(has(cell(month.body, monday + days{3}), link_to(both)));
    CHECK_FALSE(has(cell(month.body, monday + days{2}), "/dashboard/posts/"));

    // Only the Telegram account's copies: the X post is gone, the shared one stays on Thursday.
    const auto filtered = browser.get("/dashboard/posts?view=week&date=" + date_of(monday) +
                                      "&account_id=" + telegram);
    REQUIRE(filtered.status == 200);
    CHECK(has(filtered.body, "<option value=\"" + telegram + "\" selected>"));
    CHECK_FALSE(has(filtered.body, link_to(to_x)));
    CHECK_FALSE(has(cell(filtered.body, monday), link_to(both)));
    CHECK(has(cell(filtered.body, monday + days{1}), link_to(to_telegram)));
    CHECK(has(cell(filtered.body, monday + days{3}), link_to(both)));
    CHECK(has(filtered.body, "account_id=" + telegram + "\">Next week</a>"));

    const auto detail = browser.get("/dashboard/posts/" + std::to_string(both));
    REQUIRE(detail.status == 200);
    CHECK(has(detail.body, "Everywhere, in turn"));
    CHECK(has(detail.body, "Sandbox X (x, sandbox)"));
    CHECK(has(detail.body, "Sandbox Telegram (telegram, sandbox)"));
    CHECK(has(detail.body, "<code>" + x + "</code>"));
    CHECK(has(detail.body, date_of(monday) + " 11:00 UTC"));
    CHECK(has(detail.body, date_of(monday + days{3}) + " 08:00 UTC"));
    CHECK(has(detail.body, "<td>scheduled</td>"));
    CHECK_FALSE(has(detail.body, "Recycling chain"));
}

TEST_CASE("the posts calendar refuses a bad view, date or account with 422 and the problem") {
    Stack stack(api_only());
    Browser browser(stack.base_url());
    sign_in(stack, browser, "dev@example.com", "developer");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"?view=week&date=2026-02-30", "The date is a day"},
        {"?date=23.11.2026", "The date is a day"},
        {"?date=2026-11-23T10:00", "The date is a day"},
        {"?date=0999-01-01", "The date is a day"},
        {"?view=year", "The view is week or month."},
        {"?account_id=acc_nobody", "This workspace has no connected account acc_nobody."},
    };
    for (const auto& [query, problem] : cases) {
        INFO(query);
        const auto page = browser.get("/dashboard/posts" + query);
        CHECK(page.status == 422);
        CHECK(has(page.body, "role=\"alert\">" + problem));
        CHECK_FALSE(has(page.body, "<table"));
    }
    CHECK(browser.get("/dashboard/posts?view=month&date=2026-11-23").status == 200);
}

TEST_CASE("another workspace's post answers 404 on the dashboard and is not on its calendar") {
    Stack stack(api_only());
    const auto other = stack.create_tenant("other");
    const std::string theirs_account = connect_sandbox(stack, other.test_key, "x", "Theirs");
    const auto when = time_::now() + std::chrono::hours(2);
    const long long theirs = schedule(stack, other.test_key,
                                      {{"content", "Not yours to see"},
                                       {"account_ids", json::array({theirs_account})},
                                       {"scheduled_time", time_::format_iso8601(when)}});
    Browser browser(stack.base_url());
    sign_in(stack, browser, "owner@example.com", "owner");

    const auto foreign = browser.get("/dashboard/posts/" + std::to_string(theirs));
    CHECK(foreign.status == 404);
    CHECK_FALSE(has(foreign.body, "Not yours to see"));
    CHECK(browser.get("/dashboard/posts/999999").status == 404);
    CHECK(browser.get("/dashboard/posts/abc").status == 404);
    const auto week =
        browser.get("/dashboard/posts?date=" + time_::format_iso8601(when).substr(0, 10));
    REQUIRE(week.status == 200);
    CHECK_FALSE(has(week.body, link_to(theirs)));
    CHECK_FALSE(has(week.body, theirs_account));
    // Their account is no filter here either.
    CHECK(browser.get("/dashboard/posts?account_id=" + theirs_account).status == 422);
    // Cancelling it from here is as unknown; it stays scheduled.
    CHECK(
        browser
            .post("/dashboard/posts/" + std::to_string(theirs) + "/cancel", {{"csrf", week.csrf()}})
            .status == 404);
    check_success_envelope(
        stack.request("GET", "/v1/social/posts/" + std::to_string(theirs), nullptr, other.test_key),
        200);
    // A post's page takes no form of its own.
    CHECK(browser.post("/dashboard/posts/" + std::to_string(theirs), {{"csrf", "x"}}).status ==
          405);
}

TEST_CASE_METHOD(PublishStack,
                 "a post's dashboard page shows each account's outcome and its recycling chain",
                 "[e2e][dashboard]") {
    const auto& test_key = stack.tenant().test_key;
    const auto workspace = stack.tenant().workspace_id;
    const std::string x = connect_sandbox(stack, test_key, "x", "Sandbox X");
    const std::string telegram = connect_sandbox(stack, test_key, "telegram", "Sandbox Telegram");
    // Too long for X, fine for Telegram: one account publishes, the other fails at its check.
    auto partial = new_post(stack, workspace, std::string(300, 'p'), {telegram, x}, time_::now());
    partial.is_test = true;
    // Hourly repeats of a post due three hours ago: both repeats are due at once.
    auto evergreen =
        new_post(stack, workspace, "Evergreen", {telegram}, time_::now() - std::chrono::hours(3));
    evergreen.is_test = true;
    evergreen.recycle = social::RecycleRule{1, 2, std::nullopt};
    const auto written = insert_posts(stack, {partial, evergreen});

    const auto settled = wait_settled(stack, written[0].id);
    REQUIRE(settled.status == social::PostStatus::partial);
    REQUIRE(Stack::wait_until(
        [&] {
            return stack.count(
                       "SELECT COUNT(*) FROM social_posts WHERE recycle_parent_id = ?"
                       " AND status = 'published'",
                       {written[1].id}) == 2;
        },
        std::chrono::seconds(30)));
    const auto copies = stack.db().run([&](squawk::db::Session& s) {
        return s.query("SELECT id FROM social_posts WHERE recycle_parent_id = ? ORDER BY id",
                       {written[1].id});
    });
    REQUIRE(copies.size() == 2);

    Browser browser(stack.base_url());
    sign_in(stack, browser, "viewer@example.com", "viewer");
    const auto page = browser.get("/dashboard/posts/" + std::to_string(written[0].id));
    REQUIRE(page.status == 200);
    CHECK(has(page.body, "partial"));
    CHECK(has(page.body, "<td>published</td>"));
    CHECK(has(page.body, "href=\"https://sandbox.squawk.invalid/telegram/sandbox-"));
    CHECK(has(page.body, "View on telegram"));
    CHECK(has(page.body, "failed<p class=\"error\">"));
    CHECK(has(page.body, "<code>CONTENT_TOO_LONG</code>"));

    const auto first = browser.get("/dashboard/posts/" + std::to_string(written[1].id));
    REQUIRE(first.status == 200);
    CHECK(has(first.body, "Published again every hour, at most 2 times."));
    CHECK(has(first.body, "First post: this post"));
    CHECK(has(first.body, link_to(copies[0].integer(0)) + ">Copy 1: post "));
    CHECK(has(first.body, link_to(copies[1].integer(0)) + ">Copy 2: post "));
    const auto copy = browser.get("/dashboard/posts/" + std::to_string(copies[1].integer(0)));
    REQUIRE(copy.status == 200);
    CHECK(has(copy.body, link_to(written[1].id) + ">First post: post "));
    CHECK(has(copy.body, "Copy 2: this post"));

    // The calendar of today's week has the partial post with both outcomes.
    const auto week = browser.get("/dashboard/posts");
    REQUIRE(week.status == 200);
    CHECK(has(week.body, link_to(written[0].id)));
    CHECK(has(week.body, "published, failed"));
}

TEST_CASE("a writer cancels a scheduled post from its page as DELETE does and a viewer cannot") {
    Stack stack(api_only());
    const auto& test_key = stack.tenant().test_key;
    const std::string account = connect_sandbox(stack, test_key, "telegram", "Sandbox Telegram");
    const long long post =
        schedule(stack, test_key,
                 {{"content", "Maybe not"},
                  {"account_ids", json::array({account})},
                  {"scheduled_time", time_::format_iso8601(time_::now() + std::chrono::hours(3))}});
    const std::string path = "/dashboard/posts/" + std::to_string(post);
    const std::string api_path = "/v1/social/posts/" + std::to_string(post);

    Browser viewer(stack.base_url());
    sign_in(stack, viewer, "viewer@example.com", "viewer");
    const auto seen = viewer.get(path);
    REQUIRE(seen.status == 200);
    CHECK_FALSE(has(seen.body, "Cancel this post"));
    CHECK(viewer.post(path + "/cancel", {{"csrf", seen.csrf()}}).status == 403);
    check_success_envelope(stack.request("GET", api_path, nullptr, test_key), 200);

    Browser writer(stack.base_url());
    sign_in(stack, writer, "dev@example.com", "developer");
    const auto page = writer.get(path);
    REQUIRE(page.status == 200);
    CHECK(has(page.body, "action=\"" + path + "/cancel\""));
    CHECK(writer.post(path + "/cancel", {{"csrf", "forged"}}).status == 403);
    check_success_envelope(stack.request("GET", api_path, nullptr, test_key), 200);

    const auto cancelled = writer.post(path + "/cancel", {{"csrf", page.csrf()}});
    CHECK(cancelled.status == 302);
    CHECK(cancelled.header("location").starts_with("/dashboard/posts?view=week&date="));
    check_error_envelope(stack.request("GET", api_path, nullptr, test_key), 404,
                         "RESOURCE_NOT_FOUND");
    CHECK(stack.count("SELECT COUNT(*) FROM social_post_targets WHERE post_id = ? AND status = ?",
                      {post, "cancelled"}) == 1);
    CHECK(writer.get(path).status == 404);
    CHECK(writer.post(path + "/cancel", {{"csrf", page.csrf()}}).status == 404);
}
