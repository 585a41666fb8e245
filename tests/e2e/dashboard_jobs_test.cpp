// The dashboard's jobs and request-log pages through the real stack: listing, filters and pages,
// a job's detail, cancelling as POST /v1/jobs/{id}/cancel does, viewers refused, another
// workspace's jobs unknown, bad filters answered 422 as the API answers them.
#include "tests/e2e/dashboard_browsing.hpp"

#include <catch2/catch.hpp>

#include <regex>

using namespace squawk::testing;

namespace {

// A ping job through the API; with no worker running it stays queued.
std::string submit_ping(Stack& stack, const std::string& key) {
    const auto accepted = stack.request("POST", "/v1/jobs/ping", nlohmann::json::object(), key);
    REQUIRE(accepted.status == 202);
    return accepted.json["data"].value("job_id", "");
}

std::string api_status(Stack& stack, const std::string& key, const std::string& job_id) {
    return stack.request("GET", "/v1/jobs/" + job_id, nullptr, key)
        .json["data"]
        .value("status", "");
}

// The target of the page's link marked `rel`, as the browser follows it.
std::optional<std::string> link(const std::string& body, const std::string& rel) {
    std::smatch found;
    if (!std::regex_search(body, found, std::regex("href=\"([^\"]*)\" rel=\"" + rel + "\"")))
        return std::nullopt;
    std::string href = found[1];
    for (size_t at = href.find("&amp;"); at != std::string::npos; at = href.find("&amp;", at))
        href.replace(at, 5, "&");
    return href;
}

// The job ids a jobs page lists, top to bottom.
std::vector<std::string> listed_jobs(const std::string& body) {
    std::vector<std::string> ids;
    const std::regex row("<a href=\"/dashboard/jobs/([^\"]+)\">");
    for (auto it = std::sregex_iterator(body.begin(), body.end(), row);
         it != std::sregex_iterator(); ++it)
        ids.push_back((*it)[1]);
    return ids;
}

}  // namespace

TEST_CASE("the jobs pages list, filter and page the workspace's jobs and cancel a queued one") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    add_dashboard_user(stack, stack.tenant().workspace_id, "dev@example.com", "developer");
    const std::string first = submit_ping(stack, key);
    const std::string second = submit_ping(stack, key);
    const std::string third = submit_ping(stack, key);
    REQUIRE(stack.request("POST", "/v1/jobs/" + first + "/cancel", nullptr, key).status == 200);

    Browser browser(stack.base_url());
    REQUIRE(browser.sign_in("dev@example.com", kDashboardPassword).status == 302);
    const auto all = browser.get("/dashboard/jobs");
    REQUIRE(all.status == 200);
    // Newest first.
    CHECK(all.body.find(third) < all.body.find(second));
    CHECK(all.body.find(second) < all.body.find(first));
    CHECK_FALSE(contains(all.body, "Next page"));

    const auto cancelled = browser.get("/dashboard/jobs?status=cancelled");
    REQUIRE(cancelled.status == 200);
    CHECK(contains(cancelled.body, first));
    CHECK_FALSE(contains(cancelled.body, second));
    const auto queued = browser.get("/dashboard/jobs?status=queued");
    CHECK(contains(queued.body, second));
    CHECK_FALSE(contains(queued.body, first));
    // The form's "Any" sends an empty status: no filter.
    CHECK(listed_jobs(browser.get("/dashboard/jobs?status=").body) ==
          std::vector<std::string>{third, second, first});
    CHECK(listed_jobs(browser.get("/dashboard/jobs?type=noop&status=queued").body) ==
          std::vector<std::string>{third, second});
    CHECK(listed_jobs(browser.get("/dashboard/jobs?type=images.generate").body).empty());

    const auto page_one = browser.get("/dashboard/jobs?per_page=1&status=queued");
    CHECK(listed_jobs(page_one.body) == std::vector<std::string>{third});
    const auto next = link(page_one.body, "next");
    REQUIRE(next);
    CHECK(contains(*next, "status=queued"));
    CHECK_FALSE(contains(page_one.body, "Previous page"));
    const auto page_two = browser.get(*next);
    CHECK(listed_jobs(page_two.body) == std::vector<std::string>{second});
    CHECK_FALSE(contains(page_two.body, third));
    CHECK(contains(page_two.body, "Previous page"));
    CHECK_FALSE(contains(page_two.body, "Next page"));

    // Bad filters are refused as /v1/jobs refuses them, the problem named on the page.
    const auto bad = browser.get("/dashboard/jobs?status=lost&per_page=500&before=x");
    CHECK(bad.status == 422);
    CHECK(contains(bad.body, "status must be one of"));
    CHECK(contains(bad.body, "per_page"));
    CHECK(contains(bad.body, "before"));
    CHECK(browser.get("/dashboard/jobs?before=9&after=1").status == 422);
    CHECK_FALSE(contains(bad.body, second));

    const auto detail = browser.get("/dashboard/jobs/" + second);
    REQUIRE(detail.status == 200);
    CHECK(contains(detail.body, "<dd id=\"job-status\">queued</dd>"));
    CHECK(contains(detail.body, "noop"));
    REQUIRE(contains(detail.body, "Cancel job"));
    const auto done =
        browser.post("/dashboard/jobs/" + second + "/cancel", {{"csrf", detail.csrf()}});
    CHECK(done.status == 302);
    CHECK(done.header("location") == "/dashboard/jobs/" + second);
    CHECK(api_status(stack, key, second) == "cancelled");
    const auto after = browser.get("/dashboard/jobs/" + second);
    CHECK(contains(after.body, "<dd id=\"job-status\">cancelled</dd>"));
    CHECK_FALSE(contains(after.body, "Cancel job"));
    // A finished job cannot be cancelled again, here as in the API.
    CHECK(browser.post("/dashboard/jobs/" + second + "/cancel", {{"csrf", detail.csrf()}}).status ==
          409);
    CHECK(api_status(stack, key, third) == "queued");
}

TEST_CASE("the jobs pages' next links walk every job exactly once, newest first, and back") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    add_dashboard_user(stack, stack.tenant().workspace_id, "dev@example.com", "developer");
    std::vector<std::string> submitted;
    for (int i = 0; i < 8; ++i) submitted.push_back(submit_ping(stack, key));
    const std::vector<std::string> newest_first(submitted.rbegin(), submitted.rend());

    Browser browser(stack.base_url());
    REQUIRE(browser.sign_in("dev@example.com", kDashboardPassword).status == 302);
    std::vector<std::string> walked;
    std::vector<std::string> pages;
    std::optional<std::string> at = "/dashboard/jobs?per_page=3";
    while (at) {
        const auto page = browser.get(*at);
        REQUIRE(page.status == 200);
        const auto ids = listed_jobs(page.body);
        CHECK(ids.size() <= 3);
        walked.insert(walked.end(), ids.begin(), ids.end());
        pages.push_back(page.body);
        at = link(page.body, "next");
        REQUIRE(pages.size() <= 3);
    }
    CHECK(walked == newest_first);
    CHECK(pages.size() == 3);

    // Previous links from the last page give back the same pages.
    std::vector<std::string> back;
    at = link(pages.back(), "prev");
    while (at) {
        const auto page = browser.get(*at);
        const auto ids = listed_jobs(page.body);
        back.insert(back.begin(), ids.begin(), ids.end());
        at = link(page.body, "prev");
        REQUIRE(back.size() <= newest_first.size());
    }
    CHECK(back == std::vector<std::string>(newest_first.begin(), newest_first.begin() + 6));
}

TEST_CASE("a viewer sees jobs but cannot cancel one and another workspace's job is unknown") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    add_dashboard_user(stack, stack.tenant().workspace_id, "viewer@example.com", "viewer");
    add_dashboard_user(stack, stack.tenant().workspace_id, "owner@example.com", "owner");
    const std::string ours = submit_ping(stack, key);
    const auto other = stack.create_tenant("other");
    const std::string theirs = submit_ping(stack, other.test_key);

    Browser viewer(stack.base_url());
    REQUIRE(viewer.sign_in("viewer@example.com", kDashboardPassword).status == 302);
    const auto list = viewer.get("/dashboard/jobs");
    REQUIRE(list.status == 200);
    CHECK(contains(list.body, ours));
    CHECK_FALSE(contains(list.body, theirs));
    const auto detail = viewer.get("/dashboard/jobs/" + ours);
    REQUIRE(detail.status == 200);
    CHECK_FALSE(contains(detail.body, "Cancel job"));
    CHECK(viewer.post("/dashboard/jobs/" + ours + "/cancel", {{"csrf", detail.csrf()}}).status ==
          403);
    CHECK(api_status(stack, key, ours) == "queued");

    Browser owner(stack.base_url());
    REQUIRE(owner.sign_in("owner@example.com", kDashboardPassword).status == 302);
    const auto csrf = owner.get("/dashboard/jobs").csrf();
    const auto foreign = owner.get("/dashboard/jobs/" + theirs);
    const auto unknown = owner.get("/dashboard/jobs/job_000000000000000000000000");
    CHECK(foreign.status == 404);
    CHECK(unknown.status == 404);
    CHECK(contains(foreign.body, "No job with this id."));
    CHECK(owner.post("/dashboard/jobs/" + theirs + "/cancel", {{"csrf", csrf}}).status == 404);
    CHECK(api_status(stack, other.test_key, theirs) == "queued");
}

TEST_CASE("the request log page lists a request made with an API key with its request id") {
    Stack stack(api_only());
    const auto& tenant = stack.tenant();
    add_dashboard_user(stack, tenant.workspace_id, "viewer@example.com", "viewer");
    const auto missing = stack.request("GET", "/v1/jobs/job_nothing", nullptr, tenant.live_key);
    REQUIRE(missing.status == 404);
    const std::string request_id = missing.header("x-request-id");
    REQUIRE_FALSE(request_id.empty());
    const auto stranger = stack.create_tenant("stranger");
    const auto theirs = stack.request("GET", "/v1/me", nullptr, stranger.live_key);
    const std::string their_request_id = theirs.header("x-request-id");

    Browser viewer(stack.base_url());
    REQUIRE(viewer.sign_in("viewer@example.com", kDashboardPassword).status == 302);
    // The log is written in the background, in batches.
    PageAnswer log;
    REQUIRE(Stack::wait_until(
        [&] {
            log = viewer.get("/dashboard/logs");
            return log.status == 200 && contains(log.body, request_id);
        },
        std::chrono::seconds(10), std::chrono::milliseconds(200)));
    CHECK(contains(log.body, "/v1/jobs/{job_id}"));
    CHECK(contains(log.body, tenant.live_key.substr(0, 13)));
    CHECK_FALSE(contains(log.body, their_request_id));

    const auto by_route =
        viewer.get("/dashboard/logs?method=GET&status=404&route=%2Fv1%2Fjobs%2F%7Bjob_id%7D");
    REQUIRE(by_route.status == 200);
    CHECK(contains(by_route.body, request_id));
    CHECK_FALSE(contains(by_route.body, "Next page"));
    CHECK_FALSE(contains(viewer.get("/dashboard/logs?method=POST").body, request_id));
    CHECK_FALSE(contains(viewer.get("/dashboard/logs?status=200").body, request_id));

    const auto bad_status = viewer.get("/dashboard/logs?status=700&route=%2Fv1%2Fme");
    CHECK(bad_status.status == 422);
    CHECK(contains(bad_status.body, "status must be"));
    // What was asked stays in the form, to be corrected in place.
    CHECK(contains(bad_status.body, R"(value="/v1/me")"));
    CHECK_FALSE(contains(bad_status.body, request_id));
    const auto backwards =
        viewer.get("/dashboard/logs?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z");
    CHECK(backwards.status == 422);
    CHECK(contains(backwards.body, "to must not be before from"));
}
