// The TikTok connector against the fake TikTok API: the Login Kit round trip (client_key, comma
// scopes, PKCE, a day's access token and its refresh), verify, Direct Post of videos uploaded in
// chunks by TikTok's rules and of photos by URL, the privacy level and switches from the post's
// options and the creator's settings, listing, metrics, and each failure classified as the
// publish worker relies on.
#include "common/core/fs/work_files.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/extensions/platforms/tiktok/factory.hpp"
#include "tests/support/connector_fixture.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace squawk;
using namespace squawk::testing;
using nlohmann::json;
using social::FailureKind;

namespace {

// RFC 7636's example verifier (appendix B) and its S256 challenge.
const std::string kTikTokScopes =
    "user.info.basic user.info.profile user.info.stats video.list video.publish";
constexpr long long kChunk = 8 * 1024 * 1024;

// The TikTok creator @squawkapp, who consents when the tests connect the account.
struct TikTokAccount : ConnectorFixture {
    explicit TikTokAccount(json settings = json::object()) {
        settings["open_id"] = open_id;
        settings["username"] = "squawkapp";
        settings["display_name"] = "Squawk";
        settings["follower_count"] = 1200;
        settings["following_count"] = 31;
        settings["likes_count"] = 98000;
        fake.control_platform("tiktok", "user", settings);
    }

    const std::string open_id = "-000Squawk0penId";
    std::unique_ptr<social::Connector> tiktok = connector("tiktok");
    const social::OAuthClient client = oauth_client("tiktok");

    std::map<std::string, std::string> authorize(const std::string& verifier,
                                                 json choice = json::object()) {
        choice["user_id"] = open_id;
        fake.control_platform("tiktok", "next_consent", choice);
        return consent(
            tiktok->authorize_url(client, "state-42", social::code_challenge_of(verifier)));
    }

    social::Credentials connect(json choice = json::object()) {
        const auto redirect = authorize(kPkceVerifier, std::move(choice));
        REQUIRE(redirect.contains("code"));
        auto grant = tiktok->exchange_code(client, redirect.at("code"), kPkceVerifier);
        REQUIRE_FALSE(grant.failure);
        return grant.credentials;
    }

    social::Target target(social::Credentials credentials) const {
        return {{open_id, "Squawk", "squawkapp"}, std::move(credentials)};
    }

    // The account's videos on the fake, oldest first.
    json videos() { return fake.messages()["tiktok"].value(open_id, json::array()); }

    // The JSON body of the `index`th call whose path contains `match`.
    json sent(const std::string& match, size_t index = 0) {
        const auto calls = fake.calls(match);
        REQUIRE(calls.size() > index);
        return json::parse(calls[index]["body"].get<std::string>());
    }
};

social::Message video_message(const fs::ScratchDirectory& folder, long long bytes,
                              json options = json::object()) {
    auto m = message("Sunrise over the bay #timelapse");
    m.video = video_file(folder, bytes, {.seconds = 12});
    m.post_type = "video";
    m.options = std::move(options);
    return m;
}

social::Message photo_message(json options = json::object()) {
    auto m = message(
        "Three views of the harbour",
        {"https://img.example/a.jpeg", "https://img.example/b.jpeg", "https://img.example/c.jpeg"});
    m.post_type = "photo";
    m.options = std::move(options);
    return m;
}

json tiktok_error(const std::string& code, const std::string& message) {
    return {{"data", json::object()},
            {"error", {{"code", code}, {"message", message}, {"log_id", "20261126TEST"}}}};
}

}  // namespace

TEST_CASE("TikTok is registered as an OAuth platform posting videos and photos",
          "[integration][social]") {
    const auto* tiktok = social::find_platform("tiktok");
    REQUIRE(tiktok);
    CHECK(tiktok->display_name == "TikTok");
    CHECK(tiktok->connect_style == social::ConnectStyle::oauth);
    CHECK(tiktok->default_base_url == "https://open.tiktokapis.com");
    CHECK(tiktok->default_authorize_url == "https://www.tiktok.com/v2/auth/authorize/");
    CHECK(social::default_post_type(*tiktok) == "video");
    CHECK(social::takes_post_type(*tiktok, "photo"));
    CHECK_FALSE(social::takes_post_type(*tiktok, "story"));
    CHECK(tiktok->limits.max_text_chars == 2200);
    CHECK(tiktok->limits.max_images == 35);
    CHECK(tiktok->limits.requires_media);
    CHECK_FALSE(tiktok->limits.can_edit);
    CHECK_FALSE(tiktok->limits.can_remove);
}

TEST_CASE("TikTok options take a privacy level and the interaction switches and nothing else",
          "[integration][social]") {
    const auto check = social::tiktok::kFactory.check_options;
    CHECK(check({{"privacy_level", "SELF_ONLY"},
                 {"disable_comment", true},
                 {"disable_duet", false},
                 {"disable_stitch", true}},
                "video")
              .empty());
    CHECK(check({{"privacy_level", "MUTUAL_FOLLOW_FRIENDS"}, {"disable_comment", true}}, "photo")
              .empty());

    const auto wrong = check({{"privacy_level", "FRIENDS"}, {"disable_comment", "yes"}}, "video");
    REQUIRE(wrong.size() == 2);
    CHECK(wrong[0].field == "disable_comment");
    CHECK(wrong[0].reason == "must be true or false");
    CHECK(wrong[1].field == "privacy_level");
    CHECK(wrong[1].reason.find("PUBLIC_TO_EVERYONE") != std::string::npos);

    const auto photo = check({{"disable_duet", true}}, "photo");
    REQUIRE(photo.size() == 1);
    CHECK(photo[0].reason == "applies to video posts only");

    const auto unknown = check({{"auto_add_music", true}}, "photo");
    REQUIRE(unknown.size() == 1);
    CHECK(unknown[0].field == "auto_add_music");
    CHECK(unknown[0].reason == "is not an option of tiktok");
}

TEST_CASE_METHOD(TikTokAccount,
                 "TikTok consent URL names the application by client_key and joins the scopes "
                 "with commas",
                 "[integration][social]") {
    const auto url = tiktok->authorize_url(client, "state-42", kPkceChallenge);
    REQUIRE(url.starts_with(fake.authorize_url("tiktok") + "?"));
    const auto query = query_fields(url);
    CHECK(query.at("client_key") == fake.oauth_client_id());
    CHECK_FALSE(query.contains("client_id"));
    CHECK(query.at("response_type") == "code");
    CHECK(query.at("scope") ==
          "user.info.basic,user.info.profile,user.info.stats,video.list,video.publish");
    CHECK(query.at("redirect_uri") == client.redirect_uri);
    CHECK(query.at("state") == "state-42");
    CHECK(query.at("code_challenge") == kPkceChallenge);
    CHECK(query.at("code_challenge_method") == "S256");
}

TEST_CASE_METHOD(TikTokAccount,
                 "TikTok trades a consent code once for a day's access token and a refresh token",
                 "[integration][social]") {
    const auto redirect = authorize(kPkceVerifier);
    CHECK(redirect.at("state") == "state-42");
    const long long before = time::to_unix_ms(time::now()) / 1000;
    const auto grant = tiktok->exchange_code(client, redirect.at("code"), kPkceVerifier);
    REQUIRE_FALSE(grant.failure);
    const auto& tokens = grant.credentials;
    CHECK(tokens.at("access_token").starts_with("act."));
    CHECK(tokens.at("refresh_token").starts_with("rft."));
    CHECK(tokens.at("scope") == kTikTokScopes);
    CHECK(social::missing_scopes(tokens, social::tiktok::kFactory.oauth_scopes).empty());
    CHECK(std::stoll(tokens.at("expires_at")) >= before + 86400);
    CHECK(std::stoll(tokens.at("expires_at")) <= before + 86402);

    // The application as client_key and client_secret among the form fields.
    const auto calls = fake.calls("/tiktok/v2/oauth/token/");
    REQUIRE(calls.size() == 1);
    const auto form = form_fields(calls[0]["body"].get<std::string>());
    CHECK(form.at("client_key") == fake.oauth_client_id());
    CHECK(form.at("client_secret") == fake.oauth_client_secret());
    CHECK(form.at("grant_type") == "authorization_code");
    CHECK(form.at("code") == redirect.at("code"));
    CHECK(form.at("redirect_uri") == client.redirect_uri);
    CHECK(form.at("code_verifier") == kPkceVerifier);

    const auto reused = tiktok->exchange_code(client, redirect.at("code"), kPkceVerifier);
    REQUIRE(reused.failure);
    CHECK(reused.failure->kind == FailureKind::refused);
    CHECK(reused.failure->http_status == 400);
    CHECK(reused.failure->reason == "Authorization code is expired.");

    const auto other = authorize(kPkceVerifier);
    const auto wrong = tiktok->exchange_code(client, other.at("code"), kPkceVerifier + "0");
    REQUIRE(wrong.failure);
    CHECK(wrong.failure->reason == "Code verifier or code challenge is invalid.");

    auto stranger = client;
    stranger.client_secret = "not-the-secret";
    const auto third = authorize(kPkceVerifier);
    const auto unknown = tiktok->exchange_code(stranger, third.at("code"), kPkceVerifier);
    REQUIRE(unknown.failure);
    CHECK(unknown.failure->kind == FailureKind::refused);
    CHECK(unknown.failure->http_status == 401);
}

TEST_CASE_METHOD(TikTokAccount,
                 "TikTok refresh gets a new access token for the refresh token after a day",
                 "[integration][social]") {
    const auto first = connect();
    fake.control_platform("tiktok", "expire", {{"user_id", open_id}});
    const auto expired = tiktok->verify(first);
    REQUIRE(expired.failure);
    CHECK(expired.failure->field == "access_token");

    const auto renewed = tiktok->refresh(client, first);
    REQUIRE_FALSE(renewed.failure);
    CHECK(renewed.credentials.at("access_token") != first.at("access_token"));
    CHECK(renewed.credentials.at("scope") == kTikTokScopes);
    const auto form =
        form_fields(fake.calls("/tiktok/v2/oauth/token/")[1]["body"].get<std::string>());
    CHECK(form.at("grant_type") == "refresh_token");
    CHECK(form.at("refresh_token") == first.at("refresh_token"));
    CHECK(form.at("client_key") == fake.oauth_client_id());
    CHECK(form.at("client_secret") == fake.oauth_client_secret());
    CHECK(tiktok->verify(renewed.credentials).identity);

    fake.revoke(first.at("refresh_token"));
    const auto revoked = tiktok->refresh(client, first);
    REQUIRE(revoked.failure);
    CHECK(revoked.failure->kind == FailureKind::refused);
    CHECK(revoked.failure->reason == "Refresh token is invalid or expired.");
}

TEST_CASE_METHOD(TikTokAccount, "TikTok verify names the account by open_id and name and username",
                 "[integration][social]") {
    auto credentials = connect();
    CHECK(tiktok->check(credentials).empty());
    const auto v = tiktok->verify(credentials);
    REQUIRE(v.identity);
    CHECK(v.identity->external_id == open_id);
    CHECK(v.identity->display_name == "Squawk");
    CHECK(v.identity->handle == "squawkapp");
    const auto calls = fake.calls("/tiktok/v2/user/info/");
    REQUIRE(calls.size() == 1);
    CHECK(calls[0]["headers"]["authorization"] == "Bearer " + credentials.at("access_token"));

    social::Credentials typed;
    const auto problems = tiktok->check(typed);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].field == "access_token");
}

TEST_CASE_METHOD(TikTokAccount,
                 "TikTok uploads a 20 MB video in two chunks with the last one taking the rest",
                 "[integration][social]") {
    fs::ScratchDirectory folder("squawk-tiktok-video-");
    const long long size = 20'000'000;
    const auto p = tiktok->publish(target(connect()), video_message(folder, size));
    REQUIRE_FALSE(p.failure);

    const auto init = sent("/tiktok/v2/post/publish/video/init/");
    CHECK(init["source_info"]["source"] == "FILE_UPLOAD");
    CHECK(init["source_info"]["video_size"] == size);
    CHECK(init["source_info"]["chunk_size"] == kChunk);
    CHECK(init["source_info"]["total_chunk_count"] == 2);
    CHECK(init["post_info"]["title"] == "Sunrise over the bay #timelapse");
    CHECK(init["post_info"]["privacy_level"] == "PUBLIC_TO_EVERYONE");

    const auto posted = videos();
    REQUIRE(posted.size() == 1);
    const auto& chunks = posted[0]["chunks"];
    REQUIRE(chunks.size() == 2);
    CHECK(chunks[0]["bytes"] == kChunk);
    CHECK(chunks[0]["content_range"] == "bytes 0-8388607/20000000");
    CHECK(chunks[1]["bytes"] == size - kChunk);
    CHECK(chunks[1]["content_range"] == "bytes 8388608-19999999/20000000");
    CHECK(chunks[0]["content_type"] == "video/mp4");
    CHECK(p.message_id == posted[0]["id"]);
    CHECK(p.url == "https://www.tiktok.com/@squawkapp/video/" + p.message_id);
}

TEST_CASE_METHOD(TikTokAccount, "TikTok uploads a video smaller than a chunk whole",
                 "[integration][social]") {
    fs::ScratchDirectory folder("squawk-tiktok-video-");
    const long long size = 3'000'000;
    const auto p = tiktok->publish(target(connect()), video_message(folder, size));
    REQUIRE_FALSE(p.failure);
    const auto init = sent("/tiktok/v2/post/publish/video/init/");
    CHECK(init["source_info"]["chunk_size"] == size);
    CHECK(init["source_info"]["total_chunk_count"] == 1);
    const auto posted = videos();
    REQUIRE(posted.size() == 1);
    REQUIRE(posted[0]["chunks"].size() == 1);
    CHECK(posted[0]["chunks"][0]["content_range"] == "bytes 0-2999999/3000000");
}

TEST_CASE_METHOD(TikTokAccount,
                 "TikTok publishes images by URL as a photo post with the text as its description",
                 "[integration][social]") {
    const auto p = tiktok->publish(target(connect()), photo_message({{"disable_comment", true}}));
    REQUIRE_FALSE(p.failure);
    const auto init = sent("/tiktok/v2/post/publish/content/init/");
    CHECK(init["media_type"] == "PHOTO");
    CHECK(init["post_mode"] == "DIRECT_POST");
    CHECK(init["source_info"]["source"] == "PULL_FROM_URL");
    CHECK(init["source_info"]["photo_images"] ==
          json::array({"https://img.example/a.jpeg", "https://img.example/b.jpeg",
                       "https://img.example/c.jpeg"}));
    CHECK(init["source_info"]["photo_cover_index"] == 0);
    CHECK(init["post_info"]["description"] == "Three views of the harbour");
    CHECK(init["post_info"]["disable_comment"] == true);
    CHECK_FALSE(init["post_info"].contains("disable_duet"));
    const auto posted = videos();
    REQUIRE(posted.size() == 1);
    CHECK(posted[0]["media_type"] == "PHOTO");
    CHECK(p.message_id == posted[0]["id"]);

    // TikTok pulls photos itself: one the media plan downloaded cannot go.
    auto uploaded = photo_message();
    uploaded.uploads = {social::Upload{"a.jpeg", "image/jpeg", "jpeg"}};
    const auto refused = tiktok->publish(target(connect()), uploaded);
    REQUIRE(refused.failure);
    CHECK(refused.failure->kind == FailureKind::refused);
    CHECK(refused.failure->reason.find("only by URL") != std::string::npos);
}

TEST_CASE_METHOD(TikTokAccount,
                 "TikTok's fake dates a post at the call that handed over its last part, not at "
                 "the status read that found it published",
                 "[integration][social]") {
    // The fake's publish log is what benchmarks time publishing by: TikTok processes a post
    // after the call, and the status reads that follow only watch.
    const auto logged_at = [&] {
        return fake.publishes().back()["received_at_ms"].get<long long>();
    };
    const auto received_at = [&](const std::string& match, size_t index) {
        return fake.calls(match)[index]["received_at_ms"].get<long long>();
    };
    const auto credentials = connect();

    REQUIRE_FALSE(tiktok->publish(target(credentials), photo_message()).failure);
    const auto photo_logged = logged_at();
    CHECK(photo_logged - received_at("/content/init/", 0) <= 5);
    // The first status read answers that TikTok is processing; the next one, a pause later, done.
    CHECK(received_at("/status/fetch/", 1) - photo_logged >= 200);

    fs::ScratchDirectory folder("squawk-tiktok-dated-");
    REQUIRE_FALSE(tiktok->publish(target(credentials), video_message(folder, 3'000'000)).failure);
    const auto video_logged = logged_at();
    CHECK(video_logged - received_at("/tiktok/upload/video/", 0) <= 5);
    CHECK(received_at("/status/fetch/", 3) - video_logged >= 200);
}

TEST_CASE_METHOD(TikTokAccount,
                 "TikTok media decide the post - images go as photos and a photo post takes no "
                 "video",
                 "[integration][social]") {
    const auto credentials = connect();
    auto images = photo_message();
    images.post_type = "video";
    const auto photos = tiktok->publish(target(credentials), images);
    REQUIRE_FALSE(photos.failure);
    CHECK(fake.calls("/tiktok/v2/post/publish/content/init/").size() == 1);
    CHECK(fake.calls("/tiktok/v2/post/publish/video/init/").empty());

    fs::ScratchDirectory folder("squawk-tiktok-video-");
    auto clip = video_message(folder, 1'000'000);
    clip.post_type = "photo";
    const auto refused = tiktok->publish(target(credentials), clip);
    REQUIRE(refused.failure);
    CHECK(refused.failure->kind == FailureKind::refused);
    CHECK(refused.failure->reason ==
          "a TikTok photo post takes images, and this post's media is a video");
    CHECK(videos().size() == 1);
}

TEST_CASE("TikTok posts with the privacy level the options name only when the creator allows it",
          "[integration][social]") {
    TikTokAccount account(
        {{"privacy_level_options", json::array({"FOLLOWER_OF_CREATOR", "SELF_ONLY"})},
         {"duet_disabled", true}});
    fs::ScratchDirectory folder("squawk-tiktok-video-");
    const auto credentials = account.connect();

    const auto refused = account.tiktok->publish(
        account.target(credentials),
        video_message(folder, 1'000'000, {{"privacy_level", "PUBLIC_TO_EVERYONE"}}));
    REQUIRE(refused.failure);
    CHECK(refused.failure->kind == FailureKind::refused);
    CHECK(refused.failure->reason ==
          "this TikTok account cannot post as PUBLIC_TO_EVERYONE; it allows FOLLOWER_OF_CREATOR, "
          "SELF_ONLY");
    CHECK(account.fake.calls("/tiktok/v2/post/publish/video/init/").empty());

    // Without a level the creator's first goes; a duet the creator turned off stays off.
    const auto first =
        account.tiktok->publish(account.target(credentials), video_message(folder, 1'000'000));
    REQUIRE_FALSE(first.failure);
    auto init = account.sent("/tiktok/v2/post/publish/video/init/");
    CHECK(init["post_info"]["privacy_level"] == "FOLLOWER_OF_CREATOR");
    CHECK(init["post_info"]["disable_duet"] == true);
    CHECK(init["post_info"]["disable_stitch"] == false);

    // A post only its creator sees has no public id: it is known by its publish_id, without a URL.
    const auto private_post =
        account.tiktok->publish(account.target(credentials),
                                video_message(folder, 1'000'000, {{"privacy_level", "SELF_ONLY"}}));
    REQUIRE_FALSE(private_post.failure);
    CHECK(private_post.message_id.starts_with("v_pub_file~"));
    CHECK_FALSE(private_post.url);
    init = account.sent("/tiktok/v2/post/publish/video/init/", 1);
    CHECK(init["post_info"]["privacy_level"] == "SELF_ONLY");
}

TEST_CASE_METHOD(TikTokAccount, "TikTok refuses a post whose processing FAILED with its reason",
                 "[integration][social]") {
    fs::ScratchDirectory folder("squawk-tiktok-video-");
    fake.control_platform("tiktok", "fail_next", {{"fail_reason", "duration_check_failed"}});
    const auto p = tiktok->publish(target(connect()), video_message(folder, 1'000'000));
    REQUIRE(p.failure);
    CHECK(p.failure->kind == FailureKind::refused);
    CHECK(p.failure->reason == "TikTok did not publish the post: duration_check_failed");
    CHECK(videos().empty());
}

TEST_CASE_METHOD(TikTokAccount, "TikTok refuses a revoked token naming access_token",
                 "[integration][social]") {
    fs::ScratchDirectory folder("squawk-tiktok-video-");
    const auto credentials = connect();
    fake.revoke(credentials.at("access_token"));
    const auto v = tiktok->verify(credentials);
    REQUIRE(v.failure);
    CHECK(v.failure->kind == FailureKind::refused);
    CHECK(v.failure->http_status == 401);
    CHECK(v.failure->field == "access_token");
    const auto p = tiktok->publish(target(credentials), video_message(folder, 1'000'000));
    REQUIRE(p.failure);
    CHECK(p.failure->kind == FailureKind::refused);
    CHECK(p.failure->field == "access_token");
    CHECK(p.failure->reason == "The access token is invalid or not found in the request.");
}

TEST_CASE_METHOD(TikTokAccount, "TikTok names the scope the account did not grant",
                 "[integration][social]") {
    fs::ScratchDirectory folder("squawk-tiktok-video-");
    const auto credentials = connect(
        {{"scopes", {"user.info.basic", "user.info.profile", "user.info.stats", "video.list"}}});
    CHECK(social::missing_scopes(credentials, social::tiktok::kFactory.oauth_scopes) ==
          std::vector<std::string>{"video.publish"});
    const auto p = tiktok->publish(target(credentials), video_message(folder, 1'000'000));
    REQUIRE(p.failure);
    CHECK(p.failure->kind == FailureKind::refused);
    CHECK(p.failure->http_status == 401);
    CHECK(p.failure->reason.starts_with("the account did not grant TikTok's video.publish scope"));
    CHECK(p.failure->field.empty());
    CHECK(videos().empty());
}

TEST_CASE_METHOD(TikTokAccount,
                 "TikTok rate limits and the daily post cap are not accepted and say when to retry",
                 "[integration][social]") {
    fs::ScratchDirectory folder("squawk-tiktok-video-");
    const auto credentials = connect();
    fake.program(
        "/tiktok/v2/post/publish/creator_info/query/",
        {{{"status", 429}, {"body", tiktok_error("rate_limit_exceeded", "Too many requests")}}});
    const auto limited = tiktok->publish(target(credentials), video_message(folder, 1'000'000));
    REQUIRE(limited.failure);
    CHECK(limited.failure->kind == FailureKind::not_accepted);
    CHECK(limited.failure->http_status == 429);
    CHECK(limited.failure->retry_after == std::chrono::seconds(60));

    fake.program("/tiktok/v2/post/publish/video/init/",
                 {{{"status", 429},
                   {"retry_after", "17"},
                   {"body", tiktok_error("rate_limit_exceeded", "Too many requests")}}});
    const auto told = tiktok->publish(target(credentials), video_message(folder, 1'000'000));
    REQUIRE(told.failure);
    CHECK(told.failure->kind == FailureKind::not_accepted);
    CHECK(told.failure->retry_after == std::chrono::seconds(17));

    fake.control_platform("tiktok", "posts_today", {{"user_id", open_id}, {"count", 15}});
    const auto capped = tiktok->publish(target(credentials), video_message(folder, 1'000'000));
    REQUIRE(capped.failure);
    CHECK(capped.failure->kind == FailureKind::not_accepted);
    CHECK(capped.failure->http_status == 403);
    CHECK(capped.failure->retry_after == std::chrono::hours(1));
    CHECK(capped.failure->reason ==
          "The daily post cap from the API is reached for the current user.");
    CHECK(videos().empty());
}

TEST_CASE_METHOD(TikTokAccount, "TikTok server errors before the last chunk are not accepted",
                 "[integration][social]") {
    fs::ScratchDirectory folder("squawk-tiktok-video-");
    const auto credentials = connect();
    fake.program("/tiktok/v2/post/publish/video/init/",
                 {{{"status", 500}, {"body", tiktok_error("internal_error", "Internal error")}}});
    const auto init = tiktok->publish(target(credentials), video_message(folder, 1'000'000));
    REQUIRE(init.failure);
    CHECK(init.failure->kind == FailureKind::not_accepted);
    CHECK(init.failure->http_status == 500);
    CHECK(init.failure->reason == "Internal error");

    // The first of two chunks fails: the upload is incomplete, so nothing is published.
    fake.program("/tiktok/upload/video/", {{{"status", 503}, {"body", json::object()}}});
    const auto chunk = tiktok->publish(target(credentials), video_message(folder, 20'000'000));
    REQUIRE(chunk.failure);
    CHECK(chunk.failure->kind == FailureKind::not_accepted);
    CHECK(chunk.failure->http_status == 503);
    CHECK(chunk.failure->reason.starts_with("chunk 1 of 2: "));

    // Fetching the creator's settings publishes nothing, even when no answer comes.
    fake.program("/tiktok/v2/post/publish/creator_info/query/", {{{"delay_ms", 2000}}});
    const auto slow = tiktok->publish(target(credentials), video_message(folder, 1'000'000));
    REQUIRE(slow.failure);
    CHECK(slow.failure->kind == FailureKind::not_accepted);
    CHECK(videos().empty());
}

TEST_CASE_METHOD(TikTokAccount,
                 "TikTok without an answer once a post went out leaves its outcome unknown",
                 "[integration][social]") {
    fs::ScratchDirectory folder("squawk-tiktok-video-");
    const auto credentials = connect();
    fake.program("/tiktok/v2/post/publish/video/init/", {{{"delay_ms", 2000}}});
    const auto init = tiktok->publish(target(credentials), video_message(folder, 1'000'000));
    REQUIRE(init.failure);
    CHECK(init.failure->kind == FailureKind::unknown_outcome);
    CHECK(init.failure->http_status == 0);

    fake.program("/tiktok/upload/video/", {{{"delay_ms", 2000}}});
    const auto last_chunk = tiktok->publish(target(credentials), video_message(folder, 1'000'000));
    REQUIRE(last_chunk.failure);
    CHECK(last_chunk.failure->kind == FailureKind::unknown_outcome);

    fake.program("/tiktok/v2/post/publish/status/fetch/",
                 {{{"status", 503}, {"body", tiktok_error("internal_error", "Internal error")}}});
    const auto status = tiktok->publish(target(credentials), video_message(folder, 1'000'000));
    REQUIRE(status.failure);
    CHECK(status.failure->kind == FailureKind::unknown_outcome);
    CHECK(status.failure->reason.find("could not be read") != std::string::npos);
}

TEST_CASE_METHOD(TikTokAccount, "TikTok lists the account's videos newest first",
                 "[integration][social]") {
    const auto credentials = connect();
    fake.control_platform("tiktok", "video", {{"user_id", open_id}, {"title", "first clip"}});
    const auto newer =
        fake.control_platform("tiktok", "video", {{"user_id", open_id}, {"title", "second clip"}});
    const auto listing = tiktok->list_recent(target(credentials));
    REQUIRE(listing);
    REQUIRE_FALSE(listing->failure);
    REQUIRE(listing->posts.size() == 2);
    CHECK(listing->posts[0].external_id == newer["id"]);
    CHECK(listing->posts[0].text == "second clip");
    CHECK(listing->posts[0].url == newer["share_url"].get<std::string>());
    CHECK(listing->posts[1].text == "first clip");
    CHECK(time::to_unix_ms(listing->posts[0].published_at) / 1000 ==
          newer["create_time"].get<long long>());
    const auto calls = fake.calls("/tiktok/v2/video/list/");
    REQUIRE(calls.size() == 1);
    CHECK(query_fields(calls[0]["target"].get<std::string>()).at("fields") ==
          "id,title,video_description,create_time,share_url");

    const auto unlisted = connect({{"scopes", json::array({"user.info.basic", "video.publish"})}});
    const auto refused = tiktok->list_recent(target(unlisted));
    REQUIRE(refused);
    REQUIRE(refused->failure);
    CHECK(refused->failure->reason.find("video.list") != std::string::npos);
}

TEST_CASE_METHOD(TikTokAccount, "TikTok reads the account's counts and a video's counts",
                 "[integration][social]") {
    const auto credentials = connect();
    const auto account = tiktok->account_metrics(target(credentials));
    REQUIRE(account);
    REQUIRE_FALSE(account->failure);
    CHECK(account->metrics.followers == 1200);
    CHECK(account->metrics.following == 31);
    CHECK(account->metrics.likes == 98000);

    const auto video = fake.control_platform("tiktok", "video",
                                             {{"user_id", open_id},
                                              {"title", "clip"},
                                              {"like_count", 40},
                                              {"comment_count", 3},
                                              {"share_count", 2},
                                              {"view_count", 900}});
    const auto post = tiktok->post_metrics(target(credentials), video["id"].get<std::string>());
    REQUIRE(post);
    REQUIRE_FALSE(post->failure);
    CHECK(post->metrics.likes == 40);
    CHECK(post->metrics.comments == 3);
    CHECK(post->metrics.shares == 2);
    CHECK(post->metrics.video_views == 900);
    CHECK(sent("/tiktok/v2/video/query/")["filters"]["video_ids"] == json::array({video["id"]}));

    const auto missing = tiktok->post_metrics(target(credentials), "7400000000000000001");
    REQUIRE(missing);
    REQUIRE(missing->failure);
    CHECK(missing->failure->kind == FailureKind::refused);
}
