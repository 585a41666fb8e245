// GET /v1/social/accounts/follower-stats from the outside: a worker running the sync pool reads
// a connected X account's follower count from the platform, the route shows it per UTC day for
// the workspace's own accounts, and `days` outside 1-365 is refused naming the field.
#include "tests/support/api_checks.hpp"
#include "tests/support/social_fixtures.hpp"
#include "tests/support/wait.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;
using nlohmann::json;

namespace {

StackOptions sync_stack(const FakePlatforms& fake) {
    StackOptions options;
    options.worker_arguments = {"--pools", "sync"};
    options.extra_config = fake.config();
    return options;
}

constexpr const char* kUserId = "1590000000000000999";

}  // namespace

TEST_CASE_METHOD(FakePlatformStack<sync_stack>,
                 "follower stats show the followers the sync pool read for each account per day",
                 "[e2e][social]") {
    fake.control_platform(
        "x", "user",
        {{"id", kUserId}, {"username", "followed"}, {"name", "Followed"}, {"followers", 4321}});
    fake.control_platform("x", "next_consent", {{"user_id", kUserId}});
    const auto connected = connect_through_oauth(stack, key, "x");
    REQUIRE(connected.status == 201);
    const std::string account = connected.json["data"]["id"];

    json stats;
    const bool read = wait_until(
        [&] {
            const auto r =
                stack.request("GET", "/v1/social/accounts/follower-stats?days=7", nullptr, key);
            check_success_envelope(r, 200);
            stats = r.json["data"];
            return stats["accounts"].size() == 1 && !stats["accounts"][0]["days"].empty();
        },
        // The sync pool reads every 30 s, so the account may wait one whole interval; asked
        // once a second to stay under the key's 60 requests a minute.
        std::chrono::seconds(45), std::chrono::seconds(1));
    REQUIRE(read);
    CHECK(stats["days"] == 7);
    const auto& series = stats["accounts"][0];
    CHECK(series["account_id"] == account);
    CHECK(series["platform"] == "x");
    CHECK(series["display_name"] == "Followed");
    REQUIRE(series["days"].size() == 1);
    CHECK(series["days"][0]["followers"] == 4321);
    CHECK(series["days"][0]["date"].get<std::string>().size() == 10);

    // Another workspace sees none of it.
    const auto other = stack.create_tenant("stranger");
    const auto theirs =
        stack.request("GET", "/v1/social/accounts/follower-stats", nullptr, other.live_key);
    check_success_envelope(theirs, 200);
    CHECK(theirs.json["data"]["days"] == 30);
    CHECK(theirs.json["data"]["accounts"].empty());

    for (const char* days : {"0", "366", "week"}) {
        const auto refused = stack.request(
            "GET", std::string("/v1/social/accounts/follower-stats?days=") + days, nullptr, key);
        check_error_envelope(refused, 422, "VALIDATION_ERROR");
        CHECK(refused.json["error"]["details"]["fields"].contains("days"));
    }
}
