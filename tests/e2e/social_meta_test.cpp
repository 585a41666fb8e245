// Instagram and Threads end to end: each account connects through its consent page and the
// callback route, then a post goes out through the publish worker and the platform's containers.
// Meta sends users back only to https addresses, so this stack's public URL is https.
#include "common/domain/social/post.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/post_fixtures.hpp"
#include "tests/support/social_fixtures.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;
namespace social = squawk::social;
using nlohmann::json;

namespace {

using MetaStack = HttpsPublishStack;

// POST /v1/social/posts to one account; returns the post once it settled.
social::Post publish(MetaStack& s, const std::string& account, const json& fields) {
    json body = fields;
    body["account_ids"] = json::array({account});
    const auto created = s.stack.request("POST", "/v1/social/posts", body, s.key);
    check_success_envelope(created, 201);
    return wait_settled(s.stack, created.json["data"]["id"].get<long long>());
}

}  // namespace

TEST_CASE_METHOD(MetaStack,
                 "an Instagram account connects through Facebook Login and its photo post is "
                 "published through a media container",
                 "[e2e][social][publish]") {
    const std::string user = "10150000000000042";
    const std::string instagram_id = "17841400000000042";
    fake.control_platform("instagram", "user", {{"id", user}, {"name", "Sam"}});
    fake.control_platform("instagram", "page",
                          {{"id", "104000000000077"},
                           {"name", "Squawk Café"},
                           {"user_id", user},
                           {"instagram", {{"id", instagram_id}, {"username", "squawk.app"}}}});
    fake.control_platform("instagram", "next_consent", {{"user_id", user}});
    const auto connected = connect_through_oauth(stack, key, "instagram");
    REQUIRE(connected.status == 201);
    CHECK(connected.json["data"]["platform"] == "instagram");

    const auto done =
        publish(*this, connected.json["data"]["id"],
                {{"content", "Latte art #coffee"},
                 {"media_urls", {fake.media_url("latte.jpg", "image/jpeg", 120'000)}}});
    REQUIRE(done.status == social::PostStatus::published);
    const auto media = fake.messages()["instagram"][instagram_id];
    REQUIRE(media.size() == 1);
    CHECK(media[0]["caption"] == "Latte art #coffee");
    CHECK(done.targets[0].external_id == media[0]["id"].get<std::string>());
}

TEST_CASE_METHOD(MetaStack,
                 "a Threads account connects through its consent page and its post is published "
                 "through a container",
                 "[e2e][social][publish]") {
    const std::string user = "17841400000000043";
    fake.control_platform("threads", "user",
                          {{"id", user}, {"username", "squawk.threads"}, {"name", "Squawk Team"}});
    fake.control_platform("threads", "next_consent", {{"user_id", user}});
    const auto connected = connect_through_oauth(stack, key, "threads");
    REQUIRE(connected.status == 201);
    CHECK(connected.json["data"]["platform"] == "threads");

    const auto done = publish(*this, connected.json["data"]["id"], {{"content", "Hello Threads"}});
    REQUIRE(done.status == social::PostStatus::published);
    const auto posts = fake.messages()["threads"][user];
    REQUIRE(posts.size() == 1);
    CHECK(posts[0]["text"] == "Hello Threads");
    CHECK(done.targets[0].external_id == posts[0]["id"].get<std::string>());
}

TEST_CASE_METHOD(MetaStack,
                 "a Threads post refused for a missing permission fails its target and marks the "
                 "account to reconnect, whose next post is refused before anything is stored",
                 "[e2e][social][publish]") {
    const std::string user = "17841400000000044";
    fake.control_platform("threads", "user",
                          {{"id", user}, {"username", "squawk.scoped"}, {"name", "Scoped"}});
    fake.control_platform("threads", "next_consent", {{"user_id", user}});
    const auto connected = connect_through_oauth(stack, key, "threads");
    REQUIRE(connected.status == 201);
    const std::string account = connected.json["data"]["id"];
    // The Graph API's answer when the user took back threads_content_publish in their settings.
    const std::string refusal = "(#10) Application does not have permission for this action";
    fake.program("/" + user + "/threads", json::array({{{"status", 403},
                                                        {"body",
                                                         {{"error",
                                                           {{"message", refusal},
                                                            {"type", "OAuthException"},
                                                            {"code", 10},
                                                            {"fbtrace_id", "AbCdEf"}}}}}}}));

    const auto done = publish(*this, account, {{"content", "Not allowed"}});
    CHECK(done.status == social::PostStatus::failed);
    CHECK(done.targets[0].error["code"] == "ACCOUNT_RECONNECT_REQUIRED");
    CHECK(done.targets[0].error["detail"]["reason"] == refusal);
    CHECK(fake.messages()["threads"][user].empty());

    // Threads still knows the token: only a reconnect granting the permission mends it.
    const auto health = stack.request("GET", "/v1/social/accounts/health", nullptr, key);
    CHECK(health.json["data"][0]["reconnect_required"] == true);
    CHECK(health.json["data"][0]["last_error"] == refusal);
    const auto next = stack.request(
        "POST", "/v1/social/posts",
        {{"content", "Still not allowed"}, {"account_ids", json::array({account})}}, key);
    check_error_envelope(next, 403, "CONNECTION_SCOPE_MISSING");
    CHECK(next.json["error"]["details"]["reconnect_required"] == true);
    CHECK(stack.count("SELECT COUNT(*) FROM social_posts") == 1);
}
