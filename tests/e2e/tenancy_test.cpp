// Workspaces never see each other, and a revoked key stops working at once.
#include "tests/support/api_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace squawk::testing;

namespace {

// The id `squawkctl key list` shows for the key with this secret (matched by its prefix).
long long key_id(Stack& stack, long long workspace_id, const std::string& secret) {
    const auto listed = stack.ctl({"key", "list", "--workspace", std::to_string(workspace_id)});
    REQUIRE(listed.exit_code == 0);
    CHECK(listed.out.find(secret) == std::string::npos);
    std::istringstream lines(listed.out);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream cells(line);
        std::string id, prefix;
        cells >> id >> prefix;
        if (prefix == secret.substr(0, prefix.size()) && prefix.size() >= 9) return std::stoll(id);
    }
    FAIL("key not listed:\n" << listed.out);
    return 0;
}

}  // namespace

TEST_CASE("another workspace's jobs and media answer 404 as if they did not exist",
          "[e2e][tenancy]") {
    Stack stack;
    const auto& owner = stack.tenant();
    const auto stranger = stack.create_tenant("stranger");
    const std::string job_id = submit_speech(stack, owner.test_key, "Mine, not yours.");
    const auto job = wait_for_terminal_job(stack, owner.test_key, job_id);
    REQUIRE(job);
    REQUIRE(job->value("status", "") == "completed");
    const std::string media_id = (*job)["result"].value("media_id", "");

    const auto& key = stranger.test_key;
    check_not_found(stack.request("GET", "/v1/jobs/" + job_id, nullptr, key));
    check_not_found(stack.request("POST", "/v1/jobs/" + job_id + "/cancel", nullptr, key));
    check_not_found(stack.request("GET", "/v1/media/" + media_id, nullptr, key));
    check_not_found(stack.request("GET", "/v1/media/" + media_id + "/download", nullptr, key));
    check_not_found(stack.request("DELETE", "/v1/media/" + media_id, nullptr, key));
    const auto listed = stack.request("GET", "/v1/jobs", nullptr, key);
    check_success_envelope(listed, 200);
    CHECK(listed.json["data"].empty());

    check_success_envelope(stack.request("GET", "/v1/media/" + media_id, nullptr, owner.test_key),
                           200);
}

TEST_CASE("a revoked key is refused with 401 right away", "[e2e][auth]") {
    Stack stack(without_worker());
    const long long workspace_id = stack.tenant().workspace_id;
    const std::string key = stack.create_key(workspace_id, "live", "jobs:read");
    check_success_envelope(stack.request("GET", "/v1/me", nullptr, key), 200);

    const long long id = key_id(stack, workspace_id, key);
    const auto revoked = stack.ctl({"key", "revoke", "--id", std::to_string(id)});
    REQUIRE(revoked.exit_code == 0);

    check_error_envelope(stack.request("GET", "/v1/me", nullptr, key), 401, "INVALID_API_KEY");
    check_error_envelope(stack.request("GET", "/v1/jobs", nullptr, key), 401, "INVALID_API_KEY");
    // The workspace's other keys are untouched.
    check_success_envelope(stack.request("GET", "/v1/me", nullptr, stack.tenant().test_key), 200);
    CHECK(stack.ctl({"key", "revoke", "--id", std::to_string(id)}).exit_code == 1);
}
