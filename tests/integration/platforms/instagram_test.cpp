// The Instagram connector against the fake Instagram Graph API: Facebook Login's code buys a
// long-lived token kept with the granted permissions and the professional account of the user's
// Page, posts go out as media containers (an image, a carousel of items, a reel or a story whose
// video is sent by resumable upload) published once FINISHED with a first comment, media is
// listed and measured, and each failure is classified as the publish worker relies on.
#include "common/core/fs/work_files.hpp"
#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/extensions/platforms/instagram/factory.hpp"
#include "tests/support/connector_fixture.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace squawk;
using namespace squawk::testing;
using nlohmann::json;
using social::FailureKind;

namespace {

constexpr long long kInstagramLongLivedSeconds = 5'184'000;

// Sam manages the Page "Squawk Café", linked to the Instagram professional account @squawk.app.
struct InstagramAccount : ConnectorFixture {
    InstagramAccount() {
        fake.control_platform("instagram", "user", {{"id", facebook_user}, {"name", "Sam"}});
        fake.control_platform("instagram", "page",
                              {{"id", page_id},
                               {"name", "Squawk Café"},
                               {"user_id", facebook_user},
                               {"instagram",
                                {{"id", account_id},
                                 {"username", "squawk.app"},
                                 {"name", "Squawk"},
                                 {"followers_count", 1200},
                                 {"follows_count", 80}}}});
    }
    const std::string facebook_user = "10150000000000042";
    const std::string page_id = "104000000000077";
    const std::string account_id = "17841400000000042";
    std::unique_ptr<social::Connector> instagram = connector("instagram");
    const social::OAuthClient client = oauth_client("instagram");

    std::string consent_url() {
        return instagram->authorize_url(client, "st4te", social::code_challenge_of("verifier"));
    }
    // The account connected: the credentials its grant keeps.
    social::Credentials connect(json how = json::object()) {
        how["user_id"] = facebook_user;
        fake.control_platform("instagram", "next_consent", how);
        const auto redirect = consent(consent_url());
        REQUIRE(redirect.contains("code"));
        const auto grant = instagram->exchange_code(client, redirect.at("code"), "verifier");
        REQUIRE_FALSE(grant.failure);
        return grant.credentials;
    }
    social::Target target(social::Credentials credentials) const {
        return {{account_id, "Squawk", "squawk.app"}, std::move(credentials)};
    }

    // The account's media on the fake, oldest first.
    json media() { return fake.messages()["instagram"].value(account_id, json::array()); }
    // The calls whose path is exactly `path` (under the fake's /instagram).
    json calls_to(const std::string& path, const std::string& method = "") {
        json out = json::array();
        for (const auto& call : fake.calls("/instagram" + path))
            if (call["path"] == "/instagram" + path && (method.empty() || call["method"] == method))
                out.push_back(call);
        return out;
    }
    json containers_made() { return calls_to("/v19.0/" + account_id + "/media", "POST"); }
    json publishes() { return calls_to("/v19.0/" + account_id + "/media_publish"); }
};

social::Message post(std::string text, std::vector<std::string> images, std::string type = "post") {
    auto m = message(std::move(text), std::move(images));
    m.post_type = std::move(type);
    return m;
}

}  // namespace

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram consent asks Facebook Login for the permissions and its code buys a "
                 "long-lived token naming the Page's professional account",
                 "[integration][social]") {
    const auto url = consent_url();
    CHECK(url.starts_with(fake.authorize_url("instagram") + "?"));
    CHECK(fake.authorize_url("instagram").ends_with("/instagram/v19.0/dialog/oauth"));
    const auto asked = query_fields(url);
    CHECK(asked.at("scope") ==
          "instagram_basic,instagram_content_publish,instagram_manage_comments,pages_show_list,"
          "pages_read_engagement,instagram_manage_insights");
    CHECK(asked.at("state") == "st4te");
    CHECK(asked.at("client_id") == client.client_id);
    CHECK(asked.at("redirect_uri") == client.redirect_uri);
    CHECK(asked.at("response_type") == "code");

    fake.control_platform("instagram", "next_consent", {{"user_id", facebook_user}});
    const auto redirect = consent(url);
    REQUIRE(redirect.contains("code"));
    CHECK(redirect.at("state") == "st4te");
    const long long before = unix_now();
    const auto grant = instagram->exchange_code(client, redirect.at("code"), "verifier");
    REQUIRE_FALSE(grant.failure);
    const auto& credentials = grant.credentials;
    CHECK(credentials.at("access_token").starts_with("EAAGLong"));
    CHECK(credentials.at("user_id") == account_id);
    CHECK(credentials.at("page_id") == page_id);
    const long long expires_at = std::stoll(credentials.at("expires_at"));
    CHECK(expires_at >= before + kInstagramLongLivedSeconds);
    CHECK(expires_at <= unix_now() + kInstagramLongLivedSeconds);
    CHECK(social::missing_scopes(credentials, social::find_platform("instagram")->oauth_scopes)
              .empty());

    // The code, then the short-lived token for a long-lived one, both with the app's secret.
    const auto tokens = calls_to("/v19.0/oauth/access_token");
    REQUIRE(tokens.size() == 2);
    const auto code_call = form_of(tokens[0]);
    CHECK(code_call.at("code") == redirect.at("code"));
    CHECK(code_call.at("redirect_uri") == client.redirect_uri);
    CHECK(code_call.at("code_verifier") == "verifier");
    CHECK(code_call.at("client_secret") == client.client_secret);
    const auto exchange = form_of(tokens[1]);
    CHECK(exchange.at("grant_type") == "fb_exchange_token");
    CHECK(exchange.at("fb_exchange_token").starts_with("EAAGShort"));
    CHECK(exchange.at("client_id") == client.client_id);
    CHECK(calls_to("/v19.0/me/accounts").size() == 1);
    CHECK(instagram->verify(credentials).identity);

    const auto again = instagram->exchange_code(client, redirect.at("code"), "verifier");
    REQUIRE(again.failure);
    CHECK(again.failure->kind == FailureKind::refused);
    CHECK(again.failure->reason == "This authorization code has been used.");
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram consent is bound to its PKCE verifier and redirect and a user without "
                 "a linked professional account is refused",
                 "[integration][social]") {
    fake.control_platform("instagram", "next_consent", {{"user_id", facebook_user}});
    const auto code = consent(consent_url()).at("code");
    const auto forged = instagram->exchange_code(client, code, "another-verifier");
    REQUIRE(forged.failure);
    CHECK(forged.failure->kind == FailureKind::refused);
    CHECK(forged.failure->reason == "Invalid code verifier");
    auto elsewhere = client;
    elsewhere.redirect_uri = "https://elsewhere.example/callback";
    const auto moved = instagram->exchange_code(elsewhere, code, "verifier");
    REQUIRE(moved.failure);
    CHECK(moved.failure->reason.find("redirect_uri") != std::string::npos);

    fake.control_platform("instagram", "next_consent",
                          {{"user_id", facebook_user}, {"deny", true}});
    const auto denied = consent(consent_url());
    CHECK(denied.at("error") == "access_denied");
    CHECK_FALSE(denied.contains("code"));

    // Someone whose only Page has no Instagram account linked.
    fake.control_platform("instagram", "user", {{"id", "10150000000000099"}, {"name", "Pat"}});
    fake.control_platform("instagram", "page",
                          {{"id", "104000000000099"}, {"user_id", "10150000000000099"}});
    fake.control_platform("instagram", "next_consent", {{"user_id", "10150000000000099"}});
    const auto unlinked =
        instagram->exchange_code(client, consent(consent_url()).at("code"), "verifier");
    REQUIRE(unlinked.failure);
    CHECK(unlinked.failure->kind == FailureKind::refused);
    CHECK(unlinked.failure->reason.find("Instagram professional account") != std::string::npos);
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram partial consent keeps the granted permissions for the missing scope "
                 "check",
                 "[integration][social]") {
    const auto credentials =
        connect({{"scopes", {"instagram_basic", "instagram_content_publish"}}});
    CHECK(credentials.at("scope") == "public_profile instagram_basic instagram_content_publish");
    CHECK(social::missing_scopes(credentials, social::find_platform("instagram")->oauth_scopes) ==
          std::vector<std::string>{"instagram_manage_comments", "pages_show_list",
                                   "pages_read_engagement", "instagram_manage_insights"});
    // Without pages_show_list no account is looked for: the missing scope is the answer.
    CHECK_FALSE(credentials.contains("user_id"));
    CHECK(calls_to("/v19.0/me/accounts").empty());
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram refresh exchanges the long-lived token for a new one and a dead token "
                 "asks to reconnect",
                 "[integration][social]") {
    const auto credentials = connect();
    const long long before = unix_now();
    const auto refreshed = instagram->refresh(client, credentials);
    REQUIRE_FALSE(refreshed.failure);
    const auto& fresh = refreshed.credentials;
    CHECK(fresh.at("access_token") != credentials.at("access_token"));
    CHECK(std::stoll(fresh.at("expires_at")) >= before + kInstagramLongLivedSeconds);
    // The grant carries only what changed: the account and permissions stay as stored.
    CHECK_FALSE(fresh.contains("user_id"));
    CHECK_FALSE(fresh.contains("refresh_token"));
    const auto calls = calls_to("/v19.0/oauth/access_token");
    const auto exchange = form_of(calls.back());
    CHECK(exchange.at("grant_type") == "fb_exchange_token");
    CHECK(exchange.at("fb_exchange_token") == credentials.at("access_token"));
    CHECK(exchange.at("client_secret") == client.client_secret);
    auto merged = credentials;
    for (const auto& [k, v] : fresh) merged[k] = v;
    CHECK(instagram->verify(merged).identity);

    fake.control_platform("instagram", "expire", {{"user_id", facebook_user}});
    const auto dead = instagram->refresh(client, merged);
    REQUIRE(dead.failure);
    CHECK(dead.failure->kind == FailureKind::refused);
    CHECK(dead.failure->field == "access_token");
    CHECK(instagram->refresh(client, {}).failure);
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram verify names the professional account by its id name and username",
                 "[integration][social]") {
    auto credentials = connect();
    REQUIRE(instagram->check(credentials).empty());
    const auto v = instagram->verify(credentials);
    REQUIRE(v.identity);
    CHECK(v.identity->external_id == account_id);
    CHECK(v.identity->display_name == "Squawk");
    CHECK(v.identity->handle == "squawk.app");
    const auto read = calls_to("/v19.0/" + account_id);
    REQUIRE(read.size() == 1);
    CHECK(call_query(read[0]).at("fields") == "id,username,name");
    CHECK(read[0]["headers"]["authorization"] == "Bearer " + credentials.at("access_token"));

    fake.revoke(credentials.at("access_token"));
    const auto revoked = instagram->verify(credentials);
    REQUIRE(revoked.failure);
    CHECK(revoked.failure->kind == FailureKind::refused);
    CHECK(revoked.failure->field == "access_token");

    social::Credentials empty;
    REQUIRE(instagram->check(empty).size() == 1);
    CHECK(instagram->check(empty)[0].field == "access_token");
    social::Credentials no_account{{"access_token", "EAAGabc"}};
    REQUIRE(instagram->check(no_account).size() == 1);
    CHECK(instagram->check(no_account)[0].field == "user_id");
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram publishes one image container at once and, answered that it is not "
                 "ready, reads it until FINISHED and publishes it again",
                 "[integration][social]") {
    const auto t = target(connect());
    fake.control_platform("instagram", "container_delay", {{"polls", 1}});
    const auto image = fake.media_url("photo.jpg", "image/jpeg", 300'000);
    auto m = post("Morning light #squawk", {image});
    m.options = {{"collaborators", {"friend.one"}}, {"location_id", "110000000000001"}};
    const auto p = instagram->publish(t, m);
    REQUIRE_FALSE(p.failure);

    const auto made = containers_made();
    REQUIRE(made.size() == 1);
    CHECK(made[0]["headers"]["authorization"] == "Bearer " + t.credentials.at("access_token"));
    CHECK(form_of(made[0]) == Fields{{"image_url", image},
                                     {"caption", "Morning light #squawk"},
                                     {"collaborators", R"(["friend.one"])"},
                                     {"location_id", "110000000000001"}});
    const auto published = publishes();
    REQUIRE(published.size() == 2);
    const auto container = call_query(published[0]).at("creation_id");
    CHECK(call_query(published[1]).at("creation_id") == container);
    const auto status = calls_to("/v19.0/" + container);
    REQUIRE(status.size() == 2);
    CHECK(call_query(status[0]).at("fields") == "status_code,status");
    CHECK(published[0]["received_at_ms"] <= status[0]["received_at_ms"]);
    CHECK(status[1]["received_at_ms"] <= published[1]["received_at_ms"]);

    const auto stored = media();
    REQUIRE(stored.size() == 1);
    CHECK(stored[0]["id"] == p.message_id);
    CHECK(stored[0]["media_type"] == "IMAGE");
    CHECK(stored[0]["caption"] == "Morning light #squawk");
    CHECK(p.url == stored[0]["permalink"].get<std::string>());
    CHECK(p.url->starts_with("https://www.instagram.com/p/"));
    // The permalink came with the publish's answer (read-after-write), not from a read back.
    CHECK(call_query(published[1]).at("fields") == "id,permalink");
    CHECK(calls_to("/v19.0/" + p.message_id).empty());
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram reads a media's permalink back when the publish answers only its id",
                 "[integration][social]") {
    const auto t = target(connect());
    const auto image = fake.media_url("light.jpg", "image/jpeg", 2048);
    const auto first = instagram->publish(t, post("First", {image}));
    REQUIRE_FALSE(first.failure);
    // As a Graph API that ignored `fields` would answer: the id alone.
    fake.program("/media_publish", {{{"status", 200}, {"body", {{"id", first.message_id}}}}});
    const auto p = instagram->publish(t, post("Second", {image}));
    REQUIRE_FALSE(p.failure);
    CHECK(p.message_id == first.message_id);
    const auto reads = calls_to("/v19.0/" + p.message_id, "GET");
    REQUIRE(reads.size() == 1);
    CHECK(call_query(reads[0]).at("fields") == "permalink");
    CHECK(p.url == first.url);
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram publishes several images as a carousel of item containers",
                 "[integration][social]") {
    const auto t = target(connect());
    const std::vector<std::string> images = {fake.media_url("a.jpg", "image/jpeg", 1000),
                                             fake.media_url("b.jpg", "image/jpeg", 2000),
                                             fake.media_url("c.jpg", "image/jpeg", 3000)};
    const auto p = instagram->publish(t, post("Three photos", images));
    REQUIRE_FALSE(p.failure);
    const auto made = containers_made();
    REQUIRE(made.size() == 4);
    for (size_t i = 0; i < 3; ++i)
        CHECK(form_of(made[i]) == Fields{{"image_url", images[i]}, {"is_carousel_item", "true"}});
    const auto carousel = form_of(made[3]);
    CHECK(carousel.at("media_type") == "CAROUSEL");
    CHECK(carousel.at("caption") == "Three photos");
    const auto children = carousel.at("children");
    CHECK(std::count(children.begin(), children.end(), ',') == 2);
    // Ready when published: no status read.
    const auto published = publishes();
    REQUIRE(published.size() == 1);
    CHECK(calls_to("/v19.0/" + call_query(published[0]).at("creation_id")).empty());
    const auto stored = media();
    REQUIRE(stored.size() == 1);
    CHECK(stored[0]["media_type"] == "CAROUSEL_ALBUM");
    REQUIRE(stored[0]["children"].size() == 3);
    for (size_t i = 0; i < 3; ++i) CHECK(stored[0]["children"][i]["media_url"] == images[i]);

    // More than ten images are refused before any call.
    std::vector<std::string> eleven(11, images[0]);
    const auto many = instagram->publish(t, post("too many", eleven));
    REQUIRE(many.failure);
    CHECK(many.failure->kind == FailureKind::refused);
    CHECK(containers_made().size() == 4);
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram publishes a reel by resumable upload of the video file to the address "
                 "its container names",
                 "[integration][social]") {
    const auto t = target(connect());
    fs::ScratchDirectory folder("squawk-instagram-video-");
    auto m = post("A reel", {}, "reel");
    m.video = video_file(folder, 300'000, {.seconds = 12});
    m.options = {{"share_to_feed", false}, {"thumb_offset", 1500}};
    const auto p = instagram->publish(t, m);
    REQUIRE_FALSE(p.failure);

    const auto made = containers_made();
    REQUIRE(made.size() == 1);
    CHECK(form_of(made[0]) == Fields{{"media_type", "REELS"},
                                     {"caption", "A reel"},
                                     {"thumb_offset", "1500"},
                                     {"share_to_feed", "false"},
                                     {"upload_type", "resumable"}});
    const auto container = call_query(publishes().at(0)).at("creation_id");
    const auto uploads = calls_to("/ig-api-upload/v19.0/" + container);
    REQUIRE(uploads.size() == 1);
    CHECK(uploads[0]["method"] == "POST");
    CHECK(uploads[0]["headers"]["authorization"] == "OAuth " + t.credentials.at("access_token"));
    CHECK(uploads[0]["headers"]["offset"] == "0");
    CHECK(uploads[0]["headers"]["file_size"] == "300000");
    CHECK(uploads[0]["body"].get<std::string>().size() == 300'000);
    CHECK(uploads[0]["received_at_ms"] <= publishes()[0]["received_at_ms"]);
    // A video is read until FINISHED before it is published, not published to be told it is not
    // ready.
    const auto status = calls_to("/v19.0/" + container);
    REQUIRE(status.size() == 1);
    CHECK(status[0]["received_at_ms"] <= publishes()[0]["received_at_ms"]);
    CHECK(publishes().size() == 1);

    const auto stored = media();
    REQUIRE(stored.size() == 1);
    CHECK(stored[0]["media_product_type"] == "REELS");
    CHECK(stored[0]["media_type"] == "VIDEO");
    CHECK(p.url->starts_with("https://www.instagram.com/reel/"));

    // A post's video is a reel shown in the feed too.
    auto feed = post("In the feed", {});
    feed.video = m.video;
    REQUIRE_FALSE(instagram->publish(t, feed).failure);
    const auto second = form_of(containers_made().at(1));
    CHECK(second.at("media_type") == "REELS");
    CHECK(second.at("share_to_feed") == "true");
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram uploads a video larger than one chunk in pieces each naming its "
                 "offset",
                 "[integration][social]") {
    const auto t = target(connect());
    fs::ScratchDirectory folder("squawk-instagram-video-");
    auto m = post("A long reel", {}, "reel");
    const long long bytes = static_cast<long long>(social::kVideoChunkBytes) + 1000;
    m.video = video_file(folder, bytes, {.seconds = 12});
    REQUIRE_FALSE(instagram->publish(t, m).failure);
    const auto container = call_query(publishes().at(0)).at("creation_id");
    const auto uploads = calls_to("/ig-api-upload/v19.0/" + container);
    REQUIRE(uploads.size() == 2);
    CHECK(uploads[0]["headers"]["offset"] == "0");
    CHECK(uploads[1]["headers"]["offset"] == std::to_string(social::kVideoChunkBytes));
    CHECK(uploads[0]["headers"]["file_size"] == std::to_string(bytes));
    CHECK(uploads[1]["headers"]["file_size"] == std::to_string(bytes));
    CHECK(uploads[1]["body"].get<std::string>().size() == 1000);
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram publishes a story from one image or one video without a caption",
                 "[integration][social]") {
    const auto t = target(connect());
    const auto image = fake.media_url("story.jpg", "image/jpeg", 5000);
    REQUIRE_FALSE(instagram->publish(t, post("not shown", {image}, "story")).failure);
    CHECK(form_of(containers_made().at(0)) ==
          Fields{{"media_type", "STORIES"}, {"image_url", image}});

    fs::ScratchDirectory folder("squawk-instagram-video-");
    auto clip = post("", {}, "story");
    clip.video = video_file(folder, 200'000, {.seconds = 12});
    const auto p = instagram->publish(t, clip);
    REQUIRE_FALSE(p.failure);
    CHECK(form_of(containers_made().at(1)) ==
          Fields{{"media_type", "STORIES"}, {"upload_type", "resumable"}});
    const auto stored = media();
    REQUIRE(stored.size() == 2);
    CHECK(stored[0]["media_product_type"] == "STORY");
    CHECK(stored[1]["media_product_type"] == "STORY");
    CHECK(stored[1]["media_type"] == "VIDEO");

    // A story is one item, and its video lasts at most a minute.
    const auto two = instagram->publish(t, post("", {image, image}, "story"));
    REQUIRE(two.failure);
    CHECK(two.failure->kind == FailureKind::refused);
    clip.video->duration_seconds = 61;
    const auto long_clip = instagram->publish(t, clip);
    REQUIRE(long_clip.failure);
    CHECK(long_clip.failure->reason == "Instagram story videos last at most 60 seconds");
    CHECK(containers_made().size() == 2);
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram posts the first comment under the published media and a refused "
                 "comment leaves the post published with a warning",
                 "[integration][social]") {
    const auto t = target(connect());
    auto m = post("With a comment", {fake.media_url("a.jpg", "image/jpeg", 1000)});
    m.first_comments = {"#first #comment", "never sent"};
    const auto p = instagram->publish(t, m);
    REQUIRE_FALSE(p.failure);
    CHECK(p.warnings.empty());
    const auto commented = calls_to("/v19.0/" + p.message_id + "/comments");
    REQUIRE(commented.size() == 1);
    CHECK(form_of(commented[0]) == Fields{{"message", "#first #comment"}});
    const auto stored = media();
    REQUIRE(stored.size() == 1);
    REQUIRE(stored[0]["comments"].size() == 1);
    CHECK(stored[0]["comments"][0]["text"] == "#first #comment");

    // Without instagram_manage_comments the comment is refused; the post stands.
    const auto partial = target(
        connect({{"scopes", {"instagram_basic", "instagram_content_publish", "pages_show_list"}}}));
    const auto q = instagram->publish(partial, m);
    REQUIRE_FALSE(q.failure);
    CHECK_FALSE(q.message_id.empty());
    CHECK(calls_to("/v19.0/" + q.message_id + "/comments").size() == 1);
    REQUIRE(q.warnings.size() == 1);
    CHECK(q.warnings[0].rfind("Instagram did not take the first comment: ", 0) == 0);
    const auto both = media();
    REQUIRE(both.size() == 2);
    CHECK(both[1]["comments"].empty());
    CHECK(instagram->limits().posts_first_comments);
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram refuses a post without media and media its post type cannot take "
                 "before any call",
                 "[integration][social]") {
    const auto t = target(connect());
    fake.clear_calls();
    const auto text_only = instagram->publish(t, post("Just words", {}));
    REQUIRE(text_only.failure);
    CHECK(text_only.failure->kind == FailureKind::refused);
    CHECK(text_only.failure->reason.find("without an image or a video") != std::string::npos);
    const auto image = fake.media_url("a.jpg", "image/jpeg", 1000);
    const auto reel = instagram->publish(t, post("no video", {image}, "reel"));
    REQUIRE(reel.failure);
    CHECK(reel.failure->kind == FailureKind::refused);
    auto upload = post("uploaded", {image});
    upload.uploads = {social::Upload{"a.jpg", "image/jpeg", "bytes"}};
    const auto uploaded = instagram->publish(t, upload);
    REQUIRE(uploaded.failure);
    CHECK(uploaded.failure->reason.find("only by public URL") != std::string::npos);
    CHECK(fake.calls("/instagram/").empty());

    // The posts validator knows it too, and Instagram cannot change published media.
    const auto& limits = instagram->limits();
    CHECK(limits.requires_media);
    CHECK_FALSE(limits.can_edit);
    CHECK_FALSE(limits.can_remove);
    CHECK(instagram->edit(t, "17900000000000001", post("changed", {image})).failure);
    CHECK(instagram->remove(t, "17900000000000001").failure);
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram refuses captions over 2200 characters or with more than 30 hashtags "
                 "before any call",
                 "[integration][social]") {
    const auto t = target(connect());
    fake.clear_calls();
    const auto image = fake.media_url("a.jpg", "image/jpeg", 1000);
    std::string longest;
    for (int i = 0; i < 2200; ++i) longest += "é";
    REQUIRE_FALSE(instagram->publish(t, post(longest, {image})).failure);
    const auto too_long = instagram->publish(t, post(longest + "!", {image}));
    REQUIRE(too_long.failure);
    CHECK(too_long.failure->kind == FailureKind::refused);
    CHECK(too_long.failure->reason ==
          "Instagram captions have at most 2200 characters (this one has 2201)");

    std::string tags;
    for (int i = 0; i < 30; ++i) tags += "#tag" + std::to_string(i) + " ";
    REQUIRE_FALSE(instagram->publish(t, post(tags + "C# and a # alone", {image})).failure);
    const auto too_many = instagram->publish(t, post(tags + "#one_more", {image}));
    REQUIRE(too_many.failure);
    CHECK(too_many.failure->reason ==
          "Instagram captions have at most 30 hashtags (this one has 31)");
    CHECK(containers_made().size() == 2);
    CHECK(media().size() == 2);
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram refuses a post whose container ends in ERROR with its status",
                 "[integration][social]") {
    const auto t = target(connect());
    fake.control_platform("instagram", "container_error",
                          {{"status", "Error: Media upload has failed with error code 2207026"}});
    const auto failed =
        instagram->publish(t, post("broken", {fake.media_url("a.jpg", "image/jpeg", 1000)}));
    REQUIRE(failed.failure);
    CHECK(failed.failure->kind == FailureKind::refused);
    CHECK(failed.failure->reason ==
          "Instagram could not process the media: Error: Media upload has failed with error "
          "code 2207026");

    const auto png = instagram->publish(t, post("png", {fake.media_url("b.png", "image/png", 10)}));
    REQUIRE(png.failure);
    CHECK(png.failure->kind == FailureKind::refused);
    CHECK(png.failure->reason.find("Only JPEG format is supported") != std::string::npos);
    // Each publish was answered not ready and its container then read as ERROR.
    CHECK(publishes().size() == 2);
    CHECK(media().empty());
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram refuses a dead token on the access_token field and names a missing "
                 "permission",
                 "[integration][social]") {
    const auto credentials = connect();
    const auto image = fake.media_url("a.jpg", "image/jpeg", 1000);
    fake.control_platform("instagram", "expire", {{"user_id", facebook_user}});
    const auto expired = instagram->publish(target(credentials), post("a", {image}));
    REQUIRE(expired.failure);
    CHECK(expired.failure->kind == FailureKind::refused);
    CHECK(expired.failure->field == "access_token");
    CHECK(expired.failure->reason.starts_with("Error validating access token"));

    const auto reader = target(
        connect({{"scopes", {"instagram_basic", "pages_show_list", "pages_read_engagement"}}}));
    const auto refused = instagram->publish(reader, post("b", {image}));
    REQUIRE(refused.failure);
    CHECK(refused.failure->kind == FailureKind::refused);
    CHECK(refused.failure->field.empty());
    CHECK(refused.failure->reason ==
          "(#10) Application does not have permission for this action (this needs the "
          "instagram_content_publish permission: reconnect the account and grant it)");
    CHECK(media().empty());
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram throttling and 5xx are not accepted with the delay Meta names",
                 "[integration][social]") {
    const auto t = target(connect());
    const auto image = fake.media_url("a.jpg", "image/jpeg", 1000);
    fake.control_platform("instagram", "throttle", {{"code", 80002}, {"minutes", 7}});
    const auto throttled = instagram->publish(t, post("a", {image}));
    REQUIRE(throttled.failure);
    CHECK(throttled.failure->kind == FailureKind::not_accepted);
    CHECK(throttled.failure->http_status == 400);
    CHECK(throttled.failure->retry_after == std::chrono::seconds(7 * 60));

    fake.program("/media_publish", {{{"status", 400},
                                     {"body",
                                      {{"error",
                                        {{"message", "(#4) Application request limit reached"},
                                         {"type", "OAuthException"},
                                         {"code", 4}}}}}}});
    const auto app_limit = instagram->publish(t, post("b", {image}));
    REQUIRE(app_limit.failure);
    CHECK(app_limit.failure->kind == FailureKind::not_accepted);
    CHECK(app_limit.failure->reason == "(#4) Application request limit reached");

    fake.program("/media_publish",
                 {{{"status", 503},
                   {"retry_after", "30"},
                   {"body", {{"error", {{"message", "Service unavailable"}, {"code", 2}}}}}}});
    const auto unavailable = instagram->publish(t, post("c", {image}));
    REQUIRE(unavailable.failure);
    CHECK(unavailable.failure->kind == FailureKind::not_accepted);
    CHECK(unavailable.failure->http_status == 503);
    CHECK(unavailable.failure->retry_after == std::chrono::seconds(30));
    CHECK(media().empty());
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram media_publish without an answer is an unknown outcome and a lost "
                 "container or upload is not accepted",
                 "[integration][social]") {
    const auto t = target(connect());
    const auto image = fake.media_url("a.jpg", "image/jpeg", 1000);
    fake.program("/media_publish", {{{"delay_ms", 1500}}});
    const auto slow = instagram->publish(t, post("a", {image}));
    REQUIRE(slow.failure);
    CHECK(slow.failure->kind == FailureKind::unknown_outcome);
    CHECK(slow.failure->http_status == 0);

    fake.program("/v19.0/" + account_id + "/media", {{{"delay_ms", 1500}}});
    const auto no_container = instagram->publish(t, post("b", {image}));
    REQUIRE(no_container.failure);
    CHECK(no_container.failure->kind == FailureKind::not_accepted);

    fs::ScratchDirectory folder("squawk-instagram-video-");
    auto reel = post("c", {}, "reel");
    reel.video = video_file(folder, 10'000, {.seconds = 12});
    fake.program("/ig-api-upload/", {{{"reset", true}}});
    const auto lost_upload = instagram->publish(t, reel);
    REQUIRE(lost_upload.failure);
    CHECK(lost_upload.failure->kind == FailureKind::not_accepted);
    CHECK(publishes().size() == 1);
}

TEST_CASE_METHOD(InstagramAccount, "Instagram lists the account's recent media newest first",
                 "[integration][social]") {
    const auto t = target(connect());
    const auto ours =
        instagram->publish(t, post("from Squawk", {fake.media_url("a.jpg", "image/jpeg", 1)}));
    REQUIRE_FALSE(ours.failure);
    const auto native = fake.control_platform(
        "instagram", "media", {{"user_id", account_id}, {"caption", "from the app"}});
    const auto listing = instagram->list_recent(t);
    REQUIRE(listing);
    REQUIRE_FALSE(listing->failure);
    REQUIRE(listing->posts.size() == 2);
    CHECK(listing->posts[0].external_id == native["id"]);
    CHECK(listing->posts[0].text == "from the app");
    CHECK(listing->posts[0].url == native["permalink"].get<std::string>());
    CHECK(listing->posts[1].external_id == ours.message_id);
    CHECK(listing->posts[1].text == "from Squawk");
    CHECK(listing->posts[1].url == ours.url);
    const auto age = time::now() - listing->posts[1].published_at;
    CHECK(age < std::chrono::minutes(1));
    CHECK(age > -std::chrono::minutes(1));
    const auto query = call_query(calls_to("/v19.0/" + account_id + "/media", "GET").back());
    CHECK(query.at("fields") == "id,caption,permalink,timestamp");
    CHECK(query.at("limit") == "100");

    fake.control_platform("instagram", "throttle", {{"code", 4}, {"minutes", 1}});
    const auto throttled = instagram->list_recent(t);
    REQUIRE(throttled);
    REQUIRE(throttled->failure);
    CHECK(throttled->failure->kind == FailureKind::not_accepted);
}

TEST_CASE_METHOD(InstagramAccount,
                 "Instagram reads the account's followers and reach and a post's insights",
                 "[integration][social]") {
    const auto t = target(connect());
    fake.control_platform("instagram", "insights",
                          {{"id", account_id}, {"reach", 640}, {"views", 2100}});
    const auto account = instagram->account_metrics(t);
    REQUIRE(account);
    REQUIRE_FALSE(account->failure);
    CHECK(account->metrics.followers == 1200);
    CHECK(account->metrics.following == 80);
    CHECK(account->metrics.reach == 640);
    CHECK(account->metrics.impressions == 2100);
    const auto insights = call_query(calls_to("/v19.0/" + account_id + "/insights").at(0));
    CHECK(insights.at("metric") == "reach,views");
    CHECK(insights.at("period") == "day");
    CHECK(insights.at("metric_type") == "total_value");

    fs::ScratchDirectory folder("squawk-instagram-video-");
    auto reel = post("measured", {}, "reel");
    reel.video = video_file(folder, 5000, {.seconds = 12});
    const auto p = instagram->publish(t, reel);
    REQUIRE_FALSE(p.failure);
    fake.control_platform("instagram", "insights",
                          {{"id", p.message_id},
                           {"like_count", 42},
                           {"comments_count", 5},
                           {"reach", 900},
                           {"saved", 12},
                           {"shares", 3},
                           {"views", 1500}});
    const auto measured = instagram->post_metrics(t, p.message_id);
    REQUIRE(measured);
    REQUIRE_FALSE(measured->failure);
    const auto& m = measured->metrics;
    CHECK(m.likes == 42);
    CHECK(m.comments == 5);
    CHECK(m.reach == 900);
    CHECK(m.saves == 12);
    CHECK(m.shares == 3);
    CHECK(m.impressions == 1500);
    CHECK(m.video_views == 1500);

    // A story has no saves to ask for.
    const auto story =
        instagram->publish(t, post("", {fake.media_url("s.jpg", "image/jpeg", 1)}, "story"));
    REQUIRE_FALSE(story.failure);
    const auto story_metrics = instagram->post_metrics(t, story.message_id);
    REQUIRE(story_metrics);
    REQUIRE_FALSE(story_metrics->failure);
    CHECK_FALSE(story_metrics->metrics.saves);
    CHECK(story_metrics->metrics.reach == 0);

    // Without instagram_manage_insights the counts insights give stay empty.
    const auto basic = target(
        connect({{"scopes", {"instagram_basic", "instagram_content_publish", "pages_show_list"}}}));
    const auto partial = instagram->account_metrics(basic);
    REQUIRE(partial);
    CHECK_FALSE(partial->failure);
    CHECK(partial->metrics.followers == 1200);
    CHECK_FALSE(partial->metrics.reach);
}

TEST_CASE("Instagram checks its platform options against the post type", "[integration][social]") {
    using social::instagram::check_options;
    CHECK(check_options({{"share_to_feed", false}, {"thumb_offset", 0}}, "reel").empty());
    CHECK(check_options({{"collaborators", {"a.b", "c_d"}}, {"location_id", "1100"}}, "post")
              .empty());
    const auto reel_only = check_options({{"share_to_feed", true}}, "post");
    REQUIRE(reel_only.size() == 1);
    CHECK(reel_only[0].field == "share_to_feed");
    CHECK(check_options({{"collaborators", {"a", "b", "c", "d"}}}, "post").size() == 1);
    CHECK(check_options({{"collaborators", {"not a name"}}}, "reel").size() == 1);
    CHECK(check_options({{"thumb_offset", -1}}, "reel").size() == 1);
    CHECK(check_options({{"location_id", "x"}}, "post").size() == 1);
    CHECK(check_options({{"location_id", "1100"}}, "story").size() == 1);
    const auto unknown = check_options({{"filter", "clarendon"}}, "post");
    REQUIRE(unknown.size() == 1);
    CHECK(unknown[0].reason == "is not an option of instagram");
    CHECK(social::instagram::hashtag_count("#a #b C#c #_d # #") == 3);
}

namespace {

// A published photo people commented on, for the inbox's operations.
struct CommentedMedia : InstagramAccount {
    CommentedMedia() {
        const auto p = instagram->publish(
            account, post("Latte art", {fake.media_url("a.jpg", "image/jpeg", 1000)}));
        REQUIRE_FALSE(p.failure);
        media_id = p.message_id;
        first = comment("Lovely!", "")["id"];
        answer = comment("Agreed", first)["id"];
        second = comment("Open on Sunday?", "")["id"];
    }
    json comment(const std::string& text, const std::string& parent) {
        return fake.control_platform("instagram", "comment",
                                     {{"media_id", media_id},
                                      {"parent_id", parent},
                                      {"from", {{"id", "17841400000000099"}, {"username", "ben"}}},
                                      {"text", text}});
    }
    json comments() { return media()[0]["comments"]; }
    social::Target account = target(connect());
    std::string media_id, first, answer, second;
};

}  // namespace

TEST_CASE_METHOD(CommentedMedia,
                 "Instagram lists a media's comments each followed by its replies, page by page",
                 "[integration][social]") {
    const auto listed = instagram->list_comments(account, media_id, "");
    REQUIRE(listed);
    REQUIRE_FALSE(listed->failure);
    REQUIRE(listed->comments.size() == 3);
    CHECK(listed->comments[0].external_id == first);
    CHECK(listed->comments[0].author_name == "ben");
    CHECK(listed->comments[0].text == "Lovely!");
    CHECK(listed->comments[1].external_id == answer);
    CHECK(listed->comments[1].parent_id == first);
    CHECK(listed->comments[2].external_id == second);
    CHECK_FALSE(listed->next_cursor);

    for (int i = 0; i < 50; ++i) comment("more " + std::to_string(i), "");
    const auto page_one = instagram->list_comments(account, media_id, "");
    REQUIRE(page_one->next_cursor);
    const auto page_two = instagram->list_comments(account, media_id, *page_one->next_cursor);
    REQUIRE_FALSE(page_two->failure);
    CHECK(page_two->comments.size() == 2);
    CHECK(page_two->comments.back().text == "more 49");
}

TEST_CASE_METHOD(CommentedMedia,
                 "Instagram answers a comment, hides and shows it, deletes it and offers no likes",
                 "[integration][social]") {
    const auto reply = instagram->reply_to_comment(account, second, message("Yes, from 9"));
    REQUIRE(reply);
    REQUIRE_FALSE(reply->failure);
    CHECK(comments()[1]["replies"][0]["text"] == "Yes, from 9");
    CHECK(comments()[1]["replies"][0]["from"]["username"] == "squawk.app");

    REQUIRE_FALSE(instagram->moderate_comment(account, first, social::Moderation::hide)->failure);
    CHECK(comments()[0]["hidden"] == true);
    CHECK(instagram->list_comments(account, media_id, "")->comments[0].hidden);
    REQUIRE_FALSE(instagram->moderate_comment(account, first, social::Moderation::unhide)->failure);
    CHECK(comments()[0]["hidden"] == false);

    REQUIRE_FALSE(
        instagram->moderate_comment(account, answer, social::Moderation::remove)->failure);
    CHECK(comments()[0]["replies"].empty());
    CHECK_FALSE(instagram->moderate_comment(account, answer, social::Moderation::remove)->failure);

    CHECK_FALSE(instagram->like_comment(account, first));
    CHECK_FALSE(instagram->send_direct_message(account, {}));
}

TEST_CASE_METHOD(InstagramAccount, "Instagram's comment calls need instagram_manage_comments",
                 "[integration][social]") {
    const auto partial = target(
        connect({{"scopes", {"instagram_basic", "instagram_content_publish", "pages_show_list"}}}));
    const auto p =
        instagram->publish(partial, post("Quiet", {fake.media_url("a.jpg", "image/jpeg", 1000)}));
    REQUIRE_FALSE(p.failure);
    const auto listed = instagram->list_comments(partial, p.message_id, "");
    REQUIRE(listed->failure);
    CHECK(listed->failure->kind == FailureKind::refused);
    CHECK(listed->failure->reason.find("instagram_manage_comments") != std::string::npos);
}
