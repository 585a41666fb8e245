// X posts end to end through the API and the publish worker: a thread
// (platform_options.x.post_type thread) reaches X's fake as a chain of replies under the first
// post, a thread part X would refuse is 422 naming the part's field before anything is stored, and
// a thread X cuts short is published with a warning.
#include "common/domain/social/post.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/post_fixtures.hpp"
#include "tests/support/social_fixtures.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;
namespace social = squawk::social;
using nlohmann::json;

namespace {

struct XThreads : PublishStack {
    XThreads() {
        fake.control_platform(
            "x", "user", {{"id", kUserId}, {"username", "squawkthreads"}, {"name", "Threads"}});
        fake.control_platform("x", "next_consent", {{"user_id", kUserId}});
        const auto connected = connect_through_oauth(stack, key, "x");
        REQUIRE(connected.status == 201);
        account = connected.json["data"]["id"];
    }

    HttpResponse post_thread(const json& parts) {
        return stack.request(
            "POST", "/v1/social/posts",
            {{"content", "1/ A thread from Squawk"},
             {"account_ids", json::array({account})},
             {"platform_options", {{"x", {{"post_type", "thread"}, {"thread", parts}}}}}},
            key);
    }

    static constexpr const char* kUserId = "1590000000000000888";
    std::string account;
};

}  // namespace

TEST_CASE_METHOD(XThreads, "an X thread is published by the worker as a chain of replies",
                 "[e2e][social][publish]") {
    const auto created = post_thread(
        json::array({{{"text", "2/ with a photo"},
                      {"media_urls", {fake.media_url("chart.png", "image/png", 40'000)}},
                      {"alt_texts", {"A bar chart of weekly posts"}}},
                     {{"text", "3/ the end"}}}));
    check_success_envelope(created, 201);
    const auto done = wait_settled(stack, created.json["data"]["id"].get<long long>());
    REQUIRE(done.status == social::PostStatus::published);

    const auto tweets = fake.messages()["x"][kUserId];
    REQUIRE(tweets.size() == 3);
    CHECK(tweets[0]["text"] == "1/ A thread from Squawk");
    CHECK(done.targets[0].external_id == tweets[0]["id"].get<std::string>());
    CHECK(tweets[1]["text"] == "2/ with a photo");
    CHECK(tweets[1]["referenced_tweets"][0]["id"] == tweets[0]["id"]);
    CHECK(tweets[1]["media"][0]["alt_text"] == "A bar chart of weekly posts");
    CHECK(tweets[2]["text"] == "3/ the end");
    CHECK(tweets[2]["referenced_tweets"][0]["id"] == tweets[1]["id"]);
}

TEST_CASE_METHOD(XThreads,
                 "an X thread cut short by a refused part is published with a warning naming what "
                 "went out",
                 "[e2e][social][publish]") {
    fake.program("/x/2/tweets",
                 {json::object(),
                  {{"status", 403},
                   {"body",
                    {{"detail", "You are not allowed to create a Tweet with duplicate content."},
                     {"title", "Forbidden"},
                     {"status", 403}}}}});
    const auto created =
        post_thread(json::array({{{"text", "2/ refused"}}, {{"text", "3/ never sent"}}}));
    check_success_envelope(created, 201);
    const auto id = created.json["data"]["id"].get<long long>();
    REQUIRE(wait_settled(stack, id).status == social::PostStatus::published);

    const auto tweets = fake.messages()["x"][kUserId];
    REQUIRE(tweets.size() == 1);
    const auto read = stack.request("GET", "/v1/social/posts/" + std::to_string(id), nullptr, key);
    check_success_envelope(read, 200);
    const auto& post = read.json["data"];
    const std::string warning = "X published the post " + tweets[0]["id"].get<std::string>() +
                                "; then thread[0] failed and the rest was not sent: You are not "
                                "allowed to create a Tweet with duplicate content.";
    CHECK(post["post_urls"]["_warnings"] == json{{"x", {warning}}});
    CHECK(post["post_urls"]["_errors"] == json::object());
    CHECK(post["post_urls"]["x"].get<std::string>().find(tweets[0]["id"].get<std::string>()) !=
          std::string::npos);
    CHECK(post["targets"][0]["status"] == "published");
    CHECK(post["targets"][0]["platform_post_id"] == tweets[0]["id"]);
    CHECK(post["targets"][0]["warnings"] == json::array({warning}));
}

TEST_CASE_METHOD(XThreads, "an X thread part over 280 weighted characters is 422 naming the part",
                 "[e2e][social]") {
    // 139 CJK characters and a link: 278 + 23 as X weighs them, though 163 characters.
    std::string text;
    for (int i = 0; i < 139; ++i) text += "漢";
    const auto refused = post_thread(
        json::array({{{"text", "2/ fine"}}, {{"text", text + " https://squawk.example/a"}}}));
    check_error_envelope(refused, 422, "VALIDATION_ERROR");
    const auto fields = refused.json["error"]["details"]["fields"];
    CHECK(fields.contains("platform_options.x.thread[1].text"));
    CHECK_FALSE(fields.contains("platform_options.x.thread[0].text"));

    const auto no_thread = stack.request("POST", "/v1/social/posts",
                                         {{"content", "a thread without parts"},
                                          {"account_ids", json::array({account})},
                                          {"platform_options", {{"x", {{"post_type", "thread"}}}}}},
                                         key);
    check_error_envelope(no_thread, 422, "VALIDATION_ERROR");
    CHECK(no_thread.json["error"]["details"]["fields"].contains("platform_options.x.thread"));
    CHECK(fake.calls("/x/2/tweets").empty());
}
