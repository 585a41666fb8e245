// The publish workers end to end against the fake platforms: publish now and at a scheduled time,
// posting caps and partial posts, many posts due at once each sent once, retries of sure
// non-acceptance, unknown outcomes never resent (also across kill -9), the sandbox, recycling.
#include "common/domain/social/post.hpp"
#include "tests/support/event_sink.hpp"
#include "tests/support/fake_platforms.hpp"
#include "tests/support/media_checks.hpp"
#include "tests/support/post_fixtures.hpp"
#include "tests/support/social_fixtures.hpp"
#include "tests/support/stack.hpp"
#include "tests/support/wait.hpp"

#include <catch2/catch.hpp>

#include <csignal>
#include <set>

using namespace squawk::testing;
namespace social = squawk::social;
namespace time_ = squawk::time;
using nlohmann::json;

namespace {

json sends(FakePlatforms& fake, const std::string& method) {
    return fake.calls(method);
}

const social::PostTarget& target_on(const social::Post& post, const std::string& platform) {
    for (const auto& t : post.targets)
        if (t.platform == platform) return t;
    FAIL("post has no " << platform << " target");
    throw std::logic_error("unreachable");
}

// `n` posts the account published `ago`, counted against `allowance` (TikTok's tiktok:video)
// or, left empty, against its platform's: the posting caps they use up.
void published_before(Stack& stack, const std::string& account_id, int n, std::chrono::minutes ago,
                      const std::string& allowance = "") {
    std::vector<social::NewPost> posts;
    for (int i = 0; i < n; ++i) {
        auto p = new_post(stack, stack.tenant().workspace_id, "earlier " + std::to_string(i),
                          {account_id}, time_::now() - ago);
        p.draft = true;
        posts.push_back(std::move(p));
    }
    const auto written = insert_posts(stack, posts);
    stack.db().run([&](squawk::db::Session& s) {
        for (const auto& p : written)
            s.execute(
                "UPDATE social_post_targets SET status = 'published', published_at = ?,"
                " external_id = ?, allowance = NULLIF(?, '') WHERE post_id = ?",
                {time_::format_mysql(time_::now() - ago), "earlier-" + std::to_string(p.id),
                 allowance, p.id});
    });
}

// Telegram's answer to a bot that sends too fast.
json too_many_requests(int retry_after_seconds) {
    const std::string after = std::to_string(retry_after_seconds);
    return {{"status", 429},
            {"body",
             {{"ok", false},
              {"error_code", 429},
              {"description", "Too Many Requests: retry after " + after},
              {"parameters", {{"retry_after", retry_after_seconds}}}}}};
}

// When the account's cooldown ends, in Unix milliseconds; 0 when it has none.
long long cooldown_end_ms(Stack& stack, const std::string& account_id) {
    return stack.db().run([&](squawk::db::Session& s) -> long long {
        const auto row = s.query_one(
            "SELECT cooldown_until FROM social_accounts WHERE public_id = ?", {account_id});
        const auto until = squawk::db::optional_time_column(*row, 0);
        return until ? time_::to_unix_ms(*until) : 0;
    });
}

}  // namespace

TEST_CASE_METHOD(
    PublishStack,
    "a post published now reaches Telegram and Discord once and ends published with urls",
    "[e2e][social][publish]") {
    hold_every_event(stack, stack.tenant().workspace_id);
    const auto telegram = connect_telegram_channel(stack, fake, key, -1001000000101LL);
    const auto discord = connect_discord_webhook(stack, fake, key, "823456789012345601");

    const auto post =
        insert_post(stack, new_post(stack, stack.tenant().workspace_id, "Hello from Squawk",
                                    {telegram, discord}, time_::now()));
    const auto done = wait_settled(stack, post.id);
    CHECK(done.status == social::PostStatus::published);
    REQUIRE(done.published_at);
    for (const auto& t : done.targets) {
        CHECK(t.status == social::TargetStatus::published);
        CHECK(t.external_id);
        CHECK(t.published_at);
        CHECK_FALSE(t.publish_stage);
    }
    CHECK(target_on(done, "telegram").url);
    CHECK(target_on(done, "discord").url);
    const auto telegram_sends = sends(fake, "sendMessage");
    REQUIRE(telegram_sends.size() == 1);
    CHECK(json::parse(telegram_sends[0]["body"].get<std::string>())["text"] == "Hello from Squawk");
    CHECK(sends(fake, "/webhooks/").size() == 2);  // the connect check and one execute

    const auto events = post_events(stack, post.id);
    REQUIRE(events.size() == 1);
    CHECK(events[0]["name"] == "post.published");
    CHECK(events[0]["data"]["status"] == "published");
    CHECK(events[0]["data"]["transcoded"] == json::array());
}

TEST_CASE_METHOD(PublishStack, "a scheduled post is sent at its time and not before",
                 "[e2e][social][publish]") {
    const auto telegram = connect_telegram_channel(stack, fake, key, -1001000000102LL);
    const auto at = time_::now() + std::chrono::milliseconds(2500);
    const auto post =
        insert_post(stack, new_post(stack, stack.tenant().workspace_id, "Later", {telegram}, at));
    CHECK(read_post(stack, post.id).targets[0].status == social::TargetStatus::scheduled);
    CHECK(holds_throughout([&] { return sends(fake, "sendMessage").empty(); },
                           std::chrono::milliseconds(1500)));

    const auto done = wait_settled(stack, post.id);
    CHECK(done.status == social::PostStatus::published);
    const auto calls = sends(fake, "sendMessage");
    REQUIRE(calls.size() == 1);
    CHECK(calls[0]["received_at_ms"].get<long long>() >= time_::to_unix_ms(at));
}

TEST_CASE_METHOD(
    PublishStack,
    "a capped account is refused with the limit and retry time while the others publish",
    "[e2e][social][publish]") {
    hold_every_event(stack, stack.tenant().workspace_id);
    const auto capped = connect_telegram_channel(stack, fake, key, -1001000000103LL);
    const auto free = connect_discord_webhook(stack, fake, key, "823456789012345603");
    published_before(stack, capped, 25, std::chrono::minutes(10));

    const auto post = insert_post(stack, new_post(stack, stack.tenant().workspace_id,
                                                  "One too many", {capped, free}, time_::now()));
    const auto done = wait_settled(stack, post.id);
    CHECK(done.status == social::PostStatus::partial);
    CHECK(target_on(done, "discord").status == social::TargetStatus::published);
    const auto& refused = target_on(done, "telegram");
    CHECK(refused.status == social::TargetStatus::failed);
    CHECK(refused.error["code"] == "POSTING_CAP_REACHED");
    CHECK(refused.error["detail"]["limit"] == "hourly");
    CHECK(refused.error["detail"]["allowed"] == 25);
    const auto retry_at =
        time_::parse_iso8601(refused.error["detail"]["retry_at"].get<std::string>());
    REQUIRE(retry_at);
    CHECK(*retry_at > time_::now() + std::chrono::minutes(45));
    CHECK(sends(fake, "sendMessage").empty());

    const auto events = post_events(stack, post.id);
    REQUIRE(events.size() == 1);
    CHECK(events[0]["name"] == "post.partial");
    const auto& detail = events[0]["data"]["error"]["detail"];
    REQUIRE(detail.size() == 1);
    CHECK(detail[0]["account_id"] == capped);
    CHECK(detail[0]["code"] == "POSTING_CAP_REACHED");
    CHECK(detail[0]["detail"]["limit"] == "hourly");
}

TEST_CASE_METHOD(PublishStack,
                 "the daily cap of a platform counts only that platform's sends of the account",
                 "[e2e][social][publish]") {
    hold_every_event(stack, stack.tenant().workspace_id);
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000104LL);
    // 50 a day for Telegram, spread so that the hourly cap is not what refuses.
    published_before(stack, account, 50, std::chrono::hours(2));
    const auto post = insert_post(
        stack, new_post(stack, stack.tenant().workspace_id, "51st", {account}, time_::now()));
    const auto done = wait_settled(stack, post.id);
    CHECK(done.status == social::PostStatus::failed);
    CHECK(done.targets[0].error["code"] == "POSTING_CAP_REACHED");
    CHECK(done.targets[0].error["detail"]["limit"] == "daily");
    CHECK(done.targets[0].error["detail"]["allowed"] == 50);
    CHECK(post_events(stack, post.id).at(0)["name"] == "post.failed");
}

TEST_CASE_METHOD(PublishStack,
                 "TikTok's 15 videos a day leave its 15 photo posts free: a photo post goes out "
                 "while a video post is capped",
                 "[e2e][social][publish]") {
    const auto image = fake.media_url("cap.jpg", "image/jpeg", 30'000);
    const auto video = fake.store_media_file("cap.mp4", "video/mp4", test_clip("mp4", 1));
    const auto account = connect_platform_account(stack, fake, key, "tiktok", 0, image, video);
    published_before(stack, account.id, 15, std::chrono::hours(3), "tiktok:video");

    const auto post_with = [&](const std::string& content, const std::string& media_url) {
        const auto created = stack.request("POST", "/v1/social/posts",
                                           {{"content", content},
                                            {"account_ids", json::array({account.id})},
                                            {"media_urls", json::array({media_url})}},
                                           key);
        REQUIRE(created.status == 201);
        return wait_settled(stack, created.json["data"]["id"].get<long long>());
    };
    const auto photos = post_with("Today's photo", image);
    CHECK(photos.status == social::PostStatus::published);
    const auto clip = post_with("Today's clip", video);
    REQUIRE(clip.status == social::PostStatus::failed);
    CHECK(clip.targets[0].error["code"] == "POSTING_CAP_REACHED");
    CHECK(clip.targets[0].error["detail"]["limit"] == "daily");
    CHECK(clip.targets[0].error["detail"]["allowed"] == 15);
}

TEST_CASE_METHOD(PublishStack, "1,000 posts sharing one timestamp are each published exactly once",
                 "[e2e][social][publish][slow]") {
    // 25 posts per account: every account stays within its hourly cap.
    std::vector<std::string> accounts;
    for (int i = 0; i < 40; ++i)
        accounts.push_back(connect_telegram_channel(stack, fake, key, -1001000001000LL - i));
    const auto at = time_::now() + std::chrono::seconds(4);
    std::vector<social::NewPost> posts;
    for (int i = 0; i < 1000; ++i)
        posts.push_back(new_post(stack, stack.tenant().workspace_id,
                                 "same second " + std::to_string(i), {accounts[i % 40]}, at));
    const auto written = insert_posts(stack, posts);
    for (const auto& p : written)
        CHECK(wait_settled(stack, p.id).status == social::PostStatus::published);

    const auto calls = sends(fake, "sendMessage");
    CHECK(calls.size() == 1000);
    std::set<std::string> texts;
    for (const auto& c : calls) texts.insert(json::parse(c["body"].get<std::string>())["text"]);
    CHECK(texts.size() == 1000);
    for (const auto& c : calls)
        CHECK(c["received_at_ms"].get<long long>() >= time_::to_unix_ms(at));
}

TEST_CASE_METHOD(
    PublishStack,
    "429 with retry_after and an answered 5xx are retried and the post is published once",
    "[e2e][social][publish]") {
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000105LL);
    fake.program("sendMessage", json::array({{{"status", 429},
                                              {"body",
                                               {{"ok", false},
                                                {"error_code", 429},
                                                {"description", "Too Many Requests: retry after 1"},
                                                {"parameters", {{"retry_after", 1}}}}}},
                                             {{"status", 502}, {"body", {{"ok", false}}}}}));
    const auto post = insert_post(
        stack, new_post(stack, stack.tenant().workspace_id, "Persist", {account}, time_::now()));
    const auto done = wait_settled(stack, post.id);
    CHECK(done.status == social::PostStatus::published);
    CHECK(sends(fake, "sendMessage").size() == 3);
    CHECK(attempts_once_completed(stack, *done.targets[0].job_id) == 3);
}

TEST_CASE_METHOD(PublishStack,
                 "a platform's 429 holds every post to the account until the cooldown it named "
                 "ends, and a target it still refuses at the last attempt fails as rate limited",
                 "[e2e][social][publish]") {
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000109LL);
    // 20 s: one second at the tests' time scale.
    fake.program("sendMessage", json::array({too_many_requests(20)}));
    const auto first = insert_post(
        stack, new_post(stack, stack.tenant().workspace_id, "First", {account}, time_::now()));
    REQUIRE(
        wait_until([&] { return cooldown_end_ms(stack, account) != 0; }, std::chrono::seconds(10)));
    const long long cooldown_end = cooldown_end_ms(stack, account);
    const auto second = insert_post(
        stack, new_post(stack, stack.tenant().workspace_id, "Second", {account}, time_::now()));
    CHECK(wait_settled(stack, first.id).status == social::PostStatus::published);
    CHECK(wait_settled(stack, second.id).status == social::PostStatus::published);
    CHECK(sends(fake, "sendMessage").size() == 3);
    const auto published = fake.publishes();
    REQUIRE(published.size() == 2);
    for (const auto& p : published) CHECK(p["received_at_ms"].get<long long>() >= cooldown_end);

    const auto busy = connect_telegram_channel(stack, fake, key, -1001000000110LL);
    fake.program("sendMessage",
                 json::array({too_many_requests(1), too_many_requests(1), too_many_requests(1),
                              too_many_requests(1), too_many_requests(1)}));
    const auto refused = insert_post(
        stack, new_post(stack, stack.tenant().workspace_id, "Refused", {busy}, time_::now()));
    const auto done = wait_settled(stack, refused.id);
    CHECK(done.status == social::PostStatus::failed);
    CHECK(done.targets[0].error["code"] == "PLATFORM_RATE_LIMITED");
    CHECK(done.targets[0].error["detail"]["reason"] == "Too Many Requests: retry after 1");
    CHECK(fake.publishes().size() == 2);
}

TEST_CASE_METHOD(PublishStack,
                 "a token the platform refuses at the send fails the target and marks the "
                 "account, whose next post is refused before anything is stored",
                 "[e2e][social][publish]") {
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000111LL);
    fake.program(
        "sendMessage",
        json::array(
            {{{"status", 401},
              {"body", {{"ok", false}, {"error_code", 401}, {"description", "Unauthorized"}}}}}));
    const auto post = insert_post(
        stack, new_post(stack, stack.tenant().workspace_id, "Revoked", {account}, time_::now()));
    const auto done = wait_settled(stack, post.id);
    CHECK(done.status == social::PostStatus::failed);
    CHECK(done.targets[0].error["code"] == "ACCOUNT_RECONNECT_REQUIRED");
    CHECK(done.targets[0].error["detail"]["http_status"] == 401);

    const auto accounts = stack.request("GET", "/v1/social/accounts", nullptr, key);
    CHECK(accounts.json["data"][0]["token_valid"] == false);
    CHECK(accounts.json["data"][0]["last_error"] == "Unauthorized");
    const auto next = stack.request(
        "POST", "/v1/social/posts",
        {{"content", "After the refusal"}, {"account_ids", json::array({account})}}, key);
    CHECK(next.status == 403);
    CHECK(next.json["error"]["code"] == "CONNECTION_SCOPE_MISSING");
    CHECK(stack.count("SELECT COUNT(*) FROM social_posts") == 1);
}

TEST_CASE_METHOD(
    PublishStack,
    "an answer arriving after the client timeout is never resent and the target fails with "
    "the unknown outcome",
    "[e2e][social][publish]") {
    hold_every_event(stack, stack.tenant().workspace_id);
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000106LL);
    fake.program("sendMessage", json::array({{{"delay_ms", 3000}}}));
    const auto post = insert_post(
        stack, new_post(stack, stack.tenant().workspace_id, "Slow", {account}, time_::now()));
    const auto done = wait_settled(stack, post.id);
    CHECK(done.status == social::PostStatus::failed);
    CHECK(done.targets[0].error["code"] == "PUBLISH_OUTCOME_UNKNOWN");
    CHECK(done.targets[0].error["message"].get<std::string>().starts_with(
        "publish outcome unknown: "));
    CHECK(holds_throughout([&] { return sends(fake, "sendMessage").size() == 1; },
                           std::chrono::seconds(2)));
    const auto events = post_events(stack, post.id);
    REQUIRE(events.size() == 1);
    CHECK(events[0]["name"] == "post.failed");
    CHECK(events[0]["data"]["error"]["detail"][0]["code"] == "PUBLISH_OUTCOME_UNKNOWN");
}

TEST_CASE_METHOD(PublishStack, "kill -9 of the worker mid-publish never sends a message twice",
                 "[e2e][social][publish][crash]") {
    const auto telegram = connect_telegram_channel(stack, fake, key, -1001000000107LL);
    const auto discord = connect_discord_channel(stack, fake, key, "823456789012345607");
    fake.program("sendMessage", json::array({{{"delay_ms", 1500}}}));
    fake.program("/messages", json::array({{{"delay_ms", 1500}}}));

    const auto telegram_post = insert_post(
        stack, new_post(stack, stack.tenant().workspace_id, "Crash T", {telegram}, time_::now()));
    const auto discord_post = insert_post(
        stack, new_post(stack, stack.tenant().workspace_id, "Crash D", {discord}, time_::now()));
    REQUIRE(Stack::wait_until(
        [&] {
            return sends(fake, "sendMessage").size() == 1 && sends(fake, "/messages").size() == 1;
        },
        std::chrono::seconds(10)));
    stack.kill(Process::worker, SIGKILL);
    stack.wait_exit(Process::worker, std::chrono::seconds(5));
    stack.start(Process::worker);

    // Telegram cannot be asked whether it got the message: the target fails, unsent again.
    const auto t = wait_settled(stack, telegram_post.id);
    CHECK(t.status == social::PostStatus::failed);
    CHECK(t.targets[0].error["code"] == "PUBLISH_OUTCOME_UNKNOWN");
    CHECK(sends(fake, "sendMessage").size() == 1);

    // Discord deduplicates on the nonce: the repeat answers the message created the first time.
    const auto d = wait_settled(stack, discord_post.id);
    CHECK(d.status == social::PostStatus::published);
    const auto posts = sends(fake, "/messages");
    REQUIRE(posts.size() == 2);
    const auto first = json::parse(posts[0]["body"].get<std::string>());
    const auto second = json::parse(posts[1]["body"].get<std::string>());
    CHECK(first["nonce"] == second["nonce"]);
    CHECK(first["enforce_nonce"] == true);
}

TEST_CASE_METHOD(
    PublishStack,
    "a test-key post runs every check, calls no platform and is published in the sandbox",
    "[e2e][social][publish]") {
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000108LL);
    auto sandboxed =
        new_post(stack, stack.tenant().workspace_id, "Sandboxed", {account}, time_::now());
    sandboxed.is_test = true;
    auto too_long = new_post(stack, stack.tenant().workspace_id, std::string(4097, 'x'), {account},
                             time_::now());
    too_long.is_test = true;
    const auto written = insert_posts(stack, {sandboxed, too_long});

    const auto ok = wait_settled(stack, written[0].id);
    CHECK(ok.status == social::PostStatus::published);
    REQUIRE(ok.targets[0].url);
    CHECK(ok.targets[0].url->find("sandbox") != std::string::npos);
    const auto refused = wait_settled(stack, written[1].id);
    CHECK(refused.status == social::PostStatus::failed);
    CHECK(refused.targets[0].error["code"] == "CONTENT_TOO_LONG");
    CHECK(sends(fake, "sendMessage").empty());
}

TEST_CASE_METHOD(
    PublishStack,
    "a recycling chain publishes each repeat up to max_repeats with lineage and events",
    "[e2e][social][publish]") {
    hold_every_event(stack, stack.tenant().workspace_id);
    const auto account = connect_telegram_channel(stack, fake, key, -1001000000109LL);
    // Hourly repeats of a post due three hours ago: every repeat is due at once.
    auto first = new_post(stack, stack.tenant().workspace_id, "Evergreen", {account},
                          time_::now() - std::chrono::hours(3));
    first.recycle = social::RecycleRule{1, 2, std::nullopt};
    const auto original = insert_post(stack, first);

    REQUIRE(Stack::wait_until(
        [&] {
            return stack.count("SELECT COUNT(*) FROM social_posts WHERE status = 'published'") == 3;
        },
        std::chrono::seconds(30)));
    CHECK(holds_throughout(
        [&] {
            return stack.count("SELECT COUNT(*) FROM social_posts") == 3 &&
                   sends(fake, "sendMessage").size() == 3;
        },
        std::chrono::seconds(1)));
    const auto chain = stack.db().run([&](squawk::db::Session& s) {
        return s.query(
            "SELECT id, recycle_count, recycle_parent_id, scheduled_time"
            " FROM social_posts ORDER BY id");
    });
    REQUIRE(chain.size() == 3);
    CHECK(chain[0].integer(0) == original.id);
    CHECK(chain[0].is_null(2));
    for (int i = 1; i < 3; ++i) {
        CHECK(chain[i].integer(1) == i);
        CHECK(chain[i].integer(2) == original.id);
    }
    CHECK(stack.count("SELECT COUNT(*) FROM events WHERE name = 'post.recycled'") == 2);
    CHECK(stack.count("SELECT COUNT(*) FROM events WHERE name = 'post.published'") == 3);
}

TEST_CASE_METHOD(PublishStack,
                 "a target's publish_stage moves from processing_media to publishing and is "
                 "cleared once published",
                 "[e2e][social][publish]") {
    const auto telegram = connect_telegram_channel(stack, fake, key, -1001000000131LL);
    // Each stage's call answers late, so that a reader polling the post sees the stage it is in.
    fake.program("/media/stage.png", json::array({{{"delay_ms", 1200}}}));
    fake.program("sendPhoto", json::array({{{"delay_ms", 1200}}}));
    const auto created = stack.request(
        "POST", "/v1/social/posts",
        {{"content", "Staged"},
         {"account_ids", json::array({telegram})},
         {"media_urls", json::array({fake.media_url("stage.png", "image/png", 20'000)})}},
        key);
    REQUIRE(created.status == 201);
    const auto path =
        "/v1/social/posts/" + std::to_string(created.json["data"]["id"].get<long long>());

    std::vector<std::string> stages;
    json last;
    wait_until(
        [&] {
            last = stack.request("GET", path, nullptr, key).json["data"];
            const auto& stage = last["targets"][0]["publish_stage"];
            if (stage.is_string() && (stages.empty() || stages.back() != stage.get<std::string>()))
                stages.push_back(stage.get<std::string>());
            return last["status"] == "published";
        },
        std::chrono::seconds(20), std::chrono::milliseconds(200));
    REQUIRE(last["status"] == "published");
    const auto media = std::find(stages.begin(), stages.end(), "processing_media");
    REQUIRE(media != stages.end());
    CHECK(std::find(media, stages.end(), "publishing") != stages.end());
    CHECK(last["targets"][0]["publish_stage"].is_null());
    CHECK(last["publish_stage"].is_null());
}
