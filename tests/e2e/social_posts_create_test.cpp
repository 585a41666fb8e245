// Creating and scheduling social posts end to end: targets and publish jobs per account, the
// post.scheduled event, per-field refusals that store nothing, the duplicate guard, idempotent
// replays by X-Request-Id and X-Idempotency-Key, and bulk batches (JSON and CSV) that are all or
// nothing. The stack runs without workers: these tests stop at the queued publish jobs.
#include "common/core/time/clock.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/concurrent_requests.hpp"
#include "tests/support/event_sink.hpp"
#include "tests/support/fake_platforms.hpp"
#include "tests/support/social_fixtures.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;
using nlohmann::json;

namespace {

long long posts_in(Stack& stack) {
    return stack.count("SELECT COUNT(*) FROM social_posts");
}

}  // namespace

TEST_CASE_METHOD(SocialApi,
                 "publishing now makes one queued target and publish job per connected account",
                 "[e2e][social][posts]") {
    connect_telegram_channel(stack, fake, key, -1001000000101LL);
    connect_telegram_channel(stack, fake, key, -1001000000102LL);
    const auto discord = connect_discord_webhook(stack, fake, key, "123456789012345601");

    const auto r = stack.request("POST", "/v1/social/posts",
                                 {{"content", "Fresh bread at nine."},
                                  {"platforms", json::array({"telegram"})},
                                  {"account_ids", json::array({discord})}},
                                 key);
    check_success_envelope(r, 201);
    const auto& post = r.json["data"];
    CHECK(post["post_id"] == post["id"]);
    CHECK(post["status"] == "processing");
    CHECK(post["idempotent_replay"] == false);
    CHECK(post["is_test"] == false);
    CHECK(post["platforms"] == json({"telegram", "discord"}));
    REQUIRE(post["targets"].size() == 3);
    for (const auto& t : post["targets"]) CHECK(t["status"] == "queued");
    CHECK(stack.count("SELECT COUNT(*) FROM jobs WHERE type = 'social.publish' AND pool = 'publish'"
                      " AND status = 'queued'") == 3);
    CHECK(stack.count("SELECT COUNT(*) FROM social_post_targets t JOIN jobs j ON j.id = t.job_id"
                      " WHERE t.post_id = ?",
                      {post["id"].get<long long>()}) == 3);

    const auto test =
        stack.request("POST", "/v1/social/posts",
                      {{"content", "Sandbox post."}, {"platforms", json::array({"discord"})}},
                      stack.tenant().test_key);
    check_success_envelope(test, 201);
    CHECK(test.json["data"]["is_test"] == true);
    CHECK(stack.count("SELECT COUNT(*) FROM jobs WHERE is_test = 1") == 1);
}

TEST_CASE_METHOD(
    SocialApi,
    "scheduling holds each target's job until its platform's time and emits post.scheduled",
    "[e2e][social][posts]") {
    hold_every_event(stack, stack.tenant().workspace_id);
    connect_telegram_channel(stack, fake, key, -1001000000111LL);
    connect_discord_webhook(stack, fake, key, "123456789012345611");
    const auto later = hours_from_now(5);
    const auto r = stack.request("POST", "/v1/social/posts/schedule",
                                 {{"content", "Tomorrow's menu."},
                                  {"platforms", json::array({"telegram", "discord"})},
                                  {"scheduled_time", hours_from_now(2)},
                                  {"platform_options", {{"discord", {{"scheduled_time", later}}}}}},
                                 key);
    check_success_envelope(r, 201);
    const auto& post = r.json["data"];
    CHECK(post["status"] == "scheduled");
    for (const auto& t : post["targets"]) {
        CHECK(t["status"] == "scheduled");
        if (t["platform"] == "discord") CHECK(t["scheduled_time"] == later);
    }
    CHECK(stack.count("SELECT COUNT(*) FROM jobs WHERE status = 'scheduled' AND run_after > ?",
                      {squawk::time::format_mysql(squawk::time::now())}) == 2);
    CHECK(stack.count("SELECT COUNT(*) FROM events WHERE name = 'post.scheduled'") == 1);

    const auto draft = stack.request("POST", "/v1/social/posts/schedule",
                                     {{"content", "Idea for later."},
                                      {"platforms", json::array({"telegram"})},
                                      {"scheduled_time", hours_from_now(3)},
                                      {"draft", true}},
                                     key);
    check_success_envelope(draft, 201);
    CHECK(draft.json["data"]["status"] == "draft");
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 2);
}

TEST_CASE_METHOD(SocialApi, "every bad field is refused with 422 naming it and nothing is stored",
                 "[e2e][social][posts]") {
    connect_telegram_channel(stack, fake, key, -1001000000121LL);
    const json base = {{"content", "Hello."}, {"platforms", json::array({"telegram"})}};
    auto with = [&](const json& patch) {
        json body = base;
        body.merge_patch(patch);
        return body;
    };
    const std::string past =
        squawk::time::format_iso8601(squawk::time::now() - std::chrono::hours(1));
    std::vector<std::string> ten_images;
    for (int i = 0; i < 11; ++i)
        ten_images.push_back("https://img.example/" + std::to_string(i) + ".png");
    struct Case {
        const char* route;
        json body;
        const char* field;
    };
    const std::vector<Case> cases = {
        {"/v1/social/posts", json{{"platforms", json::array({"telegram"})}}, "content"},
        {"/v1/social/posts", with({{"content", "   "}}), "content"},
        {"/v1/social/posts", with({{"content", std::string(4097, 'a')}}), "content"},
        {"/v1/social/posts", json{{"content", "x"}}, "platforms"},
        {"/v1/social/posts", with({{"platforms", json::array({"myspace"})}}), "platforms"},
        {"/v1/social/posts", with({{"platforms", json::array({"discord"})}}), "platforms"},
        {"/v1/social/posts", with({{"platforms", "telegram"}}), "platforms"},
        {"/v1/social/posts", with({{"account_ids", json::array({"acc_nope"})}}), "account_ids"},
        {"/v1/social/posts", with({{"link", "ftp://example.com/file"}}), "link"},
        {"/v1/social/posts", with({{"link", "https://"}}), "link"},
        {"/v1/social/posts", with({{"link", "https://example.com/" + std::string(2048, 'a')}}),
         "link"},
        {"/v1/social/posts", with({{"media_urls", json::array({"ftp://img.example/a.png"})}}),
         "media_urls"},
        {"/v1/social/posts", with({{"media_urls", ten_images}}), "media_urls"},
        {"/v1/social/posts",
         with({{"content", std::string(1025, 'a')},
               {"media_urls", json::array({"https://img.example/a.png"})}}),
         "content"},
        {"/v1/social/posts", with({{"platform_options", "soon"}}), "platform_options"},
        {"/v1/social/posts",
         with({{"platform_options", {{"telegram", {{"scheduled_time", "tomorrow"}}}}}}),
         "platform_options.telegram.scheduled_time"},
        {"/v1/social/posts",
         with({{"platform_options", {{"telegram", {{"scheduled_time", past}}}}}}),
         "platform_options.telegram.scheduled_time"},
        {"/v1/social/posts", with({{"platform_options", {{"telegram", {{"colour", "red"}}}}}}),
         "platform_options.telegram.colour"},
        {"/v1/social/posts", with({{"platform_options", {{"discord", json::object()}}}}),
         "platform_options.discord"},
        {"/v1/social/posts", with({{"scheduled_time", hours_from_now(1)}}), "scheduled_time"},
        {"/v1/social/posts", with({{"first_comments", "first!"}}), "first_comments"},
        {"/v1/social/posts", with({{"allow_duplicates", "yes"}}), "allow_duplicates"},
        {"/v1/social/posts", with({{"draft", 1}}), "draft"},
        {"/v1/social/posts", with({{"recycle", {{"interval_hours", 0}, {"max_repeats", 3}}}}),
         "recycle.interval_hours"},
        {"/v1/social/posts", with({{"recycle", {{"interval_hours", 24}, {"max_repeats", 101}}}}),
         "recycle.max_repeats"},
        {"/v1/social/posts", with({{"recycle", {{"interval_hours", 24}}}}), "recycle"},
        {"/v1/social/posts", with({{"recycle", {{"max_repeats", 3}}}}), "recycle.interval_hours"},
        {"/v1/social/posts",
         with({{"recycle", {{"interval_hours", 24}, {"until", hours_from_now(24 * 800)}}}}),
         "recycle.until"},
        {"/v1/social/posts", with({{"colour", "red"}}), "colour"},
        {"/v1/social/posts/schedule", base, "scheduled_time"},
        {"/v1/social/posts/schedule", with({{"scheduled_time", past}}), "scheduled_time"},
    };
    for (const auto& c : cases) {
        INFO(c.route << " " << c.body.dump().substr(0, 200));
        const auto r = stack.request("POST", c.route, c.body, key);
        check_error_envelope(r, 422, "VALIDATION_ERROR");
        CHECK(r.json["error"]["details"]["fields"].contains(c.field));
    }
    CHECK(posts_in(stack) == 0);
    CHECK(stack.count("SELECT COUNT(*) FROM social_post_targets") == 0);
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 0);
}

TEST_CASE_METHOD(SocialApi,
                 "identical content within 24 hours is 409 DUPLICATE_CONTENT unless allowed",
                 "[e2e][social][posts]") {
    connect_telegram_channel(stack, fake, key, -1001000000131LL);
    const json body = {{"content", "Same words."}, {"platforms", json::array({"telegram"})}};
    check_success_envelope(stack.request("POST", "/v1/social/posts", body, key), 201);
    const auto again = stack.request("POST", "/v1/social/posts", body, key);
    check_error_envelope(again, 409, "DUPLICATE_CONTENT");
    CHECK(posts_in(stack) == 1);
    json allowed = body;
    allowed["allow_duplicates"] = true;
    check_success_envelope(stack.request("POST", "/v1/social/posts", allowed, key), 201);
    CHECK(posts_in(stack) == 2);

    // Another workspace may say the same thing.
    const auto other = stack.create_tenant("other");
    connect_telegram_channel(stack, fake, other.live_key, -1001000000132LL);
    check_success_envelope(stack.request("POST", "/v1/social/posts", body, other.live_key), 201);
}

TEST_CASE_METHOD(SocialApi,
                 "X-Request-Id and X-Idempotency-Key replays answer 200 with idempotent_replay and "
                 "create one post",
                 "[e2e][social][posts]") {
    connect_telegram_channel(stack, fake, key, -1001000000141LL);
    for (const std::string header : {"X-Request-Id", "X-Idempotency-Key"}) {
        INFO(header);
        const json body = {{"content", "Once only via " + header},
                           {"platforms", json::array({"telegram"})}};
        const Headers headers = {{header, "client-" + header}};
        const auto first = stack.request("POST", "/v1/social/posts", body, key, headers);
        check_success_envelope(first, 201);
        const auto replay = stack.request("POST", "/v1/social/posts", body, key, headers);
        check_success_envelope(replay, 200);
        CHECK(replay.json["data"]["idempotent_replay"] == true);
        CHECK(replay.json["data"]["post_id"] == first.json["data"]["post_id"]);
        json changed = body;
        changed["content"] = "Something else";
        check_error_envelope(stack.request("POST", "/v1/social/posts", changed, key, headers), 409,
                             "IDEMPOTENCY_CONFLICT");
    }
    CHECK(posts_in(stack) == 2);
}

TEST_CASE_METHOD(
    SocialApi, "a bulk batch with one bad row is refused whole, naming the row, and stores nothing",
    "[e2e][social][posts]") {
    connect_telegram_channel(stack, fake, key, -1001000000151LL);
    connect_discord_webhook(stack, fake, key, "123456789012345651");
    const json rows = json::array({
        {{"content", "Row zero."}, {"platforms", json::array({"telegram"})}},
        {{"content", std::string(2001, 'd')}, {"platforms", json::array({"discord"})}},
        {{"content", "Row two."},
         {"platforms", json::array({"telegram"})},
         {"scheduled_time", hours_from_now(4)}},
        {{"content", "Row three."}, {"platforms", json::array({"tumblr"})}},
    });
    const auto bad = stack.request("POST", "/v1/social/posts/bulk", {{"posts", rows}}, key);
    check_error_envelope(bad, 422, "VALIDATION_ERROR");
    const auto& details = bad.json["error"]["details"];
    REQUIRE(details["rows"].size() == 2);
    CHECK(details["rows"][0]["index"] == 1);
    CHECK(details["rows"][0]["fields"].contains("content"));
    CHECK(details["rows"][1]["index"] == 3);
    CHECK(details["rows"][1]["fields"].contains("platforms"));
    CHECK(posts_in(stack) == 0);

    json good = rows;
    good.erase(3);
    good[1]["content"] = "Row one, short.";
    const auto dry =
        stack.request("POST", "/v1/social/posts/bulk/validate", {{"posts", good}}, key);
    check_success_envelope(dry, 200);
    CHECK(dry.json["data"]["valid"] == true);
    CHECK(dry.json["data"]["count"] == 3);
    CHECK(posts_in(stack) == 0);
    // Pre-flight validation is a read (spec 5): a read-only key runs it but cannot create.
    const auto reader = stack.create_key(stack.tenant().workspace_id, "live", "social:read");
    check_success_envelope(
        stack.request("POST", "/v1/social/posts/bulk/validate", {{"posts", good}}, reader), 200);
    check_error_envelope(stack.request("POST", "/v1/social/posts/bulk", {{"posts", good}}, reader),
                         403, "INSUFFICIENT_SCOPE");

    const auto created = stack.request("POST", "/v1/social/posts/bulk", {{"posts", good}}, key);
    check_success_envelope(created, 201);
    CHECK(created.json["data"]["count"] == 3);
    CHECK(posts_in(stack) == 3);
    CHECK(stack.count("SELECT COUNT(*) FROM social_posts WHERE status = 'scheduled'") == 1);

    json too_many = json::array();
    for (int i = 0; i < 51; ++i)
        too_many.push_back(
            {{"content", "Many " + std::to_string(i)}, {"platforms", json::array({"telegram"})}});
    check_error_envelope(stack.request("POST", "/v1/social/posts/bulk", {{"posts", too_many}}, key),
                         422, "VALIDATION_ERROR");
    CHECK(posts_in(stack) == 3);
}

TEST_CASE_METHOD(SocialApi,
                 "bulk posts may come as CSV with quoting, and a bad CSV row names its index",
                 "[e2e][social][posts]") {
    connect_telegram_channel(stack, fake, key, -1001000000161LL);
    connect_discord_webhook(stack, fake, key, "123456789012345661");
    const std::string csv =
        "content,platforms,scheduled_time,link\r\n"
        "\"Hello, \"\"world\"\"\",telegram|discord,," +
        std::string("https://example.com\r\n") + "Later,telegram," + hours_from_now(6) + ",\r\n";
    const auto dry = stack.request("POST", "/v1/social/posts/bulk/validate", {{"csv", csv}}, key);
    check_success_envelope(dry, 200);
    CHECK(posts_in(stack) == 0);
    const auto created = stack.request("POST", "/v1/social/posts/bulk", {{"csv", csv}}, key);
    check_success_envelope(created, 201);
    REQUIRE(created.json["data"]["posts"].size() == 2);
    CHECK(created.json["data"]["posts"][0]["content"] == "Hello, \"world\"");
    CHECK(created.json["data"]["posts"][0]["platforms"].size() == 2);

    const auto bad = stack.request(
        "POST", "/v1/social/posts/bulk",
        {{"csv", "content,platforms,link\nfine text,telegram,\nbad link,telegram,notaurl\n"}}, key);
    check_error_envelope(bad, 422, "VALIDATION_ERROR");
    CHECK(bad.json["error"]["details"]["rows"][0]["index"] == 1);
    CHECK(bad.json["error"]["details"]["rows"][0]["fields"].contains("link"));
    const auto broken =
        stack.request("POST", "/v1/social/posts/bulk", {{"csv", "content\n\"unterminated\n"}}, key);
    check_error_envelope(broken, 422, "VALIDATION_ERROR");
    CHECK(broken.json["error"]["details"]["fields"].contains("csv"));
    CHECK(posts_in(stack) == 2);
}

TEST_CASE_METHOD(
    SocialApi, "a post to WhatsApp is refused with 422 naming the platform, and nothing is stored",
    "[e2e][social][posts]") {
    connect_telegram_channel(stack, fake, key, -1001000000171LL);
    fake.add_whatsapp_phone({{"id", "2098765432"},
                             {"waba_id", "655000111"},
                             {"display_phone_number", "+1 555 0101"},
                             {"verified_name", "Squawk"}},
                            {"EAAG-token"});
    check_success_envelope(stack.request("POST", "/v1/social/connect/whatsapp",
                                         {{"waba_id", "655000111"},
                                          {"phone_number_id", "2098765432"},
                                          {"access_token", "EAAG-token"}},
                                         key),
                           201);
    const auto r = stack.request(
        "POST", "/v1/social/posts",
        {{"content", "Hello everyone."}, {"platforms", json::array({"telegram", "whatsapp"})}},
        key);
    check_error_envelope(r, 422, "VALIDATION_ERROR");
    const auto reason = r.json["error"]["details"]["fields"].value("platforms", "");
    CHECK(reason.find("whatsapp") != std::string::npos);
    CHECK(posts_in(stack) == 0);
}

TEST_CASE_METHOD(SocialApi,
                 "identical posts sent at the same moment to two API processes create exactly one",
                 "[e2e][social][posts]") {
    connect_telegram_channel(stack, fake, key, -1001000000181LL);
    const std::vector<std::string> apis = {stack.base_url(), stack.start_extra_api()};
    ConcurrentRequest request;
    request.method = "POST";
    request.path = "/v1/social/posts";
    request.body =
        json{{"content", "Racing words."}, {"platforms", json::array({"telegram"})}}.dump();
    request.headers = {{"Authorization", "Bearer " + key}};
    const auto answers = send_concurrently(apis, 12, request);
    int created = 0;
    int refused = 0;
    for (const auto& a : answers) {
        if (a.status == 201) ++created;
        if (a.status == 409 && a.json["error"]["code"] == "DUPLICATE_CONTENT") ++refused;
    }
    CHECK(created == 1);
    CHECK(refused == 11);
    CHECK(posts_in(stack) == 1);
}

TEST_CASE_METHOD(
    SocialApi,
    "an X-Request-Id that cannot serve as the idempotency key is 400 naming X-Request-Id",
    "[e2e][social][posts]") {
    connect_telegram_channel(stack, fake, key, -1001000000151LL);
    const auto r = stack.request("POST", "/v1/social/posts",
                                 {{"content", "Hello"}, {"platforms", {"telegram"}}}, key,
                                 {{"X-Request-Id", std::string(300, 'r')}});
    check_error_envelope(r, 400, "INVALID_REQUEST");
    CHECK(r.json["error"]["details"]["header"] == "X-Request-Id");
    CHECK(r.json["error"]["message"].get<std::string>().starts_with("X-Request-Id "));
    CHECK(stack.count("SELECT COUNT(*) FROM social_posts") == 0);
}
