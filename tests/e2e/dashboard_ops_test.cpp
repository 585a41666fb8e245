// The operator pages through the real stack: the figures of `squawkctl stats` on the page and in
// stats.json (the workers alive from the worker registry, idle or killed), dead letters retried,
// retried by filter and deleted, and every workspace user and every form without the session's
// token refused.
#include "common/domain/jobs/job_repository.hpp"
#include "tests/e2e/dashboard_browsing.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/webhook_checks.hpp"

#include <catch2/catch.hpp>

#include <csignal>

using namespace squawk::testing;
using namespace std::chrono_literals;

namespace {

constexpr const char* kOperator = "ops@example.com";

// Fails a job on its last attempt the way a worker records it.
void dead_letter(Stack& stack, const std::string& public_id) {
    stack.db().run([&](squawk::db::Session& s) {
        using namespace squawk::jobs;
        const long long id =
            s.query_one("SELECT id FROM jobs WHERE public_id = ?", {public_id})->integer(0);
        const auto claimed =
            JobRepository::claim(s, {id}, "deadletter0000000000000000000000", "test-worker",
                                 squawk::time::now() + std::chrono::minutes(1));
        REQUIRE(claimed.size() == 1);
        auto failed = outcome_of(claimed.front(), Outcome::Kind::failed);
        failed.dead_lettered = true;
        failed.error = {
            {"code", "JOB_FAILED"}, {"message", "gave up"}, {"details", nlohmann::json::object()}};
        JobRepository::record_outcomes(s, {failed});
    });
}

std::string job_status(Stack& stack, const std::string& key, const std::string& public_id) {
    return stack.request("GET", "/v1/jobs/" + public_id, nullptr, key).json["data"]["status"];
}

bool has(const PageAnswer& page, const std::string& text) {
    return page.body.find(text) != std::string::npos;
}

nlohmann::json stats_json(Browser& browser) {
    const auto answer = browser.get("/dashboard/ops/stats.json");
    REQUIRE(answer.status == 200);
    REQUIRE(answer.header("content-type").starts_with("application/json"));
    return nlohmann::json::parse(answer.body);
}

void sign_in_operator(Stack& stack, Browser& browser) {
    create_dashboard_user(stack, {"--operator", "--email", kOperator}, kDashboardPassword);
    REQUIRE(browser.sign_in(kOperator, kDashboardPassword).status == 302);
}

}  // namespace

TEST_CASE("the operations page shows an idle worker with its host, pools and start time") {
    StackOptions options;
    options.start_scheduler = false;
    options.worker_arguments = {"--pools", "generate", "--threads", "2", "--fibers", "3"};
    Stack stack(options);
    const auto& key = stack.tenant().test_key;
    Browser browser(stack.base_url());
    sign_in_operator(stack, browser);

    // Listed before any queue hands it an entry.
    REQUIRE(Stack::wait_until([&] { return stats_json(browser)["workers"].size() == 1; }, 10s));
    const auto idle = stats_json(browser)["workers"][0];
    const std::string worker = idle["id"];
    const std::string pid = std::to_string(stack.pid(Process::worker));
    CHECK(worker.find("-" + pid + "-") != std::string::npos);
    CHECK(worker.starts_with(idle["host"].get<std::string>() + "-"));
    CHECK(idle["pid"] == stack.pid(Process::worker));
    CHECK(idle["pools"] ==
          nlohmann::json::parse(
              R"([{"name": "generate", "threads": 2, "fibers": 3, "in_flight": 0}])"));
    CHECK(idle["in_flight"] == 0);
    const auto started = squawk::time::parse_iso8601(idle["started_at"].get<std::string>());
    REQUIRE(started);
    CHECK(*started <= squawk::time::now());
    CHECK(*started > squawk::time::now() - std::chrono::minutes(5));
    const auto page = browser.get("/dashboard/ops");
    REQUIRE(page.status == 200);
    CHECK(has(page, "<code>" + worker + "</code>"));
    CHECK(has(page, "<td>generate 2 × 3</td>"));
    CHECK(has(page, "<td>" + pid + "</td>"));
    CHECK(has(page, R"(<time datetime=")" + idle["started_at"].get<std::string>() + "\""));
    CHECK(has(page, R"(<script src="/dashboard/assets/ops.js" defer></script>)"));
    CHECK(has(page, R"(href="/dashboard/ops" aria-current="page">Operations)"));
    CHECK_FALSE(has(page, "/dashboard/keys"));
    const auto listed = stack.ctl({"stats", "--json"});
    REQUIRE(listed.exit_code == 0);
    CHECK(nlohmann::json::parse(listed.out)["workers"] == stats_json(browser)["workers"]);
    const auto watched = stack.ctl({"stats", "--watch", "1", "--frames", "1"});
    REQUIRE(watched.exit_code == 0);
    CHECK(watched.out.find(worker) != std::string::npos);
    CHECK(watched.out.find("generate 2x3") != std::string::npos);
    const auto second_frame = stack.ctl({"stats", "--watch", "0.1", "--frames", "2"});
    REQUIRE(second_frame.exit_code == 0);
    CHECK(watched.out.find("out/s") == std::string::npos);
    CHECK(second_frame.out.find("out/s") != std::string::npos);

    const auto before = stats_json(browser)["queues"]["generate"];
    const auto ping = stack.request("POST", "/v1/jobs/ping", nlohmann::json::object(), key);
    REQUIRE(ping.status == 202);
    REQUIRE(wait_for_terminal_job(stack, key, ping.json["data"]["job_id"]));
    // The worker acknowledges the entry just after it records the outcome.
    REQUIRE(Stack::wait_until(
        [&] {
            return stats_json(browser)["queues"]["generate"]["finished"] ==
                   before["finished"].get<long long>() + 1;
        },
        10s));
    const auto stats = stats_json(browser);
    CHECK(stats["queues"]["generate"]["added"] == before["added"].get<long long>() + 1);
    CHECK_FALSE(stats["queues"]["webhooks"].contains("added"));
    REQUIRE(stats["workers"].size() == 1);
    CHECK(stats["workers"][0]["id"] == worker);
    CHECK(stats["jobs"]["completed"] == 1);

    // A worker stopping withdraws at once; what is submitted next waits on the queue.
    stack.kill(Process::worker, SIGTERM);
    REQUIRE(stack.wait_exit(Process::worker, 20s));
    for (int i = 0; i < 3; ++i) submit_speech(stack, key, "Waiting in line.");
    const auto ctl = stack.ctl({"stats", "--json"});
    REQUIRE(ctl.exit_code == 0);
    const auto reported = nlohmann::json::parse(ctl.out);
    CHECK(reported["queues"]["generate"]["ready"] == 3);
    CHECK(reported["queues"]["generate"]["added"] ==
          stats["queues"]["generate"]["added"].get<long long>() + 3);
    CHECK(reported["queues"]["generate"]["finished"] == stats["queues"]["generate"]["finished"]);
    const auto after = stats_json(browser);
    CHECK(after["workers"].empty());
    for (const auto* figure : {"ready", "added", "finished"})
        CHECK(after["queues"]["generate"][figure] == reported["queues"]["generate"][figure]);
    CHECK(after["queues"]["publish"] == reported["queues"]["publish"]);
    for (const auto& [status, count] : reported["jobs"].items())
        CHECK(after["jobs"][status] == count);
    CHECK(after["dead_letters"] == reported["dead_letters"]);
    CHECK(after["dead_deliveries"] == 0);
    const auto queued = browser.get("/dashboard/ops");
    CHECK(has(queued, R"(<td data-stat="queues.generate.ready">3</td>)"));
    CHECK(has(queued, R"(<td data-stat="jobs.queued">3</td>)"));
    CHECK(has(queued, R"(<th scope="col">In /s</th><th scope="col">Out /s</th>)"));
    CHECK(has(queued, R"(<td data-rate="queues.generate.added" data-count=")" +
                          reported["queues"]["generate"]["added"].dump() + R"(">measuring…</td>)"));
    CHECK(has(queued, R"(<td>—</td><td>—</td>)"));
    CHECK(has(queued, "No worker is running."));
    const auto script = browser.get("/dashboard/assets/ops.js");
    CHECK(script.status == 200);
    CHECK(script.header("content-type").starts_with("text/javascript"));
    CHECK(script.body.find("/dashboard/ops/stats.json") != std::string::npos);
}

TEST_CASE("a worker killed without a goodbye leaves the operations page within its time to live") {
    StackOptions options;
    options.start_scheduler = false;
    Stack stack(options);
    Browser browser(stack.base_url());
    sign_in_operator(stack, browser);
    REQUIRE(Stack::wait_until([&] { return stats_json(browser)["workers"].size() == 1; }, 10s));

    stack.kill(Process::worker, SIGKILL);
    REQUIRE(stack.wait_exit(Process::worker, 5s));
    // Refreshed every second under the stack's time scale, its entry lives three seconds more.
    const auto killed = std::chrono::steady_clock::now();
    CHECK(stats_json(browser)["workers"].size() == 1);
    REQUIRE(Stack::wait_until([&] { return stats_json(browser)["workers"].empty(); }, 10s));
    CHECK(std::chrono::steady_clock::now() - killed < 4s);
    CHECK(nlohmann::json::parse(stack.ctl({"stats", "--json"}).out)["workers"].empty());
    CHECK(has(browser.get("/dashboard/ops"), "No worker is running."));
}

TEST_CASE("a dead-lettered job is retried from the operations page and queued again") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const std::string job_id = submit_speech(stack, key, "Second time lucky.");
    dead_letter(stack, job_id);
    Browser browser(stack.base_url());
    sign_in_operator(stack, browser);
    const long long ready_before = stats_json(browser)["queues"]["generate"]["ready"];

    const auto letters = browser.get("/dashboard/ops/dead-letters?kind=jobs");
    REQUIRE(letters.status == 200);
    CHECK(has(letters, "<code>" + job_id + "</code>"));
    CHECK(has(letters, "JOB_FAILED: gave up"));
    CHECK(stats_json(browser)["dead_letters"] == 1);

    SECTION("with the session's token it is queued again") {
        const auto retried =
            browser.post("/dashboard/ops/dead-letters/retry",
                         {{"csrf", letters.csrf()}, {"kind", "jobs"}, {"id", job_id}});
        CHECK(retried.status == 200);
        CHECK(has(retried, "Queued " + job_id + " again."));
        CHECK_FALSE(has(retried, "<code>" + job_id + "</code>"));
        CHECK(job_status(stack, key, job_id) == "queued");
        const auto stats = stats_json(browser);
        CHECK(stats["dead_letters"] == 0);
        CHECK(stats["queues"]["generate"]["ready"] == ready_before + 1);
        CHECK(browser
                  .post("/dashboard/ops/dead-letters/retry",
                        {{"csrf", letters.csrf()}, {"kind", "jobs"}, {"id", job_id}})
                  .status == 404);
    }
    SECTION("without the session's token nothing is retried") {
        CHECK(browser.post("/dashboard/ops/dead-letters/retry", {{"kind", "jobs"}, {"id", job_id}})
                  .status == 403);
        CHECK(browser
                  .post("/dashboard/ops/dead-letters/retry-all",
                        {{"csrf", "forged"}, {"kind", "jobs"}})
                  .status == 403);
        CHECK(browser.post("/dashboard/ops/dead-letters/delete", {{"kind", "jobs"}, {"id", job_id}})
                  .status == 403);
        CHECK(job_status(stack, key, job_id) == "failed");
        CHECK(stats_json(browser)["dead_letters"] == 1);
    }
    SECTION("a filter that is not one answers 422, shows why and writes nothing") {
        const auto bad =
            browser.post("/dashboard/ops/dead-letters/retry-all", {{"csrf", letters.csrf()},
                                                                   {"kind", "jobs"},
                                                                   {"workspace", "abc"},
                                                                   {"type", "telepathy"}});
        CHECK(bad.status == 422);
        CHECK(has(bad, "A workspace is a number, from 1."));
        CHECK(has(bad, "There is no job type telepathy."));
        CHECK(browser.get("/dashboard/ops/dead-letters?kind=letters").status == 422);
        CHECK(job_status(stack, key, job_id) == "failed");
        CHECK(stats_json(browser)["dead_letters"] == 1);
    }
}

TEST_CASE("retry all queues the dead letters that match the filter and delete discards one") {
    Stack stack(api_only());
    const auto& tenant = stack.tenant();
    const std::string other_key = stack.create_tenant("other").test_key;
    const std::string first = submit_speech(stack, tenant.test_key, "One.");
    const std::string second = submit_speech(stack, tenant.test_key, "Two.");
    const std::string elsewhere = submit_speech(stack, other_key, "Three.");
    for (const auto& id : {first, second, elsewhere}) dead_letter(stack, id);
    Browser browser(stack.base_url());
    sign_in_operator(stack, browser);

    const std::string workspace = std::to_string(tenant.workspace_id);
    const auto filtered = browser.get(
        "/dashboard/ops/dead-letters?kind=jobs&type=audio."
        "text_to_speech&workspace=" +
        workspace);
    REQUIRE(filtered.status == 200);
    CHECK(has(filtered, first));
    CHECK(has(filtered, second));
    CHECK_FALSE(has(filtered, elsewhere));

    const auto all =
        browser.post("/dashboard/ops/dead-letters/retry-all", {{"csrf", filtered.csrf()},
                                                               {"kind", "jobs"},
                                                               {"type", "audio.text_to_speech"},
                                                               {"workspace", workspace}});
    CHECK(all.status == 200);
    CHECK(has(all, "Queued 2 jobs again."));
    CHECK(job_status(stack, tenant.test_key, first) == "queued");
    CHECK(job_status(stack, tenant.test_key, second) == "queued");
    CHECK(job_status(stack, other_key, elsewhere) == "failed");

    const auto deleted =
        browser.post("/dashboard/ops/dead-letters/delete",
                     {{"csrf", filtered.csrf()}, {"kind", "jobs"}, {"id", elsewhere}});
    CHECK(deleted.status == 200);
    CHECK(has(deleted, "Deleted " + elsewhere + " from the dead letters."));
    // Discarded for good: still failed with its error, out of the list and no longer retryable.
    CHECK(job_status(stack, other_key, elsewhere) == "failed");
    CHECK(stack.ctl({"dead-letters", "list"}).out.find(elsewhere) == std::string::npos);
    CHECK(stack.ctl({"jobs", "retry", elsewhere}).exit_code == 1);
    CHECK(nlohmann::json::parse(stack.ctl({"stats", "--json"}).out)["dead_letters"] == 0);
    CHECK(browser
              .post("/dashboard/ops/dead-letters/delete",
                    {{"csrf", filtered.csrf()}, {"kind", "jobs"}, {"id", elsewhere}})
              .status == 404);
}

TEST_CASE("a dead webhook delivery is retried and another deleted from the operations page") {
    Stack stack(api_only());
    const auto& tenant = stack.tenant();
    const std::string endpoint =
        create_webhook(stack, tenant.test_key, "http://127.0.0.1:9/hook", {"job.completed"})["id"];
    std::vector<long long> ids;
    stack.db().run([&](squawk::db::Session& s) {
        const long long endpoint_id =
            s.query_one("SELECT id FROM webhook_endpoints WHERE public_id = ?", {endpoint})
                ->integer(0);
        for (long long event = 1; event <= 2; ++event) {
            ids.push_back(s.insert(
                "INSERT INTO webhook_deliveries (workspace_id, endpoint_id, event_id, event_name,"
                " body, status, attempts, max_attempts, next_attempt_at, last_status_code,"
                " last_error, created_at, updated_at) VALUES (?, ?, ?, 'job.completed', '{}',"
                " 'dead_letter', 5, 5, NOW(6), 500, 'server error', NOW(6), NOW(6))",
                {tenant.workspace_id, endpoint_id, event}));
        }
    });
    Browser browser(stack.base_url());
    sign_in_operator(stack, browser);
    CHECK(stats_json(browser)["dead_deliveries"] == 2);

    const auto letters =
        browser.get("/dashboard/ops/dead-letters?kind=deliveries&type=job.completed");
    REQUIRE(letters.status == 200);
    CHECK(has(letters, "job.completed to " + endpoint));
    CHECK(has(letters, "HTTP 500: server error"));

    const auto retried = browser.post(
        "/dashboard/ops/dead-letters/retry",
        {{"csrf", letters.csrf()}, {"kind", "deliveries"}, {"id", std::to_string(ids[0])}});
    CHECK(retried.status == 200);
    const auto deleted = browser.post(
        "/dashboard/ops/dead-letters/delete",
        {{"csrf", letters.csrf()}, {"kind", "deliveries"}, {"id", std::to_string(ids[1])}});
    CHECK(deleted.status == 200);
    CHECK(stack.count("SELECT COUNT(*) FROM webhook_deliveries WHERE id = " +
                      std::to_string(ids[0]) + " AND status = 'pending' AND attempts = 0") == 1);
    CHECK(stack.count("SELECT COUNT(*) FROM webhook_deliveries WHERE id = " +
                      std::to_string(ids[1]) + " AND status = 'failed'") == 1);
    CHECK(stats_json(browser)["dead_deliveries"] == 0);
    CHECK(browser
              .post("/dashboard/ops/dead-letters/retry",
                    {{"csrf", letters.csrf()}, {"kind", "deliveries"}, {"id", "nope"}})
              .status == 404);
}

TEST_CASE("workspace users are refused every operations page and operators every workspace page") {
    Stack stack(api_only());
    const auto& tenant = stack.tenant();
    const std::string job_id = submit_speech(stack, tenant.test_key, "Not yours to retry.");
    dead_letter(stack, job_id);
    create_dashboard_user(stack,
                          {"--workspace", std::to_string(tenant.workspace_id), "--email",
                           "owner@example.com", "--role", "owner"},
                          kDashboardPassword);
    Browser owner(stack.base_url());
    REQUIRE(owner.sign_in("owner@example.com", kDashboardPassword).status == 302);
    const auto home = owner.get("/dashboard/");
    REQUIRE(home.status == 200);
    CHECK_FALSE(has(home, "/dashboard/ops"));
    for (const char* path :
         {"/dashboard/ops", "/dashboard/ops/stats.json", "/dashboard/ops/dead-letters?kind=jobs"})
        CHECK(owner.get(path).status == 403);
    for (const char* path :
         {"/dashboard/ops/dead-letters/retry", "/dashboard/ops/dead-letters/delete",
          "/dashboard/ops/dead-letters/retry-all"})
        CHECK(owner.post(path, {{"csrf", home.csrf()}, {"kind", "jobs"}, {"id", job_id}}).status ==
              403);
    CHECK(job_status(stack, tenant.test_key, job_id) == "failed");
    CHECK(nlohmann::json::parse(stack.ctl({"stats", "--json"}).out)["dead_letters"] == 1);

    Browser ops(stack.base_url());
    sign_in_operator(stack, ops);
    CHECK(ops.get("/dashboard/keys").status == 403);
    CHECK(ops.get("/dashboard/ops").status == 200);
}
