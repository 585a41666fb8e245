// squawkctl as operators and scripts use it, against a live stack: exit codes, output that
// scripts parse, and the job repair commands.
#include "common/core/daemon/worker_settings.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

using namespace squawk::testing;
using namespace std::chrono_literals;

namespace {

std::string bad_config(const Stack& stack) {
    std::ifstream in(stack.config_path());
    std::stringstream text;
    text << "surprise_setting = 1\n" << in.rdbuf();
    const std::string path = stack.dir() + "/bad.toml";
    std::ofstream(path) << text.str();
    return path;
}

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

}  // namespace

TEST_CASE("squawkctl exits 2 and names the scope when a key asks for an unknown scope",
          "[e2e][ctl]") {
    Stack stack(api_only());
    const auto r =
        stack.ctl({"key", "create", "--workspace", std::to_string(stack.tenant().workspace_id),
                   "--type", "test", "--scopes", "jobs:read,telepathy:use"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("telepathy:use") != std::string::npos);
    CHECK(r.out.empty());
    CHECK(stack.count("SELECT COUNT(*) FROM api_keys") == 2);
}

TEST_CASE("squawkctl exits 2 when a key is asked for a workspace that does not exist",
          "[e2e][ctl]") {
    Stack stack(api_only());
    const auto r =
        stack.ctl({"key", "create", "--workspace", "987654", "--type", "live", "--scopes", "all"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("987654") != std::string::npos);
    CHECK(r.out.empty());
    CHECK(stack.ctl({"key", "create", "--workspace", "1", "--type", "staging", "--scopes", "all"})
              .exit_code == 2);
}

TEST_CASE("every binary exits 2 on a config file with an unknown key", "[e2e][ctl][config]") {
    Stack stack(api_only());
    const std::string path = bad_config(stack);

    const auto ctl =
        run_command({ServerEnv::get().bin_dir + "/squawkctl", "--config", path, "stats"});
    CHECK(ctl.exit_code == 2);
    CHECK(ctl.err.find("surprise_setting") != std::string::npos);
    for (const char* daemon : {"squawk-api", "squawk-worker", "squawk-scheduler"}) {
        INFO(daemon);
        const auto r =
            run_command({ServerEnv::get().bin_dir + "/" + daemon, "--config", path}, 10s);
        CHECK(r.exit_code == 2);
    }
}

TEST_CASE("squawkctl migrate says the schema is current when nothing is left to apply",
          "[e2e][ctl]") {
    Stack stack(api_only());
    const auto r =
        stack.ctl({"migrate", "--dir", ServerEnv::get().source_dir + "/config/migrations"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("current") != std::string::npos);
}

TEST_CASE("squawkctl key list shows prefixes and scopes but never a key", "[e2e][ctl]") {
    Stack stack(api_only());
    const auto& tenant = stack.tenant();
    const std::string limited =
        stack.create_key(tenant.workspace_id, "test", "jobs:read, media:read");
    const auto r = stack.ctl({"key", "list", "--workspace", std::to_string(tenant.workspace_id)});
    REQUIRE(r.exit_code == 0);
    for (const auto& secret : {tenant.test_key, tenant.live_key, limited}) {
        CHECK(r.out.find(secret) == std::string::npos);
        CHECK(r.out.find(secret.substr(0, 13)) != std::string::npos);
    }
    CHECK(r.out.find("jobs:read,media:read") != std::string::npos);
    CHECK(stack.count("SELECT COUNT(*) FROM api_keys WHERE scopes = '*'") == 2);
}

TEST_CASE("squawkctl stats reports queue depth per pool, jobs by status and dead letters",
          "[e2e][ctl]") {
    Stack stack(api_only());
    for (int i = 0; i < 3; ++i) submit_speech(stack, stack.tenant().test_key, "Waiting in line.");
    const auto r = stack.ctl({"stats", "--json"});
    REQUIRE(r.exit_code == 0);
    const auto stats = nlohmann::json::parse(r.out);
    for (const char* pool : squawk::config::kPoolNames) CHECK(stats["queues"].contains(pool));
    CHECK(stats["queues"]["generate"]["ready"] == 3);
    CHECK(stats["queues"]["publish"]["ready"] == 0);
    CHECK(stats["jobs"]["queued"] == 3);
    CHECK(stats["dead_letters"] == 0);

    const auto table = stack.ctl({"stats"});
    REQUIRE(table.exit_code == 0);
    CHECK(table.out.find("generate") != std::string::npos);
    CHECK(table.out.find("dead letters: 0") != std::string::npos);
}

TEST_CASE("squawkctl jobs retry puts a dead-lettered job back on the queue and it completes",
          "[e2e][ctl]") {
    Stack stack(without_worker());
    const auto& key = stack.tenant().test_key;
    const std::string job_id = submit_speech(stack, key, "Second time lucky.");
    const std::string healthy = submit_speech(stack, key, "Never failed.");
    dead_letter(stack, job_id);
    // A poll of the dead-lettered job must not pin it as failed in the API's finished-job cache.
    CHECK(stack.request("GET", "/v1/jobs/" + job_id, nullptr, key).json["data"]["status"] ==
          "failed");

    const auto letters = stack.ctl({"dead-letters", "list"});
    REQUIRE(letters.exit_code == 0);
    CHECK(letters.out.find(job_id) != std::string::npos);
    CHECK(letters.out.find(healthy) == std::string::npos);
    CHECK(letters.out.find("JOB_FAILED") != std::string::npos);
    const auto failed = stack.ctl({"jobs", "list", "--status", "failed", "--workspace",
                                   std::to_string(stack.tenant().workspace_id)});
    REQUIRE(failed.exit_code == 0);
    CHECK(failed.out.find(job_id) != std::string::npos);
    CHECK(stack.ctl({"jobs", "list", "--status", "sleeping"}).exit_code == 2);

    CHECK(stack.ctl({"jobs", "retry", healthy}).exit_code == 1);
    const auto retried = stack.ctl({"jobs", "retry", job_id});
    REQUIRE(retried.exit_code == 0);
    CHECK(stack.ctl({"jobs", "retry", job_id}).exit_code == 1);
    CHECK(stack.request("GET", "/v1/jobs/" + job_id, nullptr, key).json["data"]["status"] ==
          "queued");

    stack.start(Process::worker);
    const auto job = wait_for_terminal_job(stack, key, job_id);
    REQUIRE(job);
    CHECK(job->value("status", "") == "completed");
    CHECK(job->value("attempts", 0) == 1);
    CHECK(stack.count("SELECT COUNT(*) FROM jobs WHERE dead_lettered = 1") == 0);
}

TEST_CASE("squawkctl stats --watch redraws queues, the workers reading them and throughput",
          "[e2e][ctl]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    for (int i = 0; i < 5; ++i)
        stack.request("POST", "/v1/jobs/ping", nlohmann::json::object(), key);
    REQUIRE(Stack::wait_until(
        [&] { return stack.count("SELECT COUNT(*) FROM jobs WHERE status = 'completed'") == 5; },
        std::chrono::seconds(20)));
    const auto r = stack.ctl({"stats", "--watch", "0.2", "--frames", "2"});
    REQUIRE(r.exit_code == 0);
    const auto first = r.out.find("\x1b[H\x1b[2J");
    REQUIRE(first != std::string::npos);
    CHECK(r.out.find("\x1b[H\x1b[2J", first + 1) != std::string::npos);
    CHECK(r.out.find("throughput: measuring...") != std::string::npos);
    CHECK(r.out.find("jobs finished/s") != std::string::npos);
    // The stack's one worker (hostname-pid-random) is listed from the worker registry.
    CHECK(r.out.find("started_at") != std::string::npos);
    CHECK(r.out.find("-" + std::to_string(stack.pid(Process::worker)) + "-") != std::string::npos);
}
