// Importing natively published posts: a Discord channel connected with a bot is listed and its
// messages become `external` posts once, edits update them, messages Squawk published stay its
// own, and accounts whose platform cannot list say so.
#include "common/core/db/sql_text.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/event_sink.hpp"
#include "tests/support/fake_platforms.hpp"
#include "tests/support/social_fixtures.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::testing;

namespace {

constexpr const char* kChannel = "623456789012345001";
constexpr const char* kBotToken =
    "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.abcdefghijklmnopqrstuvwxyz0123456";

StackOptions sync_stack(const FakePlatforms& fake) {
    StackOptions options;
    options.start_scheduler = false;
    options.worker_arguments = {"--pools", "sync"};
    options.extra_config = fake.config();
    return options;
}

std::string connect_discord_bot(Stack& stack, FakePlatforms& fake, const std::string& key) {
    fake.add_discord_channel(
        {{"id", kChannel}, {"name", "news"}, {"guild_id", "723456789012345678"}}, {kBotToken});
    const auto r = stack.request("POST", "/v1/social/connect/discord",
                                 {{"bot_token", kBotToken}, {"channel_id", kChannel}}, key);
    check_success_envelope(r, 201);
    return r.json["data"]["id"].get<std::string>();
}

nlohmann::json run_sync(Stack& stack, const std::string& key,
                        const nlohmann::json& body = nullptr) {
    const auto r = stack.request("POST", "/v1/social/posts/sync-external", body, key);
    check_success_envelope(r, 202);
    const auto job = wait_for_terminal_job(stack, key, r.json["data"]["job_id"]);
    REQUIRE(job);
    REQUIRE((*job)["status"] == "completed");
    return (*job)["result"];
}

nlohmann::json report_for(const nlohmann::json& result, const std::string& account_id) {
    for (const auto& report : result["accounts"])
        if (report["account_id"] == account_id) return report;
    FAIL("no report for " << account_id);
    return nullptr;
}

}  // namespace

TEST_CASE_METHOD(
    FakePlatformStack<sync_stack>,
    "natively published Discord messages are imported once as external posts and edits "
    "update them") {
    hold_every_event(stack, stack.tenant().workspace_id);
    const auto bot_account = connect_discord_bot(stack, fake, key);
    const auto webhook_account = connect_discord_webhook(stack, fake, key, "623456789012345002");
    const auto telegram_account = connect_telegram_channel(stack, fake, key, -1001000000777LL);

    const auto first = fake.post_discord_native(kChannel, "Launch day!");
    fake.post_discord_native(kChannel, "Doors open at nine.");
    // A message Squawk published itself: its target already holds the message id.
    const auto ours = fake.post_discord_native(kChannel, "Sent through Squawk");
    stack.db().run([&](db::Session& s) {
        const auto now = db::time_param(time::now());
        const long long post_id = s.insert(
            "INSERT INTO social_posts (workspace_id, status, content, content_hash,"
            " created_at, updated_at) VALUES (?, 'published', 'Sent through Squawk', 'h',"
            " ?, ?)",
            {stack.tenant().workspace_id, now, now});
        s.execute(
            "INSERT INTO social_post_targets (post_id, workspace_id, account_id, platform,"
            " status, scheduled_time, external_id, created_at, updated_at)"
            " SELECT ?, workspace_id, id, 'discord', 'published', ?, ?, ?, ?"
            " FROM social_accounts WHERE public_id = ?",
            {post_id, now, ours["id"].get<std::string>(), now, now, bot_account});
    });

    const auto result = run_sync(stack, key);
    CHECK(result["imported"] == 2);
    CHECK(report_for(result, bot_account)["listed"] == true);
    CHECK(report_for(result, webhook_account)["listed"] == false);
    CHECK(report_for(result, telegram_account)["listed"] == false);
    CHECK(stack.count("SELECT COUNT(*) FROM social_posts WHERE status = 'external'") == 2);
    CHECK(stack.count("SELECT COUNT(*) FROM social_post_targets t JOIN social_posts p"
                      " ON p.id = t.post_id WHERE p.status = 'external' AND t.status ="
                      " 'published' AND t.url LIKE 'https://discord.com/channels/%'") == 2);
    CHECK(stack.count("SELECT COUNT(*) FROM events WHERE name = 'post.external.created'") == 2);

    const auto again = run_sync(stack, key);
    CHECK(again["imported"] == 0);
    CHECK(again["unchanged"] == 2);

    fake.post_discord_native(kChannel, "Launch day! (updated)", first["id"]);
    const auto edited = run_sync(stack, key, {{"account_ids", {bot_account}}});
    CHECK(edited["updated"] == 1);
    CHECK(edited["accounts"].size() == 1);
    CHECK(stack.count("SELECT COUNT(*) FROM social_posts WHERE status = 'external'"
                      " AND content = 'Launch day! (updated)'") == 1);
    CHECK(stack.count("SELECT COUNT(*) FROM events WHERE name = 'post.external.updated'") == 1);
    CHECK(stack.count("SELECT COUNT(*) FROM social_posts") == 3);
}

TEST_CASE_METHOD(FakePlatformStack<sync_stack>,
                 "a sync names only connected accounts of the caller's workspace") {
    const auto account = connect_discord_bot(stack, fake, key);
    const auto other = stack.create_tenant("other");
    const auto refused = stack.request("POST", "/v1/social/posts/sync-external",
                                       {{"account_ids", {account}}}, other.live_key);
    check_error_envelope(refused, 422, "VALIDATION_ERROR");
    CHECK(refused.json["error"]["details"]["fields"].contains("account_ids"));
    check_error_envelope(
        stack.request("POST", "/v1/social/posts/sync-external", {{"account_ids", "all"}}, key), 422,
        "VALIDATION_ERROR");
    CHECK(stack.count("SELECT COUNT(*) FROM jobs WHERE type = 'social.sync_external'") == 0);
}
