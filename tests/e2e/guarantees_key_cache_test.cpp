// Keys cached by API processes: a revocation reaches every process at once.
#include "tests/support/api_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace squawk::testing;

TEST_CASE("a key cached by two API processes is refused by both right after its revocation",
          "[e2e][auth][key_cache]") {
    Stack stack(without_worker());
    HttpClient second(stack.start_extra_api());
    const long long ws = stack.tenant().workspace_id;
    const std::string key = stack.create_key(ws, "live", "all");
    const Headers auth = {{"Authorization", "Bearer " + key}};
    for (int i = 0; i < 3; ++i) {
        REQUIRE(stack.request("GET", "/v1/me", nullptr, key).status == 200);
        REQUIRE(second.send("GET", "/v1/me", std::nullopt, auth).status == 200);
    }
    const auto listed = stack.ctl({"key", "list", "--workspace", std::to_string(ws)});
    std::istringstream lines(listed.out);
    std::string line, id;
    while (std::getline(lines, line))
        if (line.find(key.substr(0, 13)) != std::string::npos) std::istringstream(line) >> id;
    REQUIRE_FALSE(id.empty());
    REQUIRE(stack.ctl({"key", "revoke", "--id", id}).exit_code == 0);

    check_error_envelope(stack.request("GET", "/v1/me", nullptr, key), 401, "INVALID_API_KEY");
    const auto other = second.send("GET", "/v1/me", std::nullopt, auth);
    CHECK(other.status == 401);
    // Job polls skip the rate limiter but not authentication.
    CHECK(second.send("GET", "/v1/jobs/job_x", std::nullopt, auth).status == 401);
    // The workspace's other keys keep working.
    CHECK(second
              .send("GET", "/v1/me", std::nullopt,
                    {{"Authorization", "Bearer " + stack.tenant().live_key}})
              .status == 200);
}
