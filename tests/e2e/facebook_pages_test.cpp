// Managing a connected Facebook Page from the outside: its settings read and changed, its picture
// and cover set from images checked before Facebook is asked, the Page routes closed to other
// workspaces and other platforms, and the Reel allowance counted over a moving 24 hours.
#include "common/core/db/sql_text.hpp"
#include "common/core/error/api_error.hpp"
#include "common/extensions/platforms/facebook/reel_limit.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/social_fixtures.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::testing;
using nlohmann::json;

namespace {

constexpr const char* kPageId = "104000000000777";

std::string be32(uint32_t v) {
    return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
            static_cast<char>(v)};
}

// The start of a PNG file of `width`x`height`: what the size check reads.
std::string png(uint32_t width, uint32_t height) {
    return std::string("\x89PNG\r\n\x1a\n", 8) + be32(13) + "IHDR" + be32(width) + be32(height) +
           std::string("\x08\x02\0\0\0", 5) + std::string(64, '\0');
}

struct FacebookPages : SocialApi {
    FacebookPages() {
        fake.control_platform("facebook", "page",
                              {{"id", kPageId},
                               {"name", "Corner Bakery"},
                               {"about", "Bread since 1990"},
                               {"emails", {"hello@corner.example"}}});
        fake.control_platform("facebook", "user",
                              {{"id", "10158000000000777"}, {"name", "Ana"}, {"pages", {kPageId}}});
        fake.control_platform("facebook", "next_consent", {{"user_id", "10158000000000777"}});
        const auto connected = connect_through_oauth(stack, key, "facebook");
        REQUIRE(connected.status == 201);
        account = connected.json["data"]["id"];
        base = "/v1/social/accounts/" + account + "/facebook";
    }
    std::string account;
    std::string base;

    HttpResponse call(const std::string& method, const std::string& path, const json& body) {
        return stack.request(method, base + path, body, key);
    }
    json page() { return fake.control_platform("facebook", "page_state", {{"id", kPageId}}); }
    // The Graph calls that would change the Page.
    size_t page_changes() {
        size_t n = 0;
        for (const auto& c : fake.calls("/facebook/v19.0/" + std::string(kPageId)))
            if (c["method"] == "POST") ++n;
        return n;
    }
};

}  // namespace

TEST_CASE_METHOD(FacebookPages,
                 "Facebook Page settings are read and changed through the connected Page",
                 "[e2e][social][facebook]") {
    const auto read = call("GET", "/page/settings", nullptr);
    check_success_envelope(read, 200);
    CHECK(read.json["data"]["page_id"] == kPageId);
    CHECK(read.json["data"]["name"] == "Corner Bakery");
    CHECK(read.json["data"]["about"] == "Bread since 1990");
    CHECK(read.json["data"]["emails"] == json({"hello@corner.example"}));

    const auto changed = call("PATCH", "/page/settings",
                              {{"about", "Sourdough every morning"},
                               {"website", "https://corner.example"},
                               {"phone", "+1 (555) 010-2030"},
                               {"emails", {"orders@corner.example"}}});
    check_success_envelope(changed, 200);
    CHECK(changed.json["data"]["about"] == "Sourdough every morning");
    CHECK(changed.json["data"]["website"] == "https://corner.example");
    CHECK(page()["phone"] == "+1 (555) 010-2030");
    CHECK(page()["emails"] == json({"orders@corner.example"}));

    const size_t before = page_changes();
    const auto bad = call("PATCH", "/page/settings",
                          {{"website", "corner.example"}, {"emails", {"not-an-address"}}});
    REQUIRE(bad.status == 422);
    CHECK(bad.json["error"]["code"] == "VALIDATION_ERROR");
    CHECK(bad.json["error"]["details"]["fields"].contains("website"));
    CHECK(bad.json["error"]["details"]["fields"].contains("emails"));
    CHECK(call("PATCH", "/page/settings", {{"about", std::string(256, 'a')}}).status == 422);
    CHECK(call("PATCH", "/page/settings", json::object()).status == 422);
    CHECK(call("PATCH", "/page/settings", {{"hours", "9-5"}}).status == 422);
    CHECK(page_changes() == before);
}

TEST_CASE_METHOD(FacebookPages,
                 "Facebook Page picture and cover images are checked before Facebook is called",
                 "[e2e][social][facebook]") {
    const auto picture_url = fake.store_media_file("logo.png", "image/png", png(320, 320));
    const auto set = call("POST", "/page/picture", {{"url", picture_url}});
    check_success_envelope(set, 200);
    CHECK(page()["picture"] == picture_url);

    const auto cover_url = fake.store_media_file("cover.png", "image/png", png(1640, 624));
    const auto cover = call("POST", "/page/cover", {{"url", cover_url}, {"offset_y", 30}});
    check_success_envelope(cover, 200);
    CHECK(page()["cover"]["source"] == cover_url);
    CHECK(page()["cover"]["offset_y"] == 30);
    const auto centred = call("POST", "/page/cover", {{"url", cover_url}});
    check_success_envelope(centred, 200);
    CHECK(page()["cover"]["offset_y"] == 50);

    const size_t before = page_changes();
    const auto refused = [&](const std::string& path, const json& body) {
        const auto r = call("POST", path, body);
        REQUIRE(r.status == 422);
        CHECK(r.json["error"]["code"] == "VALIDATION_ERROR");
        CHECK(r.json["error"]["details"]["field"] == "url");
        return r.json["error"]["details"]["reason"].get<std::string>();
    };
    const auto small = fake.store_media_file("small.png", "image/png", png(399, 150));
    CHECK(refused("/page/cover", {{"url", small}}) ==
          "is 399x150 pixels; a cover is at least 400x150");
    const auto text = fake.store_media_file("notes.png", "image/png", "just some text, no image");
    CHECK(refused("/page/picture", {{"url", text}}) == "is not a JPG, PNG, GIF, BMP or TIFF image");
    const auto huge = fake.media_url("huge.jpg", "image/jpeg", 11 * 1024 * 1024);
    CHECK(refused("/page/picture", {{"url", huge}}) == "is larger than 10 MB");
    CHECK(call("POST", "/page/cover", {{"url", cover_url}, {"offset_y", 101}}).status == 422);
    CHECK(page_changes() == before);
}

TEST_CASE_METHOD(FacebookPages,
                 "Facebook Page routes answer 404 for another workspace's account and another "
                 "platform's",
                 "[e2e][social][facebook]") {
    const auto other = stack.create_tenant("neighbour");
    const auto foreign = stack.request("GET", base + "/page/settings", nullptr, other.live_key);
    CHECK(foreign.status == 404);
    CHECK(stack.request("GET", base + "/reel-limit", nullptr, other.live_key).status == 404);
    CHECK(stack
              .request("POST", base + "/page/picture",
                       {{"url", fake.store_media_file("p.png", "image/png", png(200, 200))}},
                       other.live_key)
              .status == 404);

    const auto telegram = connect_telegram_channel(stack, fake, key, -1001234567);
    const auto not_facebook = stack.request(
        "GET", "/v1/social/accounts/" + telegram + "/facebook/reel-limit", nullptr, key);
    CHECK(not_facebook.status == 404);
    CHECK(not_facebook.json["error"]["code"] == "RESOURCE_NOT_FOUND");

    const auto reader = stack.create_key(stack.tenant().workspace_id, "live", "social:read");
    CHECK(stack.request("GET", base + "/page/settings", nullptr, reader).status == 200);
    CHECK(stack.request("PATCH", base + "/page/settings", {{"about", "x"}}, reader).status == 403);
}

TEST_CASE_METHOD(FacebookPages,
                 "Facebook reel limit counts the reels published in a moving 24 hours",
                 "[e2e][social][facebook]") {
    const auto empty = call("GET", "/reel-limit", nullptr);
    check_success_envelope(empty, 200);
    CHECK(empty.json["data"]["limit"] == 30);
    CHECK(empty.json["data"]["used"] == 0);
    CHECK(empty.json["data"]["remaining"] == 30);

    const auto now = time::now();
    stack.db().run([&](db::Session& s) {
        const auto row = s.query_one(
            "SELECT id, workspace_id FROM social_accounts WHERE public_id = ?", {account});
        const long long account_id = row->integer(0);
        const long long workspace_id = row->integer(1);
        // `hours_ago` hours ago, of `type`, in `status`.
        const auto target = [&](double hours_ago, const char* type, const char* status) {
            const auto at =
                now - std::chrono::milliseconds(static_cast<long long>(hours_ago * 3.6e6));
            const json options = {{"facebook", {{"post_type", type}}}};
            const long long post_id = s.insert(
                "INSERT INTO social_posts (workspace_id, status, content, content_hash,"
                " platform_options, created_at, updated_at) VALUES (?, ?, 'reel', ?, ?, ?, ?)",
                {workspace_id, std::string(status), std::string(64, 'a'), options.dump(),
                 db::time_param(at), db::time_param(at)});
            s.execute(
                "INSERT INTO social_post_targets (post_id, workspace_id, account_id,"
                " platform, status, scheduled_time, published_at, send_started_at,"
                " created_at, updated_at) VALUES (?, ?, ?, 'facebook', ?, ?, ?, ?, ?, ?)",
                {post_id, workspace_id, account_id, std::string(status), db::time_param(at),
                 std::string(status) == "published" ? db::time_param(at) : db::Param(nullptr),
                 db::time_param(at), db::time_param(at), db::time_param(at)});
        };
        target(30, "reel", "published");  // left the window
        target(2, "post", "published");   // not a reel
        target(1, "reel", "failed");      // never went out
        target(23, "reel", "published");  // the oldest counted
        for (int i = 0; i < 28; ++i) target(22 - 0.5 * i, "reel", "published");
        target(0.1, "reel", "publishing");  // going out now
    });
    const auto full = call("GET", "/reel-limit", nullptr);
    check_success_envelope(full, 200);
    CHECK(full.json["data"]["used"] == 30);
    CHECK(full.json["data"]["remaining"] == 0);
    const auto next =
        time::parse_iso8601(full.json["data"]["next_available_at"].get<std::string>());
    REQUIRE(next);
    const auto expected = now + std::chrono::hours(1);  // the 23-hour-old reel leaves the window
    CHECK(std::chrono::abs(*next - expected) < std::chrono::seconds(2));

    // The check post creation and editing make (wired by the post service).
    stack.db().run([&](db::Session& s) {
        const long long id =
            s.query_one("SELECT id FROM social_accounts WHERE public_id = ?", {account})
                ->integer(0);
        const std::vector<std::pair<std::string, long long>> accounts = {{account, id}};
        CHECK_NOTHROW(social::facebook::check_reel_limit(s, accounts, "post", time::now()));
        try {
            social::facebook::check_reel_limit(s, accounts, "reel", time::now());
            FAIL("a reel over the limit was let through");
        } catch (const ApiError& e) {
            CHECK(e.code() == ErrorCode::PlatformDailyLimitReached);
            CHECK(e.details()["account_id"] == account);
            CHECK(e.details()["limit"] == 30);
            CHECK(e.details()["used"] == 30);
            CHECK(e.details()["next_available_at"] == full.json["data"]["next_available_at"]);
        }
        // Editing a reel already counted does not count it twice.
        const long long counted =
            s.query_one(
                 "SELECT post_id FROM social_post_targets WHERE account_id = ? AND"
                 " status = 'publishing'",
                 {id})
                ->integer(0);
        CHECK_NOTHROW(
            social::facebook::check_reel_limit(s, accounts, "reel", time::now(), counted));
    });

    // Through the API: one more reel is refused when the post is created, a plain post is not.
    const auto video = fake.media_url("reel.mp4", "video/mp4", 2'000'000);
    const auto reel = stack.request("POST", "/v1/social/posts/schedule",
                                    {{"content", "One reel too many"},
                                     {"account_ids", {account}},
                                     {"media_urls", {video}},
                                     {"scheduled_time", hours_from_now(2)},
                                     {"platform_options", {{"facebook", {{"post_type", "reel"}}}}}},
                                    key);
    check_error_envelope(reel, 422, "PLATFORM_DAILY_LIMIT_REACHED");
    CHECK(reel.json["error"]["details"]["account_id"] == account);
    CHECK(reel.json["error"]["details"]["used"] == 30);
    const auto plain = stack.request("POST", "/v1/social/posts/schedule",
                                     {{"content", "A plain post still fits"},
                                      {"account_ids", {account}},
                                      {"scheduled_time", hours_from_now(2)}},
                                     key);
    check_success_envelope(plain, 201);
    // Nor may an edit make the plain post a reel.
    const auto made_reel = stack.request(
        "PATCH", "/v1/social/posts/" + std::to_string(plain.json["data"]["id"].get<long long>()),
        {{"media_urls", {video}}, {"platform_options", {{"facebook", {{"post_type", "reel"}}}}}},
        key);
    check_error_envelope(made_reel, 422, "PLATFORM_DAILY_LIMIT_REACHED");
    CHECK(made_reel.json["error"]["details"]["next_available_at"] ==
          full.json["data"]["next_available_at"]);
}
