// What the API processes cache on the request path never shows stale or foreign data: a workspace
// renamed in one process is renamed in every process's GET /me at once, and a finished job kept
// for polling stays invisible to other workspaces.
#include "tests/support/api_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;

TEST_CASE("a profile renamed through one API process shows its new name on GET /me in both",
          "[e2e][me][workspace_cache]") {
    Stack stack(without_worker());
    HttpClient second(stack.start_extra_api());
    const auto& key = stack.tenant().live_key;
    const auto created = stack.request("POST", "/v1/profiles", {{"name", "Before"}}, key);
    check_success_envelope(created, 201);
    const std::string id = std::to_string(created.json["data"].value("id", 0));
    const Headers inside = {{"X-Profile-Id", id}, {"Authorization", "Bearer " + key}};
    for (int i = 0; i < 3; ++i) {
        const auto first = stack.request("GET", "/v1/me", nullptr, key, {{"X-Profile-Id", id}});
        REQUIRE(first.status == 200);
        CHECK(first.json["data"]["workspace"]["name"] == "Before");
        const auto other = second.send("GET", "/v1/me", std::nullopt, inside);
        REQUIRE(other.status == 200);
        CHECK(other.json["data"]["workspace"]["name"] == "Before");
    }

    check_success_envelope(stack.request("PATCH", "/v1/profiles/" + id, {{"name", "After"}}, key),
                           200);

    const auto first = stack.request("GET", "/v1/me", nullptr, key, {{"X-Profile-Id", id}});
    CHECK(first.json["data"]["workspace"]["name"] == "After");
    const auto other = second.send("GET", "/v1/me", std::nullopt, inside);
    CHECK(other.json["data"]["workspace"]["name"] == "After");
    // The caller's own workspace keeps its name.
    CHECK(stack.request("GET", "/v1/me", nullptr, key).json["data"]["workspace"]["name"] !=
          "After");
}

TEST_CASE("a finished job polled by its workspace stays not found for another workspace",
          "[e2e][jobs][job_cache]") {
    Stack stack;
    const auto& owner = stack.tenant().test_key;
    const auto accepted = stack.request("POST", "/v1/jobs/ping", nlohmann::json::object(), owner);
    check_success_envelope(accepted, 202);
    const std::string job_id = accepted.json["data"].value("job_id", "");
    const auto finished = wait_for_terminal_job(stack, owner, job_id);
    REQUIRE(finished);
    REQUIRE(finished->value("status", "") == "completed");
    for (int i = 0; i < 3; ++i) {
        const auto polled = stack.request("GET", "/v1/jobs/" + job_id, nullptr, owner);
        check_success_envelope(polled, 200);
        CHECK(polled.json["data"] == *finished);
    }

    const auto stranger = stack.create_tenant("Stranger");
    check_not_found(stack.request("GET", "/v1/jobs/" + job_id, nullptr, stranger.test_key));
}
