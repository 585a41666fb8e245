// The Facebook Pages connector against the fake Graph API: Facebook Login's code buys a user
// token traded for a long-lived one and the Page's own token, posts go out as text, photos by URL,
// a video through the resumable upload, a reel or a story through the upload host, posts are
// edited, deleted, listed and counted, and each failure is classified as the publish worker relies
// on.
#include "common/core/fs/work_files.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "tests/support/connector_fixture.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace squawk;
using namespace squawk::testing;
using nlohmann::json;
using social::FailureKind;

namespace {

constexpr const char* kScopes =
    "pages_show_list,pages_manage_posts,pages_read_engagement,pages_manage_metadata,read_insights,"
    "pages_read_user_content,pages_manage_engagement,pages_messaging";

// Ana, who manages the Page "Squawk Bakery" (and a second Page), connecting through the consent
// page as the tests need.
struct FacebookPage : ConnectorFixture {
    FacebookPage() {
        fake.control_platform("facebook", "page",
                              {{"id", page_id},
                               {"name", "Squawk Bakery"},
                               {"username", "squawkbakery"},
                               {"followers_count", 1520},
                               {"fan_count", 1490}});
        fake.control_platform("facebook", "page", {{"id", other_page}, {"name", "Other Page"}});
        fake.control_platform("facebook", "user",
                              {{"id", user_id}, {"name", "Ana"}, {"pages", {page_id, other_page}}});
    }
    const std::string user_id = "10158000000000001";
    const std::string page_id = "104000000000001";
    const std::string other_page = "104000000000002";
    std::unique_ptr<social::Connector> facebook = connector("facebook");
    const social::OAuthClient client = oauth_client("facebook");

    std::string consent_url() {
        return facebook->authorize_url(client, "st4te", social::code_challenge_of("verifier"));
    }
    Fields consent_as(const json& how) {
        fake.control_platform("facebook", "next_consent", how);
        return consent(consent_url());
    }
    social::Credentials connect(json how = json::object()) {
        how["user_id"] = user_id;
        const auto redirect = consent_as(how);
        REQUIRE(redirect.contains("code"));
        const auto grant = facebook->exchange_code(client, redirect.at("code"), "verifier");
        REQUIRE_FALSE(grant.failure);
        return grant.credentials;
    }
    social::Target target(social::Credentials credentials) const {
        return {{page_id, "Squawk Bakery", "squawkbakery"}, std::move(credentials)};
    }
    social::Target connected(json how = json::object()) { return target(connect(how)); }

    json posts() { return fake.messages()["facebook"].value(page_id, json::array()); }
    // The calls whose path is exactly `path` (under the fake's /facebook/v19.0/).
    json calls_to(const std::string& path) {
        json out = json::array();
        for (const auto& call : fake.calls("/facebook/v19.0/" + path))
            if (call["path"] == "/facebook/v19.0/" + path) out.push_back(call);
        return out;
    }
};

social::Message typed(std::string post_type, std::string text = "",
                      std::vector<std::string> images = {}) {
    auto m = message(std::move(text), std::move(images));
    m.post_type = std::move(post_type);
    return m;
}

}  // namespace

TEST_CASE_METHOD(FacebookPage,
                 "Facebook consent asks for the Page permissions and its code buys the Page's own "
                 "token through a long-lived user token",
                 "[integration][social]") {
    const auto url = consent_url();
    CHECK(url.starts_with(fake.authorize_url("facebook") + "?"));
    const auto asked = query_fields(url);
    CHECK(asked.at("scope") == kScopes);
    CHECK(asked.at("state") == "st4te");
    CHECK(asked.at("client_id") == client.client_id);
    CHECK(asked.at("response_type") == "code");

    const auto redirect = consent_as({{"user_id", user_id}});
    REQUIRE(redirect.contains("code"));
    CHECK(redirect.at("state") == "st4te");
    const auto grant = facebook->exchange_code(client, redirect.at("code"), "verifier");
    REQUIRE_FALSE(grant.failure);
    const auto& credentials = grant.credentials;
    CHECK(credentials.at("page_id") == page_id);
    CHECK(credentials.at("page_name") == "Squawk Bakery");
    CHECK(credentials.at("access_token").starts_with("EAABpage"));
    CHECK(credentials.at("user_access_token").starts_with("EAABuser"));
    CHECK_FALSE(credentials.contains("expires_at"));
    CHECK_FALSE(credentials.contains("refresh_token"));
    CHECK(social::missing_scopes(credentials, social::find_platform("facebook")->oauth_scopes)
              .empty());

    const auto token_calls = calls_to("oauth/access_token");
    REQUIRE(token_calls.size() == 2);
    const auto by_code = query_fields(token_calls[0]["target"]);
    CHECK(by_code == Fields{{"client_id", client.client_id},
                            {"redirect_uri", client.redirect_uri},
                            {"client_secret", client.client_secret},
                            {"code", redirect.at("code")}});
    const auto exchanged = query_fields(token_calls[1]["target"]);
    CHECK(exchanged.at("grant_type") == "fb_exchange_token");
    CHECK(exchanged.at("fb_exchange_token").starts_with("EAABshort"));
    CHECK(calls_to("me/accounts").size() == 1);

    const auto verified = facebook->verify(credentials);
    REQUIRE(verified.identity);
    CHECK(verified.identity->external_id == page_id);
    CHECK(verified.identity->display_name == "Squawk Bakery");
    CHECK(verified.identity->handle == "squawkbakery");

    const auto again = facebook->exchange_code(client, redirect.at("code"), "verifier");
    REQUIRE(again.failure);
    CHECK(again.failure->kind == FailureKind::refused);
    CHECK(again.failure->reason == "This authorization code has been used.");
}

TEST_CASE_METHOD(FacebookPage,
                 "Facebook connects the Page the user chose and a grant without Pages is refused",
                 "[integration][social]") {
    CHECK(connect({{"pages", {other_page}}}).at("page_id") == other_page);

    const auto redirect = consent_as({{"user_id", user_id}, {"pages", json::array()}});
    const auto none = facebook->exchange_code(client, redirect.at("code"), "verifier");
    REQUIRE(none.failure);
    CHECK(none.failure->kind == FailureKind::refused);
    CHECK(none.failure->reason.find("no Page") != std::string::npos);

    const auto denied = consent_as({{"user_id", user_id}, {"deny", true}});
    CHECK(denied.at("error") == "access_denied");
    CHECK_FALSE(denied.contains("code"));

    auto impostor = client;
    impostor.client_secret = "not-the-secret";
    const auto code = consent_as({{"user_id", user_id}}).at("code");
    const auto forged = facebook->exchange_code(impostor, code, "verifier");
    REQUIRE(forged.failure);
    CHECK(forged.failure->reason == "Error validating client secret.");
}

TEST_CASE_METHOD(FacebookPage,
                 "Facebook refresh reads the Page token again and asks to reconnect once the user "
                 "no longer manages the Page",
                 "[integration][social]") {
    const auto credentials = connect();
    const auto renewed = facebook->refresh(client, credentials);
    REQUIRE_FALSE(renewed.failure);
    CHECK(renewed.credentials.at("access_token") != credentials.at("access_token"));
    auto fresh = credentials;
    fresh["access_token"] = renewed.credentials.at("access_token");
    CHECK(facebook->verify(fresh).identity);

    fake.control_platform("facebook", "unmanage", {{"user_id", user_id}, {"page_id", page_id}});
    const auto gone = facebook->refresh(client, credentials);
    REQUIRE(gone.failure);
    CHECK(gone.failure->kind == FailureKind::refused);
    CHECK(gone.failure->field == "access_token");
    CHECK(gone.failure->reason.find("no longer manages") != std::string::npos);
    const auto verified = facebook->verify(fresh);
    REQUIRE(verified.failure);
    CHECK(verified.failure->field == "access_token");
}

TEST_CASE_METHOD(FacebookPage, "Facebook refuses a dead token on the access_token field",
                 "[integration][social]") {
    const auto t = connected();
    fake.revoke(t.credentials.at("access_token"));
    const auto verified = facebook->verify(t.credentials);
    REQUIRE(verified.failure);
    CHECK(verified.failure->kind == FailureKind::refused);
    CHECK(verified.failure->field == "access_token");
    const auto p = facebook->publish(t, message("hello"));
    REQUIRE(p.failure);
    CHECK(p.failure->kind == FailureKind::refused);
    CHECK(p.failure->field == "access_token");
    CHECK(p.failure->reason == "Invalid OAuth access token - Cannot parse access token");
    CHECK(posts().empty());
}

TEST_CASE_METHOD(FacebookPage,
                 "Facebook publishes text to the Page feed then edits it and deletes it more than "
                 "once",
                 "[integration][social]") {
    const auto t = connected();
    const auto p = facebook->publish(t, message("Fresh bread at 8"));
    REQUIRE_FALSE(p.failure);
    CHECK(p.message_id.starts_with(page_id + "_"));
    CHECK(*p.url == "https://www.facebook.com/" + p.message_id);
    const auto feed = calls_to(page_id + "/feed");
    REQUIRE(feed.size() == 1);
    CHECK(feed[0]["headers"]["authorization"] == "Bearer " + t.credentials.at("access_token"));
    CHECK(form_of(feed[0]) == Fields{{"message", "Fresh bread at 8"}});

    CHECK_FALSE(facebook->edit(t, p.message_id, message("Fresh bread at 9")).failure);
    CHECK_FALSE(facebook->edit(t, p.message_id, message("Fresh bread at 9")).failure);
    REQUIRE(posts().size() == 1);
    CHECK(posts()[0]["message"] == "Fresh bread at 9");

    CHECK_FALSE(facebook->remove(t, p.message_id).failure);
    CHECK(posts().empty());
    CHECK_FALSE(facebook->remove(t, p.message_id).failure);
    const auto missing = facebook->edit(t, p.message_id, message("gone"));
    REQUIRE(missing.failure);
    CHECK(missing.failure->kind == FailureKind::refused);
}

TEST_CASE_METHOD(FacebookPage,
                 "Facebook publishes one photo by URL and several photos attached to one post",
                 "[integration][social]") {
    const auto t = connected();
    const auto one_url = fake.media_url("a.jpg", "image/jpeg", 300'000);
    const auto one = facebook->publish(t, message("A loaf", {one_url}));
    REQUIRE_FALSE(one.failure);
    const auto photo_calls = calls_to(page_id + "/photos");
    REQUIRE(photo_calls.size() == 1);
    CHECK(form_of(photo_calls[0]) == Fields{{"url", one_url}, {"message", "A loaf"}});

    const std::vector<std::string> urls = {fake.media_url("b.png", "image/png", 1000),
                                           fake.media_url("c.gif", "image/gif", 2000),
                                           fake.media_url("d.jpg", "image/jpeg", 3000)};
    const auto album = facebook->publish(t, message("Three", urls));
    REQUIRE_FALSE(album.failure);
    const auto all_photos = calls_to(page_id + "/photos");
    REQUIRE(all_photos.size() == 4);
    for (size_t i = 1; i < 4; ++i) {
        CHECK(form_of(all_photos[i]).at("published") == "false");
        CHECK(form_of(all_photos[i]).at("url") == urls[i - 1]);
    }
    const auto feed = calls_to(page_id + "/feed");
    REQUIRE(feed.size() == 1);
    const auto fields = form_of(feed[0]);
    CHECK(fields.at("message") == "Three");
    CHECK(json::parse(fields.at("attached_media[2]")).contains("media_fbid"));
    const auto stored = posts();
    REQUIRE(stored.size() == 2);
    CHECK(stored[1]["id"] == album.message_id);
    CHECK(stored[1]["media"].size() == 3);
    CHECK(stored[0]["id"] == one.message_id);

    // Facebook fetches the image itself and refuses a type it does not take.
    const auto webp =
        facebook->publish(t, message("webp", {fake.media_url("e.webp", "image/webp", 1000)}));
    REQUIRE(webp.failure);
    CHECK(webp.failure->kind == FailureKind::refused);
    CHECK(webp.failure->reason.find("Invalid image") != std::string::npos);
    CHECK(posts().size() == 2);
}

TEST_CASE_METHOD(FacebookPage,
                 "Facebook uploads a video in the byte ranges it asks for and publishes it at "
                 "finish",
                 "[integration][social]") {
    const auto t = connected();
    fs::ScratchDirectory folder("squawk-facebook-video-");
    auto m = message("Behind the counter");
    m.video = video_file(folder, 300'000, {.seconds = 20});
    const auto p = facebook->publish(t, m);
    REQUIRE_FALSE(p.failure);
    const auto calls = calls_to(page_id + "/videos");
    // start, three transfers of at most 128 KiB (the fake's range), finish.
    REQUIRE(calls.size() == 5);
    CHECK(form_of(calls[0]) == Fields{{"upload_phase", "start"}, {"file_size", "300000"}});
    long long sent = 0;
    for (size_t i = 1; i <= 3; ++i) {
        const auto& form = calls[i]["form"];
        CHECK(form["fields"]["upload_phase"] == "transfer");
        CHECK(form["fields"]["start_offset"] == std::to_string(sent));
        sent += form["files"]["video_file_chunk"]["bytes"].get<long long>();
    }
    CHECK(sent == 300'000);
    CHECK(form_of(calls[4]).at("upload_phase") == "finish");
    CHECK(form_of(calls[4]).at("description") == "Behind the counter");
    const auto stored = posts();
    REQUIRE(stored.size() == 1);
    CHECK(stored[0]["id"] == p.message_id);
    CHECK(*p.url == "https://www.facebook.com/" + page_id + "/videos/" + p.message_id);
    // A video's text is its description.
    CHECK_FALSE(facebook->edit(t, p.message_id, message("At the counter")).failure);
    CHECK(posts()[0]["message"] == "At the counter");
    CHECK(form_of(calls_to(p.message_id)[0]).contains("description"));
}

TEST_CASE_METHOD(FacebookPage,
                 "Facebook publishes a reel by uploading the file to the address it hands out",
                 "[integration][social]") {
    const auto t = connected();
    fs::ScratchDirectory folder("squawk-facebook-reel-");
    auto m = typed("reel", "Croissant folding");
    m.video = video_file(folder, 250'000, {.seconds = 30});
    const auto p = facebook->publish(t, m);
    REQUIRE_FALSE(p.failure);
    CHECK(*p.url == "https://www.facebook.com/reel/" + p.message_id);
    const auto reels = calls_to(page_id + "/video_reels");
    REQUIRE(reels.size() == 2);
    CHECK(form_of(reels[0]) == Fields{{"upload_phase", "start"}});
    CHECK(form_of(reels[1]) == Fields{{"upload_phase", "finish"},
                                      {"video_id", p.message_id},
                                      {"video_state", "PUBLISHED"},
                                      {"description", "Croissant folding"}});
    const auto uploads = fake.calls("/facebook/rupload/video-upload/v19.0/" + p.message_id);
    REQUIRE(uploads.size() == 1);
    CHECK(uploads[0]["headers"]["authorization"] == "OAuth " + t.credentials.at("access_token"));
    CHECK(uploads[0]["headers"]["offset"] == "0");
    CHECK(uploads[0]["headers"]["file_size"] == "250000");
    CHECK(uploads[0]["body"].get<std::string>().size() == 250'000);
    REQUIRE(posts().size() == 1);
    CHECK(posts()[0]["kind"] == "reel");
}

TEST_CASE_METHOD(FacebookPage, "Facebook publishes photo and video stories",
                 "[integration][social]") {
    const auto t = connected();
    const auto photo =
        facebook->publish(t, typed("story", "", {fake.media_url("s.jpg", "image/jpeg", 5000)}));
    REQUIRE_FALSE(photo.failure);
    REQUIRE(calls_to(page_id + "/photo_stories").size() == 1);
    fs::ScratchDirectory folder("squawk-facebook-story-");
    auto m = typed("story");
    m.video = video_file(folder, 100'000, {.seconds = 15});
    const auto video = facebook->publish(t, m);
    REQUIRE_FALSE(video.failure);
    CHECK(calls_to(page_id + "/video_stories").size() == 2);
    const auto stored = posts();
    REQUIRE(stored.size() == 2);
    CHECK(stored[0]["kind"] == "story");
    CHECK(stored[0]["id"] == photo.message_id);
    CHECK(stored[1]["id"] == video.message_id);
}

TEST_CASE_METHOD(FacebookPage,
                 "Facebook refuses media that does not fit the post type before any call",
                 "[integration][social]") {
    const auto t = connected();
    fake.clear_calls();
    const auto no_video = facebook->publish(t, typed("reel", "text only"));
    REQUIRE(no_video.failure);
    CHECK(no_video.failure->kind == FailureKind::refused);
    CHECK(no_video.failure->reason == "a Facebook reel is a video, and this post has none");
    fs::ScratchDirectory folder("squawk-facebook-long-");
    auto long_reel = typed("reel");
    long_reel.video = video_file(folder, 1000, {.seconds = 120});
    CHECK(facebook->publish(t, long_reel).failure->reason == "Facebook reels last 3 to 90 seconds");
    const auto two = facebook->publish(t, typed("story", "",
                                                {fake.media_url("1.jpg", "image/jpeg", 10),
                                                 fake.media_url("2.jpg", "image/jpeg", 10)}));
    REQUIRE(two.failure);
    CHECK(two.failure->reason.find("one photo or one video") != std::string::npos);
    CHECK(fake.calls("/facebook/").empty());
}

TEST_CASE_METHOD(FacebookPage, "Facebook lists the Page's recent posts newest first",
                 "[integration][social]") {
    const auto t = connected();
    fake.control_platform("facebook", "post", {{"page_id", page_id}, {"message", "native"}});
    const auto p = facebook->publish(t, message("ours"));
    REQUIRE_FALSE(p.failure);
    const auto listing = facebook->list_recent(t);
    REQUIRE(listing);
    REQUIRE_FALSE(listing->failure);
    REQUIRE(listing->posts.size() == 2);
    CHECK(listing->posts[0].external_id == p.message_id);
    CHECK(listing->posts[0].text == "ours");
    CHECK(listing->posts[1].text == "native");
    CHECK(*listing->posts[1].url == "https://www.facebook.com/" + listing->posts[1].external_id);
}

TEST_CASE_METHOD(FacebookPage, "Facebook reads the Page's followers and a post's insights",
                 "[integration][social]") {
    const auto t = connected();
    const auto account = facebook->account_metrics(t);
    REQUIRE(account);
    REQUIRE_FALSE(account->failure);
    CHECK(account->metrics.followers == 1520);

    const auto p = facebook->publish(t, message("count me"));
    fake.control_platform("facebook", "insights",
                          {{"id", p.message_id},
                           {"metrics",
                            {{"post_impressions", 900},
                             {"post_impressions_unique", 700},
                             {"reactions", 42},
                             {"comments", 5},
                             {"shares", 3}}}});
    const auto post = facebook->post_metrics(t, p.message_id);
    REQUIRE(post);
    REQUIRE_FALSE(post->failure);
    CHECK(post->metrics.impressions == 900);
    CHECK(post->metrics.reach == 700);
    CHECK(post->metrics.likes == 42);
    CHECK(post->metrics.comments == 5);
    CHECK(post->metrics.shares == 3);

    fs::ScratchDirectory folder("squawk-facebook-metrics-");
    auto m = typed("reel", "watch me");
    m.video = video_file(folder, 20'000, {.seconds = 10});
    const auto reel = facebook->publish(t, m);
    REQUIRE_FALSE(reel.failure);
    fake.control_platform(
        "facebook", "insights",
        {{"id", reel.message_id},
         {"metrics", {{"total_video_impressions", 5000}, {"total_video_views", 3100}}}});
    const auto video = facebook->post_metrics(t, reel.message_id);
    REQUIRE(video);
    REQUIRE_FALSE(video->failure);
    CHECK(video->metrics.impressions == 5000);
    CHECK(video->metrics.video_views == 3100);
}

TEST_CASE_METHOD(FacebookPage, "Facebook refuses a call the grant lacks a permission for",
                 "[integration][social]") {
    const auto t = connected(
        {{"scopes", {"pages_show_list", "pages_read_engagement", "pages_manage_metadata"}}});
    CHECK(social::missing_scopes(t.credentials, social::find_platform("facebook")->oauth_scopes) ==
          std::vector<std::string>{"pages_manage_posts", "read_insights", "pages_read_user_content",
                                   "pages_manage_engagement", "pages_messaging"});
    const auto p = facebook->publish(t, message("not allowed"));
    REQUIRE(p.failure);
    CHECK(p.failure->kind == FailureKind::refused);
    CHECK(p.failure->http_status == 403);
    CHECK(p.failure->reason ==
          "(#200) Requires pages_manage_posts permission to manage the object");
    CHECK(posts().empty());
}

TEST_CASE_METHOD(FacebookPage, "Facebook refuses a message over 63206 characters",
                 "[integration][social]") {
    const auto t = connected();
    const auto p = facebook->publish(t, message(std::string(63'207, 'a')));
    REQUIRE(p.failure);
    CHECK(p.failure->kind == FailureKind::refused);
    CHECK(p.failure->reason == "(#100) The message is too long");
}

TEST_CASE_METHOD(FacebookPage,
                 "Facebook throttling codes and server errors are not accepted and wait as told",
                 "[integration][social]") {
    const auto t = connected();
    fake.control_platform("facebook", "throttle", {{"calls", 1}, {"minutes", 7}});
    const auto throttled = facebook->publish(t, message("busy"));
    REQUIRE(throttled.failure);
    CHECK(throttled.failure->kind == FailureKind::not_accepted);
    CHECK(throttled.failure->retry_after == std::chrono::seconds(420));
    CHECK(throttled.failure->reason == "(#32) Page request limit reached");

    for (const int code : {4, 17, 613}) {
        fake.program(
            "/facebook/v19.0/" + page_id + "/feed",
            {{{"status", 400},
              {"body",
               {{"error",
                 {{"message", "(#" + std::to_string(code) + ") slow"}, {"code", code}}}}}}});
        const auto again = facebook->publish(t, message("busy"));
        REQUIRE(again.failure);
        CHECK(again.failure->kind == FailureKind::not_accepted);
    }
    fake.program("/facebook/v19.0/" + page_id + "/feed",
                 {{{"status", 503}, {"body", {{"error", {{"message", "down"}, {"code", 2}}}}}}});
    const auto down = facebook->publish(t, message("busy"));
    REQUIRE(down.failure);
    CHECK(down.failure->kind == FailureKind::not_accepted);
    CHECK(down.failure->http_status == 503);
    CHECK(posts().empty());
}

TEST_CASE_METHOD(FacebookPage,
                 "Facebook publish without an answer has an unknown outcome but a failed upload "
                 "published nothing",
                 "[integration][social]") {
    const auto t = connected();
    fake.program("/facebook/v19.0/" + page_id + "/feed", {{{"delay_ms", 1500}}});
    const auto lost = facebook->publish(t, message("in flight"));
    REQUIRE(lost.failure);
    CHECK(lost.failure->kind == FailureKind::unknown_outcome);

    fs::ScratchDirectory folder("squawk-facebook-cut-");
    auto m = typed("reel", "cut");
    m.video = video_file(folder, 50'000, {.seconds = 10});
    fake.program("/facebook/rupload/", {{{"reset", true}}});
    const auto cut = facebook->publish(t, m);
    REQUIRE(cut.failure);
    CHECK(cut.failure->kind == FailureKind::not_accepted);
    CHECK(fake.calls(page_id + "/video_reels").size() == 1);
}

namespace {

// A Page post with comments people wrote under it, for the inbox's operations.
struct CommentedPost : FacebookPage {
    CommentedPost() {
        const auto published = facebook->publish(page, message("Fresh bread today"));
        REQUIRE_FALSE(published.failure);
        post_id = published.message_id;
        first = comment("Is there rye?", "5550001", "Ben")["id"];
        second = comment("Yes please", "5550002", "Cleo")["id"];
    }
    json comment(const std::string& text, const std::string& from_id, const std::string& name,
                 const std::string& parent = "") {
        return fake.control_platform("facebook", "comment",
                                     {{"post_id", post_id},
                                      {"parent_id", parent},
                                      {"from", {{"id", from_id}, {"name", name}}},
                                      {"message", text}});
    }
    json stored(const std::string& id) {
        return fake.control_platform("facebook", "inbox", json::object())["comments"][id];
    }
    json messenger() {
        return fake.control_platform("facebook", "inbox", json::object())["messenger"].value(
            page_id, json::array());
    }
    social::Target page = connected();
    std::string post_id, first, second;
};

}  // namespace

TEST_CASE_METHOD(CommentedPost,
                 "Facebook lists a post's comments and their replies oldest first, page by page",
                 "[integration][social]") {
    const auto reply = comment("Rye on Fridays", page_id, "Squawk Bakery", first);
    const auto listed = facebook->list_comments(page, post_id, "");
    REQUIRE(listed);
    REQUIRE_FALSE(listed->failure);
    REQUIRE(listed->comments.size() == 3);
    CHECK(listed->comments[0].external_id == first);
    CHECK(listed->comments[0].text == "Is there rye?");
    CHECK(listed->comments[0].author_id == "5550001");
    CHECK(listed->comments[0].author_name == "Ben");
    CHECK(listed->comments[0].parent_id.empty());
    CHECK(listed->comments[2].parent_id == first);
    CHECK_FALSE(listed->next_cursor);
    const auto asked = query_fields(calls_to(post_id + "/comments").back()["target"]);
    CHECK(asked.at("filter") == "stream");
    CHECK(asked.at("order") == "chronological");

    for (int i = 0; i < 100; ++i) comment("more " + std::to_string(i), "5550003", "Dee");
    const auto page_one = facebook->list_comments(page, post_id, "");
    REQUIRE(page_one->comments.size() == 100);
    REQUIRE(page_one->next_cursor);
    const auto page_two = facebook->list_comments(page, post_id, *page_one->next_cursor);
    REQUIRE_FALSE(page_two->failure);
    CHECK(page_two->comments.size() == 3);
    CHECK_FALSE(page_two->next_cursor);
}

TEST_CASE_METHOD(CommentedPost,
                 "Facebook answers a comment in public, likes it, hides it and deletes it, and a "
                 "deleted comment counts as deleted again",
                 "[integration][social]") {
    const auto reply = facebook->reply_to_comment(page, first, message("Rye on Fridays"));
    REQUIRE(reply);
    REQUIRE_FALSE(reply->failure);
    CHECK(stored(reply->message_id)["parent_id"] == first);
    CHECK(stored(reply->message_id)["from"]["id"] == page_id);

    REQUIRE_FALSE(facebook->like_comment(page, first)->failure);
    CHECK(stored(first)["liked"] == true);
    REQUIRE_FALSE(facebook->moderate_comment(page, second, social::Moderation::hide)->failure);
    CHECK(stored(second)["is_hidden"] == true);
    CHECK(facebook->list_comments(page, post_id, "")->comments[1].hidden);
    REQUIRE_FALSE(facebook->moderate_comment(page, second, social::Moderation::unhide)->failure);
    CHECK(stored(second)["is_hidden"] == false);
    REQUIRE_FALSE(facebook->moderate_comment(page, second, social::Moderation::remove)->failure);
    CHECK(stored(second)["deleted"] == true);
    CHECK_FALSE(facebook->moderate_comment(page, second, social::Moderation::remove)->failure);

    const auto foreign = facebook->like_comment(page, "not-an-id");
    REQUIRE(foreign->failure);
    CHECK(foreign->failure->kind == FailureKind::refused);
}

TEST_CASE_METHOD(CommentedPost,
                 "Facebook replies privately to a comment's author once through Messenger",
                 "[integration][social]") {
    const auto sent = facebook->reply_privately(page, first, "We will bake rye for you");
    REQUIRE(sent);
    REQUIRE_FALSE(sent->failure);
    CHECK(sent->message_id.starts_with("m_"));
    const auto calls = messenger();
    REQUIRE(calls.size() == 1);
    CHECK(calls[0]["comment_id"] == first);
    CHECK(calls[0]["message"]["text"] == "We will bake rye for you");

    const auto again = facebook->reply_privately(page, first, "Again");
    REQUIRE(again->failure);
    CHECK(again->failure->kind == FailureKind::refused);
    CHECK(again->failure->reason.find("already replied") != std::string::npos);
}

TEST_CASE_METHOD(CommentedPost,
                 "Facebook sends Messenger messages with quick replies, buttons, images and a "
                 "typing indicator to people who wrote to the Page",
                 "[integration][social]") {
    fake.control_platform("facebook", "messenger_user", {{"page_id", page_id}, {"id", "7770001"}});
    REQUIRE_FALSE(facebook->send_typing(page, "7770001")->failure);

    social::DirectMessage choice;
    choice.recipient_id = "7770001";
    choice.text = "Which loaf?";
    choice.quick_replies = {"Rye", "Spelt"};
    const auto asked = facebook->send_direct_message(page, choice);
    REQUIRE_FALSE(asked->failure);

    social::DirectMessage buttons = choice;
    buttons.quick_replies.clear();
    buttons.buttons = {"Order", "Call us"};
    buttons.image_urls = {fake.media_url("loaf.jpg", "image/jpeg", 2048)};
    const auto sent = facebook->send_direct_message(page, buttons);
    REQUIRE_FALSE(sent->failure);

    const auto calls = messenger();
    REQUIRE(calls.size() == 4);
    CHECK(calls[0]["sender_action"] == "typing_on");
    CHECK(calls[1]["message"]["quick_replies"][1]["title"] == "Spelt");
    CHECK(calls[2]["message"]["attachment"]["payload"]["template_type"] == "button");
    CHECK(calls[2]["message"]["attachment"]["payload"]["buttons"][0]["title"] == "Order");
    CHECK(calls[3]["message"]["attachment"]["type"] == "image");
    CHECK(sent->message_id == calls[3]["message_id"]);

    social::DirectMessage stranger = choice;
    stranger.recipient_id = "7770999";
    const auto refused = facebook->send_direct_message(page, stranger);
    REQUIRE(refused->failure);
    CHECK(refused->failure->reason == "(#100) No matching user found");

    social::DirectMessage long_title = choice;
    long_title.quick_replies = {"A title longer than twenty"};
    const auto checked = facebook->send_direct_message(page, long_title);
    REQUIRE(checked->failure);
    CHECK(checked->failure->kind == FailureKind::refused);
    CHECK(messenger().size() == 4);
}

TEST_CASE_METHOD(FacebookPage, "Facebook's inbox calls need their permissions",
                 "[integration][social]") {
    const auto t =
        connected({{"scopes", {"pages_show_list", "pages_manage_posts", "pages_read_engagement"}}});
    const auto published = facebook->publish(t, message("Quiet post"));
    REQUIRE_FALSE(published.failure);
    const auto listed = facebook->list_comments(t, published.message_id, "");
    REQUIRE(listed->failure);
    CHECK(listed->failure->http_status == 403);
    CHECK(listed->failure->reason.find("pages_read_user_content") != std::string::npos);
}
