// The dashboard's webhook pages through the real stack: an endpoint added, edited, paused,
// resumed, tested against a receiver and its secret rotated; the delivery log paged and its dead
// letters replayed by the webhook worker; viewers refused, other workspaces' ids unknown.
#include "common/domain/webhooks/signature.hpp"
#include "tests/e2e/dashboard_browsing.hpp"
#include "tests/support/fake_receiver.hpp"
#include "tests/support/webhook_checks.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::testing;
using namespace std::chrono_literals;

namespace {

std::string first_match(const std::string& text, const std::string& pattern) {
    std::smatch m;
    if (!std::regex_search(text, m, std::regex(pattern))) return {};
    return m.size() > 1 ? m[1].str() : m[0].str();
}

long long count_of(const std::string& text, const std::string& part) {
    long long n = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
}

bool signed_with(const nlohmann::json& request, const std::string& secret) {
    const long long now = std::chrono::duration_cast<std::chrono::seconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
    return webhooks::verify_signature(request["headers"].value("x-service-signature", ""), secret,
                                      request["body"].get<std::string>(), now, 300);
}

// The workspace's endpoint as GET /v1/webhooks shows it.
nlohmann::json api_webhook(Stack& stack, const std::string& key, const std::string& id) {
    const auto r = stack.request("GET", "/v1/webhooks", nullptr, key);
    for (const auto& e : r.json["data"])
        if (e["id"] == id) return e;
    return nullptr;
}

std::string hour_ago_utc() {
    return time::format_iso8601(time::now() - std::chrono::hours(1)).substr(0, 16);
}

}  // namespace

TEST_CASE(
    "a webhook added on the dashboard shows its secret once, edits, pauses and resumes, and its "
    "test event and rotated secret reach the receiver",
    "[e2e][webhooks][dashboard]") {
    Stack stack(webhook_stack_options());
    FakeReceiver receiver;
    add_dashboard_user(stack, stack.tenant().workspace_id, "dev@example.com", "developer");
    const auto& key = stack.tenant().test_key;
    Browser browser(stack.base_url());
    REQUIRE(browser.sign_in("dev@example.com", kDashboardPassword).status == 302);

    const auto list = browser.get("/dashboard/webhooks");
    REQUIRE(list.status == 200);
    CHECK(contains(list.body, "no webhooks yet"));
    const auto created = browser.post("/dashboard/webhooks", {{"csrf", list.csrf()},
                                                              {"url", receiver.url("/hook")},
                                                              {"events", "post.published"},
                                                              {"events", "webhook.test"}});
    REQUIRE(created.status == 201);
    CHECK(created.header("cache-control") == "no-store");
    const std::string secret = first_match(created.body, R"(whsec_[A-Za-z0-9_-]{20,})");
    const std::string id =
        first_match(created.body, R"(href="/dashboard/webhooks/(wh_[0-9a-f]+)\")");
    REQUIRE_FALSE(secret.empty());
    REQUIRE_FALSE(id.empty());
    const std::string page = "/dashboard/webhooks/" + id;

    const auto listed = browser.get("/dashboard/webhooks");
    CHECK(contains(listed.body, receiver.url("/hook")));
    CHECK(contains(listed.body, "post.published, webhook.test"));
    CHECK_FALSE(contains(listed.body, secret));
    auto detail = browser.get(page);
    REQUIRE(detail.status == 200);
    CHECK_FALSE(contains(detail.body, secret));
    CHECK_FALSE(contains(detail.body, "whsec_"));

    // The test is sent now and its outcome shown; the receiver checks the signature.
    auto tested = browser.post(page + "/test", {{"csrf", detail.csrf()}});
    REQUIRE(tested.status == 200);
    CHECK(contains(tested.body, "Test delivery delivered"));
    CHECK(contains(tested.body, R"(id="test-status">200<)"));
    REQUIRE(receiver.requests("/hook").size() == 1);
    const auto first = receiver.requests("/hook").at(0);
    CHECK(signed_with(first, secret));
    CHECK(nlohmann::json::parse(first["body"].get<std::string>())["event"] == "webhook.test");
    const auto log = browser.get("/dashboard/webhooks/deliveries");
    REQUIRE(log.status == 200);
    CHECK(contains(log.body, "webhook.test"));
    CHECK(contains(log.body, "delivered"));
    CHECK_FALSE(contains(log.body, secret));

    // A failing receiver: its status, latency and answer are shown.
    receiver.program("/hook", nlohmann::json::array({{{"status", 503}, {"body", "down for now"}}}));
    tested = browser.post(page + "/test", {{"csrf", detail.csrf()}});
    REQUIRE(tested.status == 200);
    CHECK(contains(tested.body, "Test delivery failed"));
    CHECK(contains(tested.body, R"(id="test-status">503<)"));
    CHECK(contains(tested.body, "down for now"));

    const auto edited = browser.post(page, {{"csrf", detail.csrf()},
                                            {"url", receiver.url("/edited")},
                                            {"events", "review.new"},
                                            {"events", "webhook.test"}});
    CHECK(edited.status == 302);
    CHECK(edited.header("location") == page);
    auto api = api_webhook(stack, key, id);
    CHECK(api["url"] == receiver.url("/edited"));
    CHECK(api["events"] == nlohmann::json::array({"review.new", "webhook.test"}));

    CHECK(browser.post(page + "/pause", {{"csrf", detail.csrf()}}).status == 302);
    CHECK(api_webhook(stack, key, id)["status"] == "paused");
    detail = browser.get(page);
    CHECK(contains(detail.body, R"(id="webhook-status">paused<)"));
    CHECK(contains(detail.body, ">Resume</button>"));
    CHECK(browser.post(page + "/resume", {{"csrf", detail.csrf()}}).status == 302);
    CHECK(api_webhook(stack, key, id)["status"] == "active");

    const auto rotated = browser.post(page + "/rotate-secret", {{"csrf", detail.csrf()}});
    REQUIRE(rotated.status == 200);
    const std::string fresh = first_match(rotated.body, R"(whsec_[A-Za-z0-9_-]{20,})");
    REQUIRE_FALSE(fresh.empty());
    CHECK(fresh != secret);
    CHECK_FALSE(contains(browser.get(page).body, fresh));
    REQUIRE(browser.post(page + "/test", {{"csrf", detail.csrf()}}).status == 200);
    REQUIRE(receiver.requests("/edited").size() == 1);
    CHECK(signed_with(receiver.requests("/edited").at(0), fresh));

    CHECK(browser.post(page + "/delete", {{"csrf", detail.csrf()}}).status == 302);
    CHECK(api_webhook(stack, key, id).is_null());
    CHECK(browser.get(page).status == 404);
    // The log keeps the deleted webhook's deliveries, with nothing to replay them to.
    const auto after = browser.get("/dashboard/webhooks/deliveries");
    CHECK(contains(after.body, "a deleted webhook"));
    CHECK_FALSE(contains(after.body, "aria-label=\"Replay delivery"));
}

TEST_CASE(
    "the dashboard's delivery log pages newest first, filters dead letters, and a replayed dead "
    "letter is delivered again by the webhook worker",
    "[e2e][webhooks][dashboard]") {
    Stack stack(webhook_stack_options(0.002));
    FakeReceiver receiver;
    add_dashboard_user(stack, stack.tenant().workspace_id, "dev@example.com", "developer");
    const auto& key = stack.tenant().test_key;
    const long long workspace = stack.tenant().workspace_id;
    const auto failing = nlohmann::json::array({{{"status", 500}},
                                                {{"status", 500}},
                                                {{"status", 500}},
                                                {{"status", 500}},
                                                {{"status", 500}, {"body", "still broken"}}});
    receiver.program("/dead", failing);
    const auto hook = create_webhook(stack, key, receiver.url("/dead"), {"post.published"});
    const std::string hook_id = hook["id"];
    const auto bulk = create_webhook(stack, key, receiver.url("/bulk"), {"review.new"});
    const auto event = emit_event(stack, workspace, "post.published", {{"post_id", "p1"}});
    for (int i = 0; i < 30; ++i) emit_event(stack, workspace, "review.new", {{"n", i}});
    REQUIRE(
        Stack::wait_until([&] { return deliveries_in(stack, event, "dead_letter") == 1; }, 30s));
    REQUIRE(Stack::wait_until([&] { return receiver.requests("/bulk").size() == 30; }, 30s));

    Browser browser(stack.base_url());
    REQUIRE(browser.sign_in("dev@example.com", kDashboardPassword).status == 302);
    const auto newest = browser.get("/dashboard/webhooks/deliveries");
    REQUIRE(newest.status == 200);
    CHECK(count_of(newest.body, R"(<tr id="delivery-)") == 25);
    const std::string older = first_match(newest.body, R"re(href="([^"]+)" rel="next")re");
    REQUIRE(contains(older, "before="));
    const auto second = browser.get(std::regex_replace(older, std::regex("&amp;"), "&"));
    REQUIRE(second.status == 200);
    CHECK(count_of(second.body, R"(<tr id="delivery-)") == 6);
    CHECK_FALSE(contains(second.body, R"(rel="next")"));
    CHECK(contains(second.body, "Newest deliveries"));

    const auto delivery = delivery_log(stack, key, event, hook_id)["delivery_id"].get<long long>();
    const auto dead = browser.get("/dashboard/webhooks/deliveries?status=dead_letter");
    REQUIRE(dead.status == 200);
    CHECK(count_of(dead.body, R"(<tr id="delivery-)") == 1);
    CHECK(contains(dead.body, "id=\"delivery-" + std::to_string(delivery) + "\""));
    CHECK(contains(dead.body, "still broken"));
    const auto by_endpoint =
        browser.get("/dashboard/webhooks/deliveries?webhook_id=" + bulk["id"].get<std::string>());
    CHECK(count_of(by_endpoint.body, R"(<tr id="delivery-)") == 25);
    CHECK_FALSE(contains(by_endpoint.body, "id=\"delivery-" + std::to_string(delivery) + "\""));
    CHECK(browser.get("/dashboard/webhooks/deliveries?status=lost").status == 422);
    const auto one = browser.get("/dashboard/webhooks/deliveries/" + std::to_string(delivery));
    REQUIRE(one.status == 200);
    CHECK(count_of(one.body, R"(<tr id="delivery-)") == 1);

    const auto replayed =
        browser.post("/dashboard/webhooks/deliveries/" + std::to_string(delivery) + "/replay",
                     {{"csrf", dead.csrf()}, {"status", "dead_letter"}});
    REQUIRE(replayed.status == 200);
    CHECK(contains(replayed.body, "will be sent again"));
    REQUIRE(Stack::wait_until([&] { return deliveries_in(stack, event, "delivered") == 1; }, 15s));
    CHECK(receiver.requests("/dead").size() == 6);

    // Every dead letter of the webhook since a time, in one form.
    receiver.program("/dead", failing);
    const auto again = emit_event(stack, workspace, "post.published", {{"post_id", "p2"}});
    REQUIRE(
        Stack::wait_until([&] { return deliveries_in(stack, again, "dead_letter") == 1; }, 30s));
    const auto bulk_replay =
        browser.post("/dashboard/webhooks/deliveries/replay-dead-letters",
                     {{"csrf", dead.csrf()}, {"webhook_id", hook_id}, {"since", hour_ago_utc()}});
    REQUIRE(bulk_replay.status == 200);
    CHECK(contains(bulk_replay.body, "1 dead letter since"));
    REQUIRE(Stack::wait_until([&] { return deliveries_in(stack, again, "delivered") == 1; }, 15s));
    CHECK(receiver.requests("/dead").size() == 12);

    const auto bad_since =
        browser.post("/dashboard/webhooks/deliveries/replay-dead-letters",
                     {{"csrf", dead.csrf()}, {"webhook_id", hook_id}, {"since", "yesterday"}});
    CHECK(bad_since.status == 422);
    CHECK(contains(bad_since.body, "Give the time from which to replay"));
}

TEST_CASE(
    "dashboard webhook pages let viewers change nothing, answer another workspace's webhooks and "
    "deliveries as unknown, and refuse a bad URL writing nothing",
    "[e2e][webhooks][dashboard]") {
    Stack stack(api_only());
    const long long workspace = stack.tenant().workspace_id;
    add_dashboard_user(stack, workspace, "dev@example.com", "developer");
    add_dashboard_user(stack, workspace, "viewer@example.com", "viewer");
    const auto& key = stack.tenant().test_key;
    const std::string own =
        create_webhook(stack, key, "http://127.0.0.1:9/own", {"post.published"})["id"];
    const auto other = stack.create_tenant("other");
    const std::string foreign = create_webhook(stack, other.test_key, "http://127.0.0.1:9/other",
                                               {"post.published", "webhook.test"})["id"];
    const auto foreign_test =
        stack.request("POST", "/v1/webhooks/" + foreign + "/test", nullptr, other.test_key);
    REQUIRE(foreign_test.status == 200);
    const std::string foreign_delivery =
        std::to_string(foreign_test.json["data"]["delivery_id"].get<long long>());
    const auto endpoints = [&] { return stack.count("SELECT COUNT(*) FROM webhook_endpoints"); };
    const long long endpoints_before = endpoints();

    Browser viewer(stack.base_url());
    REQUIRE(viewer.sign_in("viewer@example.com", kDashboardPassword).status == 302);
    const auto seen = viewer.get("/dashboard/webhooks");
    REQUIRE(seen.status == 200);
    CHECK(contains(seen.body, "http://127.0.0.1:9/own"));
    CHECK_FALSE(contains(seen.body, "Add webhook"));
    const auto own_page = viewer.get("/dashboard/webhooks/" + own);
    REQUIRE(own_page.status == 200);
    CHECK_FALSE(contains(own_page.body, "Send a test event"));
    const std::string token = own_page.csrf();
    CHECK(
        viewer
            .post("/dashboard/webhooks",
                  {{"csrf", token}, {"url", "http://127.0.0.1:9/v"}, {"events", "post.published"}})
            .status == 403);
    for (const std::string action : {"/pause", "/test", "/rotate-secret", "/delete", ""})
        CHECK(
            viewer
                .post("/dashboard/webhooks/" + own + action,
                      {{"csrf", token}, {"url", "http://127.0.0.1:9/v"}, {"events", "review.new"}})
                .status == 403);
    CHECK(viewer.get("/dashboard/webhooks/deliveries").status == 200);
    CHECK(viewer
              .post("/dashboard/webhooks/deliveries/replay-dead-letters",
                    {{"csrf", token}, {"webhook_id", own}, {"since", hour_ago_utc()}})
              .status == 403);
    CHECK(endpoints() == endpoints_before);
    auto api = api_webhook(stack, key, own);
    CHECK(api["status"] == "active");
    CHECK(api["url"] == "http://127.0.0.1:9/own");
    CHECK(stack.count("SELECT COUNT(*) FROM webhook_deliveries WHERE workspace_id = ?",
                      {workspace}) == 0);

    Browser developer(stack.base_url());
    REQUIRE(developer.sign_in("dev@example.com", kDashboardPassword).status == 302);
    const std::string csrf = developer.get("/dashboard/webhooks").csrf();
    CHECK(developer.get("/dashboard/webhooks/" + foreign).status == 404);
    for (const std::string action : {"/pause", "/test", "/rotate-secret", "/delete"})
        CHECK(developer.post("/dashboard/webhooks/" + foreign + action, {{"csrf", csrf}}).status ==
              404);
    CHECK(developer
              .post("/dashboard/webhooks/" + foreign,
                    {{"csrf", csrf}, {"url", "http://127.0.0.1:9/x"}, {"events", "review.new"}})
              .status == 404);
    CHECK(developer.get("/dashboard/webhooks/deliveries?webhook_id=" + foreign).status == 404);
    CHECK(developer.get("/dashboard/webhooks/deliveries/" + foreign_delivery).status == 404);
    CHECK(developer
              .post("/dashboard/webhooks/deliveries/" + foreign_delivery + "/replay",
                    {{"csrf", csrf}})
              .status == 404);
    CHECK(developer
              .post("/dashboard/webhooks/deliveries/replay-dead-letters",
                    {{"csrf", csrf}, {"webhook_id", foreign}, {"since", hour_ago_utc()}})
              .status == 404);
    CHECK(developer.get("/dashboard/webhooks/deliveries").body.find(foreign) == std::string::npos);
    const auto theirs = api_webhook(stack, other.test_key, foreign);
    CHECK(theirs["status"] == "active");
    CHECK(theirs["url"] == "http://127.0.0.1:9/other");

    const auto bad = developer.post(
        "/dashboard/webhooks",
        {{"csrf", csrf}, {"url", "ftp://example.com/hook"}, {"events", "post.published"}});
    CHECK(bad.status == 422);
    CHECK(contains(bad.body, "the URL scheme must be https"));
    CHECK(contains(bad.body, "ftp://example.com/hook"));
    const auto no_events =
        developer.post("/dashboard/webhooks", {{"csrf", csrf}, {"url", "http://127.0.0.1:9/n"}});
    CHECK(no_events.status == 422);
    CHECK(contains(no_events.body, "Choose at least one event."));
    const auto unknown_event =
        developer.post("/dashboard/webhooks",
                       {{"csrf", csrf}, {"url", "http://127.0.0.1:9/n"}, {"events", "made.up"}});
    CHECK(unknown_event.status == 422);
    CHECK(contains(unknown_event.body, "Unknown event made.up."));
    const auto bad_edit =
        developer.post("/dashboard/webhooks/" + own,
                       {{"csrf", csrf}, {"url", "not a url"}, {"events", "review.new"}});
    CHECK(bad_edit.status == 422);
    CHECK(contains(bad_edit.body, "the URL contains whitespace"));
    CHECK(endpoints() == endpoints_before);
    api = api_webhook(stack, key, own);
    CHECK(api["url"] == "http://127.0.0.1:9/own");
    CHECK(api["events"] == nlohmann::json::array({"post.published"}));
}
