// Reading and managing social posts end to end: the listing of spec 4.1 (pages, status and
// platform filters, X-Profile-Id), tenancy, changing a scheduled post and its publish jobs,
// metadata, cancelling, and stopping a recycling chain. The stack runs without workers.
#include "common/core/time/clock.hpp"
#include "common/domain/jobs/job_repository.hpp"
#include "common/domain/social/post_repository.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/event_sink.hpp"
#include "tests/support/fake_platforms.hpp"
#include "tests/support/social_fixtures.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;
using nlohmann::json;

namespace {

json create(Stack& stack, const std::string& key, const std::string& route, json body,
            const Headers& headers = {}) {
    const auto r = stack.request("POST", route, body, key, headers);
    check_success_envelope(r, 201);
    return r.json["data"];
}

std::string path_of(const json& post) {
    return "/v1/social/posts/" + std::to_string(post["id"].get<long long>());
}

}  // namespace

TEST_CASE_METHOD(SocialApi, "the posts listing pages with pages and filters by status and platform",
                 "[e2e][social][posts]") {
    connect_telegram_channel(stack, fake, key, -1001000000201LL);
    connect_discord_webhook(stack, fake, key, "123456789012345701");
    for (int i = 0; i < 3; ++i)
        create(stack, key, "/v1/social/posts",
               {{"content", "Now " + std::to_string(i)}, {"platforms", json::array({"telegram"})}});
    create(stack, key, "/v1/social/posts/schedule",
           {{"content", "Later"},
            {"platforms", json::array({"discord"})},
            {"scheduled_time", hours_from_now(3)}});
    create(stack, key, "/v1/social/posts/schedule",
           {{"content", "Draft"},
            {"platforms", json::array({"telegram", "discord"})},
            {"scheduled_time", hours_from_now(3)},
            {"draft", true}});

    const auto page = stack.request("GET", "/v1/social/posts?page=2&per_page=2", nullptr, key);
    check_success_envelope(page, 200);
    CHECK(page.json["pagination"] ==
          json({{"page", 2}, {"per_page", 2}, {"total", 5}, {"pages", 3}}));
    REQUIRE(page.json["data"].size() == 2);
    CHECK(page.json["data"][0]["content"] == "Now 2");
    for (const auto& field :
         {"id", "content", "platforms", "status", "scheduled_time", "published_at", "created_at"})
        CHECK(page.json["data"][0].contains(field));

    const auto scheduled = stack.request("GET", "/v1/social/posts?status=scheduled", nullptr, key);
    REQUIRE(scheduled.json["data"].size() == 1);
    CHECK(scheduled.json["data"][0]["content"] == "Later");
    CHECK(stack.request("GET", "/v1/social/posts?status=draft", nullptr, key)
              .json["pagination"]["total"] == 1);
    CHECK(stack.request("GET", "/v1/social/posts?status=processing", nullptr, key)
              .json["pagination"]["total"] == 3);
    CHECK(stack.request("GET", "/v1/social/posts?status=external", nullptr, key)
              .json["pagination"]["total"] == 0);
    const auto discord = stack.request("GET", "/v1/social/posts?platform=discord", nullptr, key);
    CHECK(discord.json["pagination"]["total"] == 2);
    const auto both =
        stack.request("GET", "/v1/social/posts?platform=discord&status=draft", nullptr, key);
    CHECK(both.json["pagination"]["total"] == 1);

    check_error_envelope(stack.request("GET", "/v1/social/posts?status=lost", nullptr, key), 422,
                         "VALIDATION_ERROR");
    check_error_envelope(stack.request("GET", "/v1/social/posts?per_page=101", nullptr, key), 422,
                         "VALIDATION_ERROR");
    check_error_envelope(stack.request("GET", "/v1/social/posts?page=0", nullptr, key), 422,
                         "VALIDATION_ERROR");
}

TEST_CASE_METHOD(SocialApi, "another workspace's posts are invisible and 404 on every route",
                 "[e2e][social][posts]") {
    connect_telegram_channel(stack, fake, key, -1001000000211LL);
    const auto post = create(stack, key, "/v1/social/posts/schedule",
                             {{"content", "Mine"},
                              {"platforms", json::array({"telegram"})},
                              {"scheduled_time", hours_from_now(2)}});
    const auto other = stack.create_tenant("other");
    const auto& theirs = other.live_key;
    CHECK(stack.request("GET", "/v1/social/posts", nullptr, theirs).json["pagination"]["total"] ==
          0);
    check_not_found(stack.request("GET", path_of(post), nullptr, theirs));
    check_not_found(stack.request("PATCH", path_of(post), {{"content", "Theirs"}}, theirs));
    check_not_found(stack.request("DELETE", path_of(post), nullptr, theirs));
    check_not_found(stack.request("POST", path_of(post) + "/update-metadata",
                                  {{"metadata", {{"a", 1}}}}, theirs));
    check_not_found(stack.request("DELETE", path_of(post) + "/recycle", nullptr, theirs));
    check_not_found(stack.request("GET", "/v1/social/posts/abc", nullptr, key));
    const auto mine = stack.request("GET", path_of(post), nullptr, key);
    check_success_envelope(mine, 200);
    CHECK(mine.json["data"]["content"] == "Mine");
}

TEST_CASE_METHOD(SocialApi, "X-Profile-Id posts and lists inside the profile only",
                 "[e2e][social][posts]") {
    const auto profile = stack.request("POST", "/v1/profiles", {{"name", "Client"}}, key);
    check_success_envelope(profile, 201);
    const Headers inside = {{"X-Profile-Id", std::to_string(profile.json["data"].value("id", 0))}};
    const auto token = telegram_channel(fake, -1001000000221LL, "client_channel");
    connect_telegram(stack, key, token, "@client_channel", inside);

    // The owner's own workspace has no Telegram account; the profile has one.
    check_error_envelope(
        stack.request("POST", "/v1/social/posts",
                      {{"content", "Outside"}, {"platforms", json::array({"telegram"})}}, key),
        422, "VALIDATION_ERROR");
    create(stack, key, "/v1/social/posts",
           {{"content", "Inside"}, {"platforms", json::array({"telegram"})}}, inside);
    const auto listed = stack.request("GET", "/v1/social/posts", nullptr, key, inside);
    check_success_envelope(listed, 200);
    REQUIRE(listed.json["data"].size() == 1);
    CHECK(listed.json["data"][0]["content"] == "Inside");
    CHECK(stack.request("GET", "/v1/social/posts", nullptr, key).json["pagination"]["total"] == 0);
}

TEST_CASE_METHOD(
    SocialApi,
    "changing a scheduled post re-checks it and moves its publish jobs, and a started one is 409",
    "[e2e][social][posts]") {
    connect_telegram_channel(stack, fake, key, -1001000000231LL);
    const auto post = create(stack, key, "/v1/social/posts/schedule",
                             {{"content", "First words"},
                              {"platforms", json::array({"telegram"})},
                              {"scheduled_time", hours_from_now(2)}});
    const auto moved_to = hours_from_now(30);
    const auto changed = stack.request(
        "PATCH", path_of(post), {{"content", "Better words"}, {"scheduled_time", moved_to}}, key);
    check_success_envelope(changed, 200);
    CHECK(changed.json["data"]["content"] == "Better words");
    CHECK(changed.json["data"]["scheduled_time"] == moved_to);
    CHECK(changed.json["data"]["targets"][0]["scheduled_time"] == moved_to);
    const auto job_id = stack.count("SELECT job_id FROM social_post_targets WHERE post_id = ?",
                                    {post["id"].get<long long>()});
    const auto run_after = stack.db().run([&](squawk::db::Session& s) {
        return s.query_one("SELECT run_after FROM jobs WHERE id = ?", {job_id})->text(0);
    });
    CHECK(squawk::time::parse_mysql(run_after) == squawk::time::parse_iso8601(moved_to));

    check_error_envelope(
        stack.request("PATCH", path_of(post), {{"content", std::string(4097, 'x')}}, key), 422,
        "VALIDATION_ERROR");
    check_error_envelope(
        stack.request("PATCH", path_of(post), {{"scheduled_time", "2001-01-01T00:00:00Z"}}, key),
        422, "VALIDATION_ERROR");
    check_error_envelope(stack.request("PATCH", path_of(post), json::object(), key), 422,
                         "VALIDATION_ERROR");

    const auto now =
        create(stack, key, "/v1/social/posts",
               {{"content", "Going out now"}, {"platforms", json::array({"telegram"})}});
    check_error_envelope(stack.request("PATCH", path_of(now), {{"content", "Too late"}}, key), 409,
                         "CONFLICT");
}

TEST_CASE_METHOD(SocialApi, "metadata is stored as given up to 8 KB", "[e2e][social][posts]") {
    connect_telegram_channel(stack, fake, key, -1001000000241LL);
    const auto post = create(stack, key, "/v1/social/posts",
                             {{"content", "Tagged"}, {"platforms", json::array({"telegram"})}});
    const json metadata = {{"campaign", "spring"}, {"ids", {1, 2, 3}}};
    const auto stored =
        stack.request("POST", path_of(post) + "/update-metadata", {{"metadata", metadata}}, key);
    check_success_envelope(stored, 200);
    CHECK(stored.json["data"]["metadata"] == metadata);
    CHECK(stack.request("GET", path_of(post), nullptr, key).json["data"]["metadata"] == metadata);
    check_error_envelope(stack.request("POST", path_of(post) + "/update-metadata",
                                       {{"metadata", {{"big", std::string(9000, 'x')}}}}, key),
                         422, "VALIDATION_ERROR");
    check_error_envelope(
        stack.request("POST", path_of(post) + "/update-metadata", {{"metadata", "text"}}, key), 422,
        "VALIDATION_ERROR");
}

TEST_CASE_METHOD(SocialApi,
                 "deleting a scheduled post cancels its targets and jobs and emits post.cancelled",
                 "[e2e][social][posts]") {
    hold_every_event(stack, stack.tenant().workspace_id);
    connect_telegram_channel(stack, fake, key, -1001000000251LL);
    connect_discord_webhook(stack, fake, key, "123456789012345751");
    const auto post = create(stack, key, "/v1/social/posts/schedule",
                             {{"content", "Never mind"},
                              {"platforms", json::array({"telegram", "discord"})},
                              {"scheduled_time", hours_from_now(2)}});
    const auto deleted = stack.request("DELETE", path_of(post), nullptr, key);
    CHECK(deleted.status == 204);
    CHECK(deleted.body.empty());
    CHECK(stack.count("SELECT COUNT(*) FROM social_post_targets WHERE status = 'cancelled'") == 2);
    CHECK(stack.count("SELECT COUNT(*) FROM jobs WHERE status = 'cancelled'") == 2);
    CHECK(stack.count("SELECT COUNT(*) FROM events WHERE name = 'post.cancelled'") == 1);
    check_not_found(stack.request("GET", path_of(post), nullptr, key));
    CHECK(stack.request("GET", "/v1/social/posts", nullptr, key).json["pagination"]["total"] == 0);

    const auto now =
        create(stack, key, "/v1/social/posts",
               {{"content", "Already going"}, {"platforms", json::array({"telegram"})}});
    check_error_envelope(stack.request("DELETE", path_of(now), nullptr, key), 409, "CONFLICT");
}

TEST_CASE_METHOD(
    SocialApi,
    "stopping recycling on any post of a chain drafts its scheduled occurrences and clears "
    "the rule everywhere",
    "[e2e][social][posts]") {
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000261LL);
    const auto workspace = stack.tenant().workspace_id;
    const auto account_row =
        stack.count("SELECT id FROM social_accounts WHERE public_id = ?", {account});
    // The chain as the publish worker leaves it: the first post published, the next scheduled.
    const auto insert = [&](int count, std::optional<long long> parent, int hours) {
        squawk::social::NewPost p;
        p.workspace_id = workspace;
        p.content = "Weekly tip";
        squawk::social::RecycleRule rule;
        rule.interval_hours = 168;
        rule.max_repeats = 4;
        p.recycle = rule;
        p.recycle_count = count;
        p.recycle_parent_id = parent;
        squawk::social::NewTarget t;
        t.account_id = account_row;
        t.account_public_id = account;
        t.platform = "telegram";
        t.scheduled_time = squawk::time::now() + std::chrono::hours(hours);
        p.targets.push_back(t);
        return stack.db().transaction([&](squawk::db::Session& s) {
            return squawk::social::PostRepository::insert(s, p).id;
        });
    };
    const auto root = insert(0, std::nullopt, 1);
    const auto next = insert(1, root, 169);
    const auto after = insert(2, root, 337);
    stack.db().run([&](squawk::db::Session& s) {
        s.execute("UPDATE social_posts SET status = 'published' WHERE id = ?", {root});
        s.execute("UPDATE social_post_targets SET status = 'published' WHERE post_id = ?", {root});
    });

    const auto r = stack.request("DELETE", "/v1/social/posts/" + std::to_string(next) + "/recycle",
                                 nullptr, key);
    check_success_envelope(r, 200);
    CHECK(r.json["data"]["chain_post_ids"] == json({root, next, after}));
    CHECK(r.json["data"]["drafted_post_ids"] == json({next, after}));
    CHECK(stack.count(
              "SELECT COUNT(*) FROM social_posts WHERE recycle_interval_hours IS NOT NULL") == 0);
    CHECK(stack.count("SELECT COUNT(*) FROM social_posts WHERE status = 'draft'") == 2);
    CHECK(stack.count("SELECT status = 'published' FROM social_posts WHERE id = ?", {root}) == 1);
    CHECK(
        stack.count(
            "SELECT COUNT(*) FROM social_post_targets WHERE status = 'draft' AND job_id IS NULL") ==
        2);
    CHECK(stack.count("SELECT COUNT(*) FROM jobs WHERE status = 'cancelled'") == 2);
    const auto read =
        stack.request("GET", "/v1/social/posts/" + std::to_string(root), nullptr, key);
    CHECK(read.json["data"]["recycle"].is_null());
}
