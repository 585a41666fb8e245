// Editing and unpublishing published posts end to end against the fake platforms: the messages
// change or disappear on Telegram and Discord, the post follows, retries edit each message once,
// every check runs before a job is accepted, and test keys call no platform.
#include "common/core/db/sql_text.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/fake_platforms.hpp"
#include "tests/support/post_fixtures.hpp"
#include "tests/support/social_fixtures.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <csignal>

using namespace squawk;
using namespace squawk::testing;
using nlohmann::json;

namespace {

constexpr long long kChat = -1001000000901LL;
constexpr const char* kHookChannel = "823456789012345901";
constexpr const char* kBotChannel = "823456789012345902";

StackOptions change_stack(const FakePlatforms& fake) {
    StackOptions options;
    options.worker_arguments = {"--pools", "publish"};
    options.extra_config = fake.config();
    return options;
}

// A post sent now through the API to `accounts`, once its publish has settled.
long long published_post(Stack& stack, const std::string& key, const std::string& content,
                         const std::vector<std::string>& accounts) {
    const auto r = stack.request("POST", "/v1/social/posts",
                                 {{"content", content}, {"account_ids", accounts}}, key);
    check_success_envelope(r, 201);
    const long long id = r.json["data"]["post_id"].get<long long>();
    const auto settled = wait_settled(stack, id);
    REQUIRE(settled.status == social::PostStatus::published);
    return id;
}

// Starts a change (edit or unpublish) and waits for its job; returns the job.
json run_change(Stack& stack, const std::string& key, const std::string& method,
                const std::string& path, const json& body = nullptr) {
    const auto r = stack.request(method, path, body, key);
    check_success_envelope(r, 202);
    const auto job = wait_for_terminal_job(stack, key, r.json["data"]["job_id"]);
    REQUIRE(job);
    return *job;
}

// A workspace with a Telegram channel and a Discord webhook connected through a live or a test key.
template <bool kTestKey>
struct Connected {
    FakePlatforms fake;
    Stack stack{change_stack(fake)};
    const std::string key = kTestKey ? stack.tenant().test_key : stack.tenant().live_key;
    const std::string telegram = connect_telegram_channel(stack, fake, key, kChat);
    const std::string discord = connect_discord_webhook(stack, fake, key, kHookChannel);

    // A post sent now to both, once its publish has settled.
    long long publish(const std::string& content) {
        return published_post(stack, key, content, {telegram, discord});
    }
};
using LiveChannels = Connected<false>;
using SandboxChannels = Connected<true>;

json post_of(Stack& stack, const std::string& key, long long id) {
    const auto r = stack.request("GET", "/v1/social/posts/" + std::to_string(id), nullptr, key);
    check_success_envelope(r, 200);
    return r.json["data"];
}

json target_on(const json& post, const std::string& platform) {
    for (const auto& t : post["targets"])
        if (t["platform"] == platform) return t;
    FAIL("no " << platform << " target");
    return nullptr;
}

json outcome_on(const json& result, const std::string& platform) {
    for (const auto& t : result["targets"])
        if (t["platform"] == platform) return t;
    FAIL("no " << platform << " outcome");
    return nullptr;
}

json discord_message(FakePlatforms& fake, const std::string& channel, const std::string& id) {
    for (const auto& m : fake.messages()["discord"].value(channel, json::array()))
        if (m["id"] == id) return m;
    return nullptr;
}

json telegram_message(FakePlatforms& fake, const std::string& id) {
    for (const auto& m : fake.messages()["telegram"].value(std::to_string(kChat), json::array()))
        if (std::to_string(m["message_id"].get<long long>()) == id) return m;
    return nullptr;
}

// A post row written as published on `account` with message `external_id`, for checks that
// need no worker; `status` may make it external.
long long stored_post(Stack& stack, long long workspace_id, const std::string& account,
                      const std::string& platform, const std::string& status,
                      const std::string& external_id) {
    long long post_id = 0;
    stack.db().run([&](db::Session& s) {
        const auto now = db::time_param(time::now());
        post_id = s.insert(
            "INSERT INTO social_posts (workspace_id, status, content, content_hash, created_at,"
            " updated_at, published_at) VALUES (?, ?, 'As published', 'h', ?, ?, ?)",
            {workspace_id, status, now, now, now});
        s.execute(
            "INSERT INTO social_post_targets (post_id, workspace_id, account_id, platform, status,"
            " scheduled_time, external_id, published_at, created_at, updated_at)"
            " SELECT ?, workspace_id, id, ?, 'published', ?, ?, ?, ?, ? FROM social_accounts"
            " WHERE public_id = ?",
            {post_id, platform, now, external_id, now, now, now, account});
    });
    return post_id;
}

}  // namespace

TEST_CASE_METHOD(
    LiveChannels,
    "editing a published post changes its Telegram and Discord messages, then the post's "
    "content and each target's edited_at",
    "[e2e][social][changes]") {
    const auto id = publish("Doors open at nine");
    const auto before = post_of(stack, key, id);

    const auto job =
        run_change(stack, key, "POST", "/v1/social/posts/" + std::to_string(id) + "/edit",
                   {{"content", "Doors open at ten"}, {"link", "https://example.com/e"}});
    REQUIRE(job["status"] == "completed");
    CHECK(job["type"] == "social.edit");
    CHECK(job["result"]["edited"] == 2);
    CHECK(outcome_on(job["result"], "telegram")["status"] == "done");
    CHECK(outcome_on(job["result"], "discord")["status"] == "done");

    const auto after = post_of(stack, key, id);
    CHECK(after["content"] == "Doors open at ten");
    CHECK(after["link"] == "https://example.com/e");
    CHECK(after["status"] == "published");
    CHECK(after["updated_at"] != before["updated_at"]);
    const auto tg = target_on(after, "telegram");
    const auto dc = target_on(after, "discord");
    CHECK(tg["edited_at"].is_string());
    CHECK(dc["edited_at"].is_string());
    const auto tg_message = telegram_message(fake, tg["platform_post_id"]);
    REQUIRE(tg_message.is_object());
    CHECK(tg_message["text"] == "Doors open at ten\nhttps://example.com/e");
    CHECK(tg_message.contains("edit_date"));
    const auto dc_message = discord_message(fake, kHookChannel, dc["platform_post_id"]);
    REQUIRE(dc_message.is_object());
    CHECK(dc_message["content"] == "Doors open at ten\nhttps://example.com/e");
    CHECK_FALSE(dc_message["edited_timestamp"].is_null());
    CHECK(fake.calls("/editMessageText").size() == 1);
    CHECK(fake.calls("/messages/").size() == 1);
}

TEST_CASE_METHOD(LiveChannels,
                 "an edit the platform answers 429 is retried and each message is edited once",
                 "[e2e][social][changes]") {
    const auto id = publish("Sale starts Monday");
    fake.program("/editMessageText", {{{"status", 429},
                                       {"body",
                                        {{"ok", false},
                                         {"error_code", 429},
                                         {"description", "Too Many Requests: retry after 1"},
                                         {"parameters", {{"retry_after", 1}}}}}}});

    const auto job =
        run_change(stack, key, "POST", "/v1/social/posts/" + std::to_string(id) + "/edit",
                   {{"content", "Sale starts Tuesday"}});
    REQUIRE(job["status"] == "completed");
    CHECK(job["attempts"] == 2);
    CHECK(fake.calls("/editMessageText").size() == 2);
    // Discord took the edit on the first attempt; the retry leaves it alone.
    CHECK(fake.calls("/messages/").size() == 1);
    CHECK(outcome_on(job["result"], "discord")["status"] == "done");
    const auto after = post_of(stack, key, id);
    CHECK(after["content"] == "Sale starts Tuesday");
    CHECK(telegram_message(fake, target_on(after, "telegram")["platform_post_id"])["text"] ==
          "Sale starts Tuesday");
}

TEST_CASE_METHOD(
    LiveChannels,
    "kill -9 of the worker mid-edit: the rerun skips the message already edited and repeats "
    "only the one whose outcome is unknown",
    "[e2e][social][changes][crash]") {
    const auto id = publish("Before the crash");
    // Discord applies the edit, then answers late: the worker dies not knowing it was taken.
    fake.program("/messages/", json::array({{{"delay_ms", 3000}}}));

    const auto r = stack.request("POST", "/v1/social/posts/" + std::to_string(id) + "/edit",
                                 {{"content", "After the crash"}}, key);
    check_success_envelope(r, 202);
    REQUIRE(Stack::wait_until([&] { return fake.calls("/messages/").size() == 1; },
                              std::chrono::seconds(10)));
    // Telegram's target comes first and was edited and recorded before Discord was called.
    REQUIRE(fake.calls("/editMessageText").size() == 1);
    stack.kill(Process::worker, SIGKILL);
    stack.wait_exit(Process::worker, std::chrono::seconds(5));
    stack.start(Process::worker);

    const auto job = wait_for_terminal_job(stack, key, r.json["data"]["job_id"]);
    REQUIRE(job);
    REQUIRE((*job)["status"] == "completed");
    CHECK(fake.calls("/editMessageText").size() == 1);
    CHECK(fake.calls("/messages/").size() == 2);
    const auto after = post_of(stack, key, id);
    CHECK(after["content"] == "After the crash");
    CHECK(discord_message(fake, kHookChannel,
                          target_on(after, "discord")["platform_post_id"])["content"] ==
          "After the crash");
    CHECK(telegram_message(fake, target_on(after, "telegram")["platform_post_id"])["text"] ==
          "After the crash");
}

TEST_CASE_METHOD(
    SocialApi,
    "an edit is refused before any job: too long for Telegram, empty, not published, "
    "external, another workspace's, a platform that cannot edit, a change already running",
    "[e2e][social][changes]") {
    const long long ws = stack.tenant().workspace_id;
    const auto telegram = connect_telegram_channel(stack, fake, key, kChat);
    const auto published = stored_post(stack, ws, telegram, "telegram", "published", "4101");
    const auto path = "/v1/social/posts/" + std::to_string(published) + "/edit";

    const auto too_long = stack.request("POST", path, {{"content", std::string(4097, 'a')}}, key);
    check_error_envelope(too_long, 422, "VALIDATION_ERROR");
    CHECK(too_long.json["error"]["details"]["fields"]["content"].get<std::string>().find(
              "telegram") != std::string::npos);
    check_error_envelope(stack.request("POST", path, {{"content", ""}}, key), 422,
                         "VALIDATION_ERROR");
    check_error_envelope(stack.request("POST", path, json::object(), key), 422, "VALIDATION_ERROR");
    check_error_envelope(
        stack.request("POST", path, {{"content", "ok"}, {"link", "ftp://example.com"}}, key), 422,
        "VALIDATION_ERROR");
    check_error_envelope(stack.request("POST", path, {{"content", "ok"}, {"extra", 1}}, key), 422,
                         "VALIDATION_ERROR");

    const auto scheduled = stack.request(
        "POST", "/v1/social/posts/schedule",
        {{"content", "Later"}, {"account_ids", {telegram}}, {"scheduled_time", hours_from_now(5)}},
        key);
    check_success_envelope(scheduled, 201);
    const auto not_yet = stack.request(
        "POST",
        "/v1/social/posts/" + std::to_string(scheduled.json["data"]["post_id"].get<long long>()) +
            "/edit",
        {{"content", "x"}}, key);
    check_error_envelope(not_yet, 409, "CONFLICT");
    CHECK(not_yet.json["error"]["message"].get<std::string>().find("scheduled") !=
          std::string::npos);

    const auto external = stored_post(stack, ws, telegram, "telegram", "external", "4102");
    const auto imported = stack.request(
        "POST", "/v1/social/posts/" + std::to_string(external) + "/edit", {{"content", "x"}}, key);
    check_error_envelope(imported, 409, "CONFLICT");
    CHECK(imported.json["error"]["message"].get<std::string>().find("outside Squawk") !=
          std::string::npos);

    const auto other = stack.create_tenant("other");
    check_not_found(stack.request("POST", path, {{"content", "x"}}, other.live_key));
    check_not_found(stack.request("DELETE", "/v1/social/posts/" + std::to_string(published),
                                  nullptr, other.live_key));

    fake.add_whatsapp_phone({{"id", "1098765432101"},
                             {"waba_id", "2098765432101"},
                             {"display_phone_number", "+1 555 0101"},
                             {"verified_name", "Squawk"}},
                            {"EAAwhatsapptoken0101"});
    const auto wa = stack.request("POST", "/v1/social/connect/whatsapp",
                                  {{"waba_id", "2098765432101"},
                                   {"phone_number_id", "1098765432101"},
                                   {"access_token", "EAAwhatsapptoken0101"}},
                                  key);
    check_success_envelope(wa, 201);
    const auto on_whatsapp = stored_post(stack, ws, wa.json["data"]["id"].get<std::string>(),
                                         "whatsapp", "published", "wamid.1");
    const auto unsupported =
        stack.request("POST", "/v1/social/posts/" + std::to_string(on_whatsapp) + "/edit",
                      {{"content", "x"}}, key);
    check_error_envelope(unsupported, 409, "CONFLICT");
    CHECK(unsupported.json["error"]["message"].get<std::string>().find("whatsapp") !=
          std::string::npos);
    check_error_envelope(
        stack.request("DELETE", "/v1/social/posts/" + std::to_string(on_whatsapp), nullptr, key),
        409, "CONFLICT");
    CHECK(stack.count("SELECT COUNT(*) FROM jobs WHERE type IN ('social.edit',"
                      " 'social.unpublish')") == 0);

    // No worker runs here: the accepted edit stays in flight, so the next change must wait.
    const auto first = stack.request("POST", path, {{"content", "First edit"}}, key);
    check_success_envelope(first, 202);
    CHECK(first.json["data"]["type"] == "social.edit");
    const auto second = stack.request("POST", path, {{"content", "Second edit"}}, key);
    check_error_envelope(second, 409, "CONFLICT");
    CHECK(second.json["error"]["details"]["job_id"] == first.json["data"]["job_id"]);
    check_error_envelope(
        stack.request("DELETE", "/v1/social/posts/" + std::to_string(published), nullptr, key), 409,
        "CONFLICT");
    CHECK(stack.count("SELECT COUNT(*) FROM jobs WHERE type IN ('social.edit',"
                      " 'social.unpublish')") == 1);
    CHECK(post_of(stack, key, published)["content"] == "As published");
}

TEST_CASE_METHOD(
    FakePlatformStack<change_stack>,
    "unpublishing deletes the messages on Telegram and a Discord bot channel and the post "
    "lists as unpublished",
    "[e2e][social][changes]") {
    const auto telegram = connect_telegram_channel(stack, fake, key, kChat);
    const auto discord = connect_discord_channel(stack, fake, key, kBotChannel);
    const auto id = published_post(stack, key, "Flash sale", {telegram, discord});
    const auto before = post_of(stack, key, id);
    REQUIRE(telegram_message(fake, target_on(before, "telegram")["platform_post_id"]).is_object());

    const auto job = run_change(stack, key, "DELETE", "/v1/social/posts/" + std::to_string(id));
    REQUIRE(job["status"] == "completed");
    CHECK(job["type"] == "social.unpublish");
    CHECK(job["result"]["deleted"] == 2);
    CHECK(job["result"]["status"] == "unpublished");
    CHECK(fake.calls("/deleteMessage").size() == 1);
    CHECK(fake.calls("/channels/" + std::string(kBotChannel) + "/messages/").size() == 1);
    CHECK(telegram_message(fake, target_on(before, "telegram")["platform_post_id"]).is_null());
    CHECK(discord_message(fake, kBotChannel, target_on(before, "discord")["platform_post_id"])
              .is_null());

    const auto after = post_of(stack, key, id);
    CHECK(after["status"] == "unpublished");
    for (const auto& t : after["targets"]) {
        CHECK(t["status"] == "unpublished");
        CHECK(t["unpublished_at"].is_string());
    }
    const auto listed = stack.request("GET", "/v1/social/posts?status=unpublished", nullptr, key);
    check_success_envelope(listed, 200);
    REQUIRE(listed.json["data"].size() == 1);
    CHECK(listed.json["data"][0]["id"] == id);
    // Unpublished is final: neither an edit nor another delete applies.
    check_error_envelope(stack.request("POST", "/v1/social/posts/" + std::to_string(id) + "/edit",
                                       {{"content", "again"}}, key),
                         409, "CONFLICT");
    check_error_envelope(
        stack.request("DELETE", "/v1/social/posts/" + std::to_string(id), nullptr, key), 409,
        "CONFLICT");
}

TEST_CASE_METHOD(
    LiveChannels,
    "a message already deleted on the platform counts as deleted and a refused deletion leaves "
    "that target published with the error in the job result",
    "[e2e][social][changes]") {
    const auto gone = publish("Gone already");
    fake.program("/deleteMessage",
                 {{{"status", 400},
                   {"body",
                    {{"ok", false},
                     {"error_code", 400},
                     {"description", "Bad Request: message to delete not found"}}}}});
    fake.program("/messages/",
                 {{{"status", 404}, {"body", {{"message", "Unknown Message"}, {"code", 10008}}}}});
    const auto cleared =
        run_change(stack, key, "DELETE", "/v1/social/posts/" + std::to_string(gone));
    REQUIRE(cleared["status"] == "completed");
    CHECK(cleared["result"]["deleted"] == 2);
    CHECK(post_of(stack, key, gone)["status"] == "unpublished");

    const auto old = publish("Too old to delete");
    fake.program("/deleteMessage",
                 {{{"status", 400},
                   {"body",
                    {{"ok", false},
                     {"error_code", 400},
                     {"description", "Bad Request: message can't be deleted for everyone"}}}}});
    const auto job = run_change(stack, key, "DELETE", "/v1/social/posts/" + std::to_string(old));
    REQUIRE(job["status"] == "completed");
    CHECK(job["result"]["deleted"] == 1);
    CHECK(job["result"]["failed"] == 1);
    const auto refused = outcome_on(job["result"], "telegram");
    CHECK(refused["status"] == "failed");
    CHECK(refused["error"]["code"] == "PLATFORM_DELETE_FAILED");
    CHECK(refused["error"]["detail"]["reason"] ==
          "Bad Request: message can't be deleted for everyone");
    CHECK(outcome_on(job["result"], "discord")["status"] == "done");
    const auto after = post_of(stack, key, old);
    CHECK(after["status"] == "published");
    CHECK(target_on(after, "telegram")["status"] == "published");
    CHECK(target_on(after, "discord")["status"] == "unpublished");
    CHECK(telegram_message(fake, target_on(after, "telegram")["platform_post_id"]).is_object());
}

TEST_CASE_METHOD(SandboxChannels,
                 "a test key edits and unpublishes its sandbox post without calling any platform",
                 "[e2e][social][changes]") {
    const auto id = publish("Sandbox hello");
    fake.clear_calls();

    const auto too_long = stack.request("POST", "/v1/social/posts/" + std::to_string(id) + "/edit",
                                        {{"content", std::string(2001, 'b')}}, key);
    check_error_envelope(too_long, 422, "VALIDATION_ERROR");
    const auto edit =
        run_change(stack, key, "POST", "/v1/social/posts/" + std::to_string(id) + "/edit",
                   {{"content", "Sandbox bye"}});
    REQUIRE(edit["status"] == "completed");
    CHECK(edit["result"]["sandbox"] == true);
    CHECK(post_of(stack, key, id)["content"] == "Sandbox bye");
    const auto removed = run_change(stack, key, "DELETE", "/v1/social/posts/" + std::to_string(id));
    REQUIRE(removed["status"] == "completed");
    CHECK(post_of(stack, key, id)["status"] == "unpublished");
    CHECK(fake.calls().empty());
}

TEST_CASE_METHOD(
    FakePlatformStack<change_stack>,
    "a test key's edit and unpublish of a live post run every check and change nothing",
    "[e2e][social][changes]") {
    const auto& live = key;
    const auto& test = stack.tenant().test_key;
    const auto telegram = connect_telegram_channel(stack, fake, live, kChat);
    const auto id = published_post(stack, live, "Live words", {telegram});
    fake.clear_calls();

    const auto edit =
        run_change(stack, test, "POST", "/v1/social/posts/" + std::to_string(id) + "/edit",
                   {{"content", "Test words"}});
    REQUIRE(edit["status"] == "completed");
    CHECK(edit["result"]["sandbox"] == true);
    CHECK(outcome_on(edit["result"], "telegram")["status"] == "checked");
    CHECK(edit["result"]["edited"] == 0);
    const auto removed =
        run_change(stack, test, "DELETE", "/v1/social/posts/" + std::to_string(id));
    REQUIRE(removed["status"] == "completed");
    const auto after = post_of(stack, live, id);
    CHECK(after["content"] == "Live words");
    CHECK(after["status"] == "published");
    CHECK(target_on(after, "telegram")["status"] == "published");
    CHECK(fake.calls().empty());
}
