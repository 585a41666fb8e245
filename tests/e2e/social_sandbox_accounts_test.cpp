// Sandbox accounts end to end (issue 22): a test key connects an account on any platform without
// the platform and builds against it as against a connected one (every post check, a publish
// that sends nothing); live keys are refused one and never see one.
#include "common/domain/social/connector.hpp"
#include "common/domain/social/post_validation.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/fake_platforms.hpp"
#include "tests/support/post_fixtures.hpp"
#include "tests/support/social_fixtures.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace squawk::testing;
using nlohmann::json;

namespace {

// POST /v1/social/connect/<platform> {"sandbox": true, "name"} with `test_key`; requires 201 and
// returns the account.
json connect_sandbox(Stack& stack, const std::string& test_key, const std::string& platform,
                     const std::string& name) {
    const auto r = stack.request("POST", "/v1/social/connect/" + platform,
                                 {{"sandbox", true}, {"name", name}}, test_key);
    check_success_envelope(r, 201);
    return r.json["data"];
}

std::vector<std::string> listed_ids(Stack& stack, const std::string& key) {
    const auto r = stack.request("GET", "/v1/social/accounts", nullptr, key);
    check_success_envelope(r, 200);
    std::vector<std::string> ids;
    for (const auto& a : r.json["data"]) ids.push_back(a["id"]);
    return ids;
}

bool contains(const std::vector<std::string>& ids, const std::string& id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

}  // namespace

TEST_CASE_METHOD(SocialApi,
                 "a test key connects a sandbox account of every platform without calling it",
                 "[e2e][social][sandbox]") {
    const auto& test_key = stack.tenant().test_key;
    for (const auto& platform : squawk::social::registered_platforms()) {
        const std::string id(platform.id);
        INFO(id);
        const auto account = connect_sandbox(stack, test_key, id, "Sandbox " + id);
        CHECK(account["platform"] == id);
        CHECK(account["display_name"] == "Sandbox " + id);
        CHECK(account["status"] == "connected");
        CHECK(account["token_valid"] == true);
        CHECK(account["sandbox"] == true);
        CHECK(account["external_id"].get<std::string>().starts_with("sandbox-"));
    }
    // OAuth platforms (x) too, with no authorize round trip; token platforms (telegram) with no
    // token: not one call reached a platform.
    CHECK(fake.calls().empty());
    CHECK(stack.count("SELECT COUNT(*) FROM oauth_states") == 0);
    CHECK(stack.count("SELECT COUNT(*) FROM social_accounts WHERE sandbox = 1") ==
          static_cast<long long>(squawk::social::registered_platforms().size()));

    // Two sandbox accounts of one platform are two accounts.
    const auto second = connect_sandbox(stack, test_key, "x", "Sandbox x");
    CHECK(listed_ids(stack, test_key).size() == squawk::social::registered_platforms().size() + 1);
    CHECK(second["external_id"] != connect_sandbox(stack, test_key, "x", "Third")["external_id"]);

    // Sandbox accounts cost nothing: they do not lift the workspace's rate tier (spec 8.1).
    const auto r = stack.request("GET", "/v1/social/accounts", nullptr, test_key);
    CHECK(r.header("x-ratelimit-limit") == "60");
}

TEST_CASE_METHOD(SocialApi, "a live key asking for a sandbox account is refused with 403",
                 "[e2e][social][sandbox]") {
    for (const auto* platform : {"x", "telegram"}) {
        INFO(platform);
        const auto r = stack.request("POST", std::string("/v1/social/connect/") + platform,
                                     {{"sandbox", true}, {"name", "Not for live keys"}}, key);
        check_error_envelope(r, 403, "FORBIDDEN");
    }
    // Refused before the body is read: a live key learns nothing from a bad one either.
    check_error_envelope(stack.request("POST", "/v1/social/connect/x", {{"sandbox", true}}, key),
                         403, "FORBIDDEN");
    CHECK(stack.count("SELECT COUNT(*) FROM social_accounts") == 0);
    CHECK(fake.calls().empty());
}

TEST_CASE_METHOD(SocialApi, "a bad sandbox connect is one 422 naming every bad field",
                 "[e2e][social][sandbox]") {
    const auto& test_key = stack.tenant().test_key;
    struct Case {
        json body;
        std::vector<std::string> fields;
    };
    const std::vector<Case> cases = {
        {{{"sandbox", true}}, {"name"}},
        {{{"sandbox", true}, {"name", "   "}}, {"name"}},
        {{{"sandbox", true}, {"name", std::string(101, 'n')}}, {"name"}},
        {{{"sandbox", true}, {"name", 7}}, {"name"}},
        {{{"sandbox", true}, {"name", "Fine"}, {"bot_token", "1:abc"}}, {"bot_token"}},
        {{{"sandbox", "yes"}, {"name", "Fine"}}, {"sandbox"}},
    };
    for (const auto& c : cases) {
        INFO(c.body.dump());
        const auto r = stack.request("POST", "/v1/social/connect/telegram", c.body, test_key);
        check_error_envelope(r, 422, "VALIDATION_ERROR");
        for (const auto& field : c.fields)
            CHECK(r.json["error"]["details"]["fields"].contains(field));
    }
    CHECK(stack.count("SELECT COUNT(*) FROM social_accounts") == 0);
    CHECK(connect_sandbox(stack, test_key, "telegram", std::string(100, 'n'))["display_name"] ==
          std::string(100, 'n'));
    CHECK(fake.calls().empty());
}

TEST_CASE_METHOD(
    SocialApi,
    "a live key never sees, changes or posts to a sandbox account while a test key sees both",
    "[e2e][social][sandbox]") {
    const auto& test_key = stack.tenant().test_key;
    const std::string live = connect_telegram_channel(stack, fake, key, -1001000002201LL);
    const std::string sandbox = connect_sandbox(stack, test_key, "x", "Sandbox X")["id"];

    const auto live_list = listed_ids(stack, key);
    CHECK(live_list == std::vector<std::string>{live});
    const auto test_list = listed_ids(stack, test_key);
    CHECK(test_list.size() == 2);
    CHECK(contains(test_list, sandbox));

    const auto health = stack.request("GET", "/v1/social/accounts/health", nullptr, key);
    check_success_envelope(health, 200);
    CHECK(health.json["pagination"]["total"] == 1);
    const auto stats = stack.request("GET", "/v1/social/accounts/follower-stats", nullptr, key);
    check_success_envelope(stats, 200);
    CHECK(stats.json["data"]["accounts"].size() == 1);

    // As another workspace's account would be: not found.
    check_error_envelope(stack.request("PATCH", "/v1/social/accounts/" + sandbox,
                                       {{"display_name", "Renamed"}}, key),
                         404, "RESOURCE_NOT_FOUND");
    check_error_envelope(stack.request("DELETE", "/v1/social/accounts/" + sandbox, nullptr, key),
                         404, "RESOURCE_NOT_FOUND");

    const auto by_id = stack.request(
        "POST", "/v1/social/posts",
        {{"content", "To the sandbox."}, {"account_ids", json::array({sandbox})}}, key);
    check_error_envelope(by_id, 422, "VALIDATION_ERROR");
    CHECK(by_id.json["error"]["details"]["fields"]["account_ids"].get<std::string>().find(
              sandbox) != std::string::npos);
    const auto by_platform = stack.request(
        "POST", "/v1/social/posts", {{"content", "To X."}, {"platforms", json::array({"x"})}}, key);
    check_error_envelope(by_platform, 422, "VALIDATION_ERROR");
    CHECK(by_platform.json["error"]["details"]["fields"].contains("platforms"));

    const auto sync = stack.request("POST", "/v1/social/posts/sync-external",
                                    {{"account_ids", json::array({sandbox})}}, key);
    check_error_envelope(sync, 422, "VALIDATION_ERROR");
    CHECK(sync.json["error"]["details"]["fields"].contains("account_ids"));

    check_error_envelope(
        stack.request("POST", "/v1/social/account-groups",
                      {{"name", "Live"}, {"account_ids", json::array({sandbox})}}, key),
        422, "VALIDATION_ERROR");
    // A group holding both, made with the test key: the live key sees the live member only,
    // and replacing the members it sees leaves the sandbox one in place.
    const auto group =
        stack.request("POST", "/v1/social/account-groups",
                      {{"name", "Both"}, {"account_ids", json::array({live, sandbox})}}, test_key);
    check_success_envelope(group, 201);
    const std::string group_path =
        "/v1/social/account-groups/" + group.json["data"]["id"].get<std::string>();
    const auto seen_live = stack.request("GET", group_path, nullptr, key);
    check_success_envelope(seen_live, 200);
    CHECK(seen_live.json["data"]["account_ids"] == json::array({live}));
    check_success_envelope(
        stack.request("PATCH", group_path, {{"account_ids", json::array({live})}}, key), 200);
    const auto seen_test = stack.request("GET", group_path, nullptr, test_key);
    // Members in the order they joined: the live one joined again with the PATCH.
    CHECK(seen_test.json["data"]["account_ids"] == json::array({sandbox, live}));
    CHECK(fake.calls("sendMessage").empty());
}

TEST_CASE_METHOD(SocialApi, "a test key's post to sandbox accounts passes every platform check",
                 "[e2e][social][sandbox]") {
    const auto& test_key = stack.tenant().test_key;
    const std::string x = connect_sandbox(stack, test_key, "x", "Sandbox X")["id"];
    const std::string telegram =
        connect_sandbox(stack, test_key, "telegram", "Sandbox Telegram")["id"];

    const auto posted = stack.request("POST", "/v1/social/posts",
                                      {{"content", "Built before owning an account."},
                                       {"platforms", json::array({"x"})},
                                       {"account_ids", json::array({telegram})}},
                                      test_key);
    check_success_envelope(posted, 201);
    CHECK(posted.json["data"]["is_test"] == true);
    REQUIRE(posted.json["data"]["targets"].size() == 2);
    std::vector<std::string> targets;
    for (const auto& t : posted.json["data"]["targets"]) targets.push_back(t["account_id"]);
    CHECK(contains(targets, x));
    CHECK(contains(targets, telegram));

    // X's rules hold for its sandbox account: 281 characters are one too many.
    const auto too_long = stack.request(
        "POST", "/v1/social/posts",
        {{"content", std::string(281, 'a')}, {"account_ids", json::array({x})}}, test_key);
    check_error_envelope(too_long, 422, "VALIDATION_ERROR");
    CHECK(too_long.json["error"]["details"]["fields"]["content"].get<std::string>().find(
              "x allows at most 280") != std::string::npos);
    // The same text is fine for Telegram.
    check_success_envelope(stack.request("POST", "/v1/social/posts",
                                         {{"content", std::string(281, 'b')},
                                          {"account_ids", json::array({telegram})}},
                                         test_key),
                           201);
    const auto bad_type = stack.request("POST", "/v1/social/posts",
                                        {{"content", "A reel?"},
                                         {"account_ids", json::array({x})},
                                         {"platform_options", {{"x", {{"post_type", "reel"}}}}}},
                                        test_key);
    check_error_envelope(bad_type, 422, "POST_TYPE_UNSUPPORTED");
    CHECK(fake.calls().empty());
}

TEST_CASE_METHOD(SocialApi,
                 "every publishing platform refuses at creation a text one character over its "
                 "limit and more media than it takes, naming itself, and stores nothing",
                 "[e2e][social][sandbox]") {
    const auto& test_key = stack.tenant().test_key;
    for (const auto& platform : squawk::social::registered_platforms()) {
        if (!platform.limits.can_publish) continue;
        const std::string id(platform.id);
        INFO(id);
        const std::string account = connect_sandbox(stack, test_key, id, "Rules " + id)["id"];
        // Facebook's 63,206 characters are past the API's own 10,000 for any post.
        if (platform.limits.max_text_chars < 10'000) {
            const auto too_long =
                stack.request("POST", "/v1/social/posts",
                              {{"content", std::string(platform.limits.max_text_chars + 1, 'a')},
                               {"account_ids", json::array({account})}},
                              test_key);
            check_error_envelope(too_long, 422, "VALIDATION_ERROR");
            CHECK(too_long.json["error"]["details"]["fields"]["content"]
                      .get<std::string>()
                      .starts_with(id + " allows at most " +
                                   std::to_string(platform.limits.max_text_chars)));
        }
        // TikTok's 35 photos are the API's own most for any post.
        const size_t most = std::max<size_t>(platform.limits.max_images, 1);
        if (most < squawk::social::kMaxMediaItems) {
            json media = json::array();
            for (size_t i = 0; i <= most; ++i)
                media.push_back("https://media.example/" + std::to_string(i) + ".jpg");
            const auto too_many = stack.request("POST", "/v1/social/posts",
                                                {{"content", "Media"},
                                                 {"account_ids", json::array({account})},
                                                 {"media_urls", media}},
                                                test_key);
            check_error_envelope(too_many, 422, "VALIDATION_ERROR");
            CHECK(too_many.json["error"]["details"]["fields"]["media_urls"]
                      .get<std::string>()
                      .starts_with(id + " "));
        }
    }
    CHECK(stack.count("SELECT COUNT(*) FROM social_posts") == 0);
    CHECK(fake.calls().empty());
}

TEST_CASE_METHOD(SocialApi, "a test key renames and disconnects its sandbox account",
                 "[e2e][social][sandbox]") {
    const auto& test_key = stack.tenant().test_key;
    const std::string id = connect_sandbox(stack, test_key, "telegram", "Before")["id"];
    const auto renamed =
        stack.request("PATCH", "/v1/social/accounts/" + id, {{"display_name", "After"}}, test_key);
    check_success_envelope(renamed, 200);
    CHECK(renamed.json["data"]["display_name"] == "After");
    CHECK(renamed.json["data"]["sandbox"] == true);

    const auto gone = stack.request("DELETE", "/v1/social/accounts/" + id, nullptr, test_key);
    check_success_envelope(gone, 200);
    CHECK(gone.json["data"]["disconnected"] == true);
    CHECK(listed_ids(stack, test_key).empty());
    const auto after =
        stack.request("POST", "/v1/social/posts",
                      {{"content", "Too late."}, {"account_ids", json::array({id})}}, test_key);
    check_error_envelope(after, 422, "VALIDATION_ERROR");
    CHECK(after.json["error"]["details"]["fields"].contains("account_ids"));
    CHECK(fake.calls().empty());
}

TEST_CASE_METHOD(PublishStack, "a published sandbox post reaches no platform",
                 "[e2e][social][sandbox]") {
    const auto& test_key = stack.tenant().test_key;
    connect_sandbox(stack, test_key, "x", "Sandbox X");
    connect_sandbox(stack, test_key, "telegram", "Sandbox Telegram");
    const auto posted = stack.request(
        "POST", "/v1/social/posts",
        {{"content", "Nothing leaves."}, {"platforms", json::array({"x", "telegram"})}}, test_key);
    check_success_envelope(posted, 201);
    const auto post = wait_settled(stack, posted.json["data"]["id"].get<long long>());
    CHECK(post.status == squawk::social::PostStatus::published);
    REQUIRE(post.targets.size() == 2);
    for (const auto& t : post.targets) {
        INFO(t.platform);
        CHECK(t.status == squawk::social::TargetStatus::published);
        REQUIRE(t.external_id);
        CHECK(t.external_id->starts_with("sandbox-"));
    }
    CHECK(fake.calls().empty());
    CHECK(fake.publishes().empty());
}

TEST_CASE_METHOD(SocialApi, "another workspace's test key finds none of a sandbox account",
                 "[e2e][social][sandbox]") {
    const std::string id =
        connect_sandbox(stack, stack.tenant().test_key, "telegram", "Ours")["id"];
    const auto other = stack.create_tenant("neighbour");

    CHECK_FALSE(contains(listed_ids(stack, other.test_key), id));
    const auto rename = stack.request("PATCH", "/v1/social/accounts/" + id,
                                      {{"display_name", "Theirs"}}, other.test_key);
    check_error_envelope(rename, 404, "RESOURCE_NOT_FOUND");
    check_error_envelope(
        stack.request("DELETE", "/v1/social/accounts/" + id, nullptr, other.test_key), 404,
        "RESOURCE_NOT_FOUND");
    const auto post = stack.request("POST", "/v1/social/posts",
                                    {{"content", "Not yours."}, {"account_ids", json::array({id})}},
                                    other.test_key);
    check_error_envelope(post, 422, "VALIDATION_ERROR");
    CHECK(post.json["error"]["details"]["fields"].contains("account_ids"));

    // Untouched for its own workspace.
    const auto ours = stack.request("GET", "/v1/social/accounts", nullptr, stack.tenant().test_key);
    REQUIRE(ours.json["data"].size() == 1);
    CHECK(ours.json["data"][0]["display_name"] == "Ours");
    CHECK(stack.count("SELECT COUNT(*) FROM social_posts") == 0);
}

TEST_CASE_METHOD(SocialApi,
                 "a CSV batch names accounts and platform options per row, and a refused post "
                 "type names its row",
                 "[e2e][social][sandbox]") {
    const auto& test_key = stack.tenant().test_key;
    const std::string x = connect_sandbox(stack, test_key, "x", "Sandbox X")["id"];
    const std::string csv =
        "content,account_ids,platform_options\n"
        "First,\"" +
        x +
        "\",\n"
        "\"A reply\",\"" +
        x + "\",\"{\"\"x\"\": {\"\"reply_to\"\": \"\"1790000000000000001\"\"}}\"\n";
    const auto created = stack.request("POST", "/v1/social/posts/bulk", {{"csv", csv}}, test_key);
    check_success_envelope(created, 201);
    REQUIRE(created.json["data"]["posts"].size() == 2);
    const auto reply_id = created.json["data"]["posts"][1]["id"].get<long long>();
    const auto reply =
        stack.request("GET", "/v1/social/posts/" + std::to_string(reply_id), nullptr, test_key);
    CHECK(reply.json["data"]["platform_options"]["x"]["reply_to"] == "1790000000000000001");
    CHECK(reply.json["data"]["targets"][0]["account_id"] == x);

    const std::string reel =
        "content,account_ids,platform_options\n"
        "Fine,\"" +
        x +
        "\",\n"
        "\"A reel?\",\"" +
        x + "\",\"{\"\"x\"\": {\"\"post_type\"\": \"\"reel\"\"}}\"\n";
    const auto refused = stack.request("POST", "/v1/social/posts/bulk", {{"csv", reel}}, test_key);
    check_error_envelope(refused, 422, "POST_TYPE_UNSUPPORTED");
    CHECK(refused.json["error"]["details"]["index"] == 1);
    CHECK(refused.json["error"]["message"].get<std::string>().starts_with("Row 1: "));
    CHECK(stack.count("SELECT COUNT(*) FROM social_posts") == 2);
}
