// The YouTube connector against the fake YouTube Data API: the Google OAuth round trip (offline
// access, the token endpoint on its own host, refreshes that keep the refresh token), the
// channel as identity, videos and Shorts uploaded with the resumable protocol in 8 MiB chunks and
// resumed from what YouTube holds after a lost answer, the metadata options, edits, deletion,
// listing, statistics, and each failure classified as the publish worker relies on.
#include "common/core/fs/work_files.hpp"
#include "common/core/net/target_url.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/extensions/platforms/youtube/factory.hpp"
#include "common/extensions/platforms/youtube/google_api.hpp"
#include "tests/support/connector_fixture.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <thread>

using namespace squawk;
using namespace squawk::testing;
using nlohmann::json;
using social::FailureKind;

namespace {

// RFC 7636's example verifier (appendix B), whose S256 challenge the RFC gives.
const std::string kUpload = "https://www.googleapis.com/auth/youtube.upload";
const std::string kRead = "https://www.googleapis.com/auth/youtube.readonly";
const std::string kManage = "https://www.googleapis.com/auth/youtube.force-ssl";
const std::string kYouTubeScopes = kUpload + " " + kRead + " " + kManage;
const std::string kUploadPath = "/youtube/upload/youtube/v3/videos";
constexpr long long kMiB = 1024 * 1024;

// A landscape video as most uploads are, named by its size so that one test can hold several.
social::Video youtube_video(const fs::ScratchDirectory& folder, long long bytes, int width = 1920,
                            int height = 1080, double seconds = 42) {
    return video_file(folder, bytes,
                      {seconds, width, height, "clip-" + std::to_string(bytes) + ".mp4"});
}

social::Message video_message(std::string text, social::Video video, json options = json::object(),
                              std::string post_type = "video") {
    auto m = message(std::move(text));
    m.video = std::move(video);
    m.options = std::move(options);
    m.post_type = std::move(post_type);
    return m;
}

// The Google account whose channel "Squawk" (@squawkapp) consents when the tests connect it.
struct YouTubeChannel : ConnectorFixture {
    YouTubeChannel() {
        fake.control_platform("youtube", "channel",
                              {{"user_id", user_id},
                               {"id", channel_id},
                               {"title", "Squawk"},
                               {"custom_url", "@squawkapp"},
                               {"subscribers", 1200},
                               {"views", 34000}});
    }

    const std::string user_id = "108000000000000000001";
    const std::string channel_id = "UCsquawk000000000000001a";
    std::unique_ptr<social::Connector> youtube = connector("youtube");
    const social::OAuthClient client = oauth_client("youtube");
    fs::ScratchDirectory folder{"squawk-youtube-"};

    std::map<std::string, std::string> authorize(json choice = json::object(),
                                                 const std::string& user = "") {
        choice["user_id"] = user.empty() ? user_id : user;
        fake.control_platform("youtube", "next_consent", choice);
        return consent(
            youtube->authorize_url(client, "state-42", social::code_challenge_of(kPkceVerifier)));
    }

    social::Credentials connect(json choice = json::object(), const std::string& user = "") {
        const auto redirect = authorize(std::move(choice), user);
        REQUIRE(redirect.contains("code"));
        auto grant = youtube->exchange_code(client, redirect.at("code"), kPkceVerifier);
        REQUIRE_FALSE(grant.failure);
        return grant.credentials;
    }

    social::Target target(social::Credentials credentials) const {
        return {{channel_id, "Squawk", "@squawkapp"}, std::move(credentials)};
    }

    // The channel's videos on the fake, oldest first.
    json videos() { return fake.messages()["youtube"].value(channel_id, json::array()); }
    // The upload sessions: the Content-Range of each chunk kept, bytes received, the video made.
    json uploads() { return fake.control_platform("youtube", "uploads", json::object()); }
    // The one upload session there is.
    json upload() {
        const auto all = uploads();
        REQUIRE(all.size() == 1);
        return all.begin().value();
    }
};

}  // namespace

TEST_CASE("YouTube is registered as an OAuth platform whose token endpoint has its own host",
          "[integration][social]") {
    ConnectorFixture f;
    const auto* youtube = social::find_platform("youtube");
    REQUIRE(youtube);
    CHECK(youtube->display_name == "YouTube");
    CHECK(youtube->connect_style == social::ConnectStyle::oauth);
    CHECK(youtube->default_base_url == "https://www.googleapis.com");
    CHECK(youtube->default_authorize_url == "https://accounts.google.com/o/oauth2/v2/auth");
    CHECK(youtube->default_token_url == "https://oauth2.googleapis.com/token");
    CHECK(social::default_post_type(*youtube) == "video");
    CHECK(social::takes_post_type(*youtube, "short"));
    CHECK_FALSE(social::takes_post_type(*youtube, "post"));
    CHECK(youtube->limits.requires_media);
    CHECK(youtube->limits.max_images == 0);
    CHECK(youtube->limits.can_edit);
    CHECK(youtube->limits.can_remove);
    CHECK(youtube->limits.max_text_chars == 5000);
    CHECK_FALSE(youtube->limits.media.video_types.empty());
    CHECK(f.fake.token_url("youtube") == f.fake.base_url("youtube") + "/token");
}

TEST_CASE_METHOD(YouTubeChannel,
                 "YouTube consent URL asks offline access with a forced consent and every scope",
                 "[integration][social]") {
    const auto url = youtube->authorize_url(client, "state-42", kPkceChallenge);
    REQUIRE(url.starts_with(fake.authorize_url("youtube") + "?"));
    const auto query = query_fields(url);
    CHECK(query.at("response_type") == "code");
    CHECK(query.at("client_id") == fake.oauth_client_id());
    CHECK(query.at("redirect_uri") == client.redirect_uri);
    CHECK(query.at("scope") == kYouTubeScopes);
    CHECK(query.at("state") == "state-42");
    CHECK(query.at("code_challenge") == kPkceChallenge);
    CHECK(query.at("code_challenge_method") == "S256");
    CHECK(query.at("access_type") == "offline");
    CHECK(query.at("prompt") == "consent");
}

TEST_CASE_METHOD(YouTubeChannel,
                 "YouTube trades a consent code at Google's token endpoint for an access and a "
                 "refresh token",
                 "[integration][social]") {
    const auto redirect = authorize();
    CHECK(redirect.at("state") == "state-42");
    const long long before = time::to_unix_ms(time::now()) / 1000;
    const auto grant = youtube->exchange_code(client, redirect.at("code"), kPkceVerifier);
    REQUIRE_FALSE(grant.failure);
    const auto& tokens = grant.credentials;
    CHECK(tokens.at("access_token").starts_with("ya29."));
    CHECK_FALSE(tokens.at("refresh_token").empty());
    CHECK(tokens.at("scope") == kYouTubeScopes);
    CHECK(social::missing_scopes(tokens, social::youtube::kFactory.oauth_scopes).empty());
    CHECK(std::stoll(tokens.at("expires_at")) >= before + 3599);
    CHECK(std::stoll(tokens.at("expires_at")) <= before + 3601);

    // The token endpoint is its own URL, not under the API's base; the client authenticates
    // with its id and secret in the form, and the PKCE verifier goes along.
    CHECK(client.token_url == fake.token_url("youtube"));
    CHECK(fake.calls("/youtube/youtube/").empty());
    const auto calls = fake.calls("/youtube/token");
    REQUIRE(calls.size() == 1);
    const auto form = form_fields(calls[0]["body"].get<std::string>());
    CHECK(form.at("grant_type") == "authorization_code");
    CHECK(form.at("code") == redirect.at("code"));
    CHECK(form.at("redirect_uri") == client.redirect_uri);
    CHECK(form.at("code_verifier") == kPkceVerifier);
    CHECK(form.at("client_id") == fake.oauth_client_id());
    CHECK(form.at("client_secret") == fake.oauth_client_secret());

    const auto reused = youtube->exchange_code(client, redirect.at("code"), kPkceVerifier);
    REQUIRE(reused.failure);
    CHECK(reused.failure->kind == FailureKind::refused);
    CHECK(reused.failure->http_status == 400);
    CHECK(reused.failure->reason == "Bad Request");

    const auto other = authorize();
    const auto wrong = youtube->exchange_code(client, other.at("code"), kPkceVerifier + "0");
    REQUIRE(wrong.failure);
    CHECK(wrong.failure->reason == "Invalid code verifier.");

    // Reconnecting gets a refresh token again because the consent is prompted each time.
    CHECK(connect().contains("refresh_token"));
    const auto denied = authorize({{"deny", true}});
    CHECK(denied.at("error") == "access_denied");
    CHECK_FALSE(denied.contains("code"));
}

TEST_CASE_METHOD(YouTubeChannel,
                 "YouTube refresh answers a new access token and the stored refresh token stays",
                 "[integration][social]") {
    const auto first = connect();
    fake.control_platform("youtube", "expire", {{"user_id", user_id}});
    REQUIRE(youtube->verify(first).failure);
    const auto renewed = youtube->refresh(client, first);
    REQUIRE_FALSE(renewed.failure);
    CHECK(renewed.credentials.at("access_token") != first.at("access_token"));
    CHECK_FALSE(renewed.credentials.contains("refresh_token"));
    const auto form = form_fields(fake.calls("/youtube/token")[1]["body"].get<std::string>());
    CHECK(form.at("grant_type") == "refresh_token");
    CHECK(form.at("refresh_token") == first.at("refresh_token"));

    // The caller merges the grant over what it had: the refresh token is the one it kept.
    auto merged = first;
    for (const auto& [name, value] : renewed.credentials) merged[name] = value;
    CHECK(youtube->verify(merged).identity);
    const auto again = youtube->refresh(client, merged);
    REQUIRE_FALSE(again.failure);
    CHECK(youtube->verify(again.credentials).identity);

    fake.revoke(first.at("refresh_token"));
    const auto revoked = youtube->refresh(client, merged);
    REQUIRE(revoked.failure);
    CHECK(revoked.failure->kind == FailureKind::refused);
    CHECK(revoked.failure->reason == "Token has been expired or revoked.");
}

TEST_CASE_METHOD(YouTubeChannel, "YouTube verify names the channel by id and title and handle",
                 "[integration][social]") {
    auto credentials = connect();
    CHECK(youtube->check(credentials).empty());
    const auto v = youtube->verify(credentials);
    REQUIRE(v.identity);
    CHECK(v.identity->external_id == channel_id);
    CHECK(v.identity->display_name == "Squawk");
    CHECK(v.identity->handle == "@squawkapp");
    const auto calls = fake.calls("/youtube/youtube/v3/channels");
    REQUIRE(calls.size() == 1);
    CHECK(calls[0]["headers"]["authorization"] == "Bearer " + credentials.at("access_token"));
    CHECK(query_fields(calls[0]["target"].get<std::string>()).at("mine") == "true");

    // A Google account without a channel cannot publish.
    const auto nobody = connect(json::object(), "108000000000000000002");
    const auto none = youtube->verify(nobody);
    REQUIRE(none.failure);
    CHECK(none.failure->kind == FailureKind::refused);
    CHECK(none.failure->field == "access_token");
    CHECK(none.failure->reason.find("no YouTube channel") != std::string::npos);

    social::Credentials typed;
    const auto problems = youtube->check(typed);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].field == "access_token");
}

TEST_CASE_METHOD(YouTubeChannel,
                 "YouTube uploads a video in 8 MiB chunks and answers its watch URL",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto p =
        youtube->publish(account, video_message("Launch day\nEverything we shipped this week.",
                                                youtube_video(folder, 20'000'000)));
    REQUIRE_FALSE(p.failure);
    CHECK(p.message_id.size() == 11);
    CHECK(p.url == "https://www.youtube.com/watch?v=" + p.message_id);

    const auto session = upload();
    CHECK(session["pieces"] ==
          json::array({"bytes 0-8388607/20000000", "bytes 8388608-16777215/20000000",
                       "bytes 16777216-19999999/20000000"}));
    CHECK(session["received"] == 20'000'000);
    CHECK(session["video_id"] == p.message_id);

    const auto stored = videos();
    REQUIRE(stored.size() == 1);
    CHECK(stored[0]["id"] == p.message_id);
    CHECK(stored[0]["snippet"]["title"] == "Launch day");
    CHECK(stored[0]["snippet"]["description"] == "Launch day\nEverything we shipped this week.");
    CHECK(stored[0]["status"]["privacyStatus"] == "public");

    const auto start = fake.calls("/youtube/upload/")[0];
    CHECK(start["method"] == "POST");
    const auto query = query_fields(start["target"].get<std::string>());
    CHECK(query.at("uploadType") == "resumable");
    CHECK(query.at("part") == "snippet,status");
    CHECK(start["headers"]["x-upload-content-length"] == "20000000");
    CHECK(start["headers"]["x-upload-content-type"] == "video/mp4");
}

TEST_CASE_METHOD(YouTubeChannel,
                 "YouTube publishes a square or vertical video of at most three minutes as a "
                 "Short",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto p = youtube->publish(
        account, video_message("Behind the scenes", youtube_video(folder, 3 * kMiB, 1080, 1920, 45),
                               json::object(), "short"));
    REQUIRE_FALSE(p.failure);
    CHECK(p.url == "https://www.youtube.com/shorts/" + p.message_id);
    CHECK(videos()[0]["snippet"]["title"] == "Behind the scenes #Shorts");

    // A title that names #shorts already keeps its words.
    const auto tagged = youtube->publish(
        account, video_message("Quick tip #shorts", youtube_video(folder, kMiB, 720, 720, 10),
                               json::object(), "short"));
    REQUIRE_FALSE(tagged.failure);
    CHECK(videos()[1]["snippet"]["title"] == "Quick tip #shorts");

    // Landscape, too long or of unknown size: refused before any call.
    for (const auto& video :
         {youtube_video(folder, 1000, 1920, 1080, 30), youtube_video(folder, 1001, 1080, 1920, 181),
          youtube_video(folder, 1002, 0, 0, 0)}) {
        const auto refused =
            youtube->publish(account, video_message("not a short", video, json::object(), "short"));
        REQUIRE(refused.failure);
        CHECK(refused.failure->kind == FailureKind::refused);
        CHECK(refused.failure->reason.find("Shorts") != std::string::npos);
    }
    CHECK(uploads().size() == 2);
}

TEST_CASE_METHOD(YouTubeChannel,
                 "YouTube takes the title and privacy and tags and category and made for kids "
                 "from its options",
                 "[integration][social]") {
    const auto account = target(connect());
    const json options = {{"title", "Our <b>best</b> take"},
                          {"privacy_status", "unlisted"},
                          {"tags", {"squawk", "social media"}},
                          {"category_id", "28"},
                          {"made_for_kids", false}};
    const auto& check = *social::youtube::kFactory.check_options;
    const auto problems = check(options, "video");
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].field == "title");
    CHECK(problems[0].reason == "must not contain '<' or '>'");

    auto good = options;
    good["title"] = "Our best take";
    CHECK(check(good, "video").empty());
    const auto p = youtube->publish(
        account, video_message("The description", youtube_video(folder, kMiB), good));
    REQUIRE_FALSE(p.failure);
    const auto stored = videos()[0];
    CHECK(stored["snippet"]["title"] == "Our best take");
    CHECK(stored["snippet"]["description"] == "The description");
    CHECK(stored["snippet"]["tags"] == json::array({"squawk", "social media"}));
    CHECK(stored["snippet"]["categoryId"] == "28");
    CHECK(stored["status"]["privacyStatus"] == "unlisted");
    CHECK(stored["status"]["selfDeclaredMadeForKids"] == false);

    const auto bad = check({{"privacy_status", "friends"},
                            {"category_id", "music"},
                            {"tags", {std::string(499, 't'), "x"}},
                            {"made_for_kids", "no"},
                            {"title", std::string(101, 'a')},
                            {"thumbnail", "x.png"}},
                           "short");
    std::map<std::string, std::string> by_field;
    for (const auto& problem : bad) by_field[problem.field] = problem.reason;
    CHECK(by_field.at("privacy_status") == "must be public, unlisted or private");
    CHECK(by_field.at("category_id").find("digits") != std::string::npos);
    CHECK(by_field.at("tags").find("500 characters") != std::string::npos);
    CHECK(by_field.at("made_for_kids") == "must be true or false");
    CHECK(by_field.at("title") == "must be at most 100 characters");
    CHECK(by_field.at("thumbnail") == "is not an option of youtube");
}

TEST_CASE_METHOD(YouTubeChannel,
                 "YouTube resumes after a lost chunk answer from the range it holds without "
                 "sending it again",
                 "[integration][social]") {
    const auto account = target(connect());
    // The second chunk arrives whole but its answer never comes back.
    fake.program(kUploadPath, {json::object(), json::object(), {{"delay_ms", 1500}}});
    const auto p =
        youtube->publish(account, video_message("Resumed", youtube_video(folder, 20'000'000)));
    REQUIRE_FALSE(p.failure);
    CHECK(upload()["pieces"] ==
          json::array({"bytes 0-8388607/20000000", "bytes 8388608-16777215/20000000",
                       "bytes 16777216-19999999/20000000"}));
    const auto puts = fake.calls(kUploadPath);
    // POST, three chunks and one status query.
    REQUIRE(puts.size() == 5);
    CHECK(puts[3]["headers"]["content-range"] == "bytes */20000000");
    CHECK(puts[3]["body"] == "");
    CHECK(videos().size() == 1);
}

TEST_CASE_METHOD(YouTubeChannel,
                 "YouTube continues from the bytes YouTube holds when a chunk arrived in part",
                 "[integration][social]") {
    const auto account = target(connect());
    // The second chunk's connection breaks after 4 MiB of it, and its answer never comes.
    fake.control_platform("youtube", "partial_chunk", {{"first", 8 * kMiB}, {"bytes", 4 * kMiB}});
    fake.program(kUploadPath, {json::object(), json::object(), {{"delay_ms", 1500}}});
    const auto p =
        youtube->publish(account, video_message("Partly", youtube_video(folder, 20'000'000)));
    REQUIRE_FALSE(p.failure);
    CHECK(upload()["pieces"] ==
          json::array({"bytes 0-8388607/20000000", "bytes 8388608-16777215/20000000",
                       "bytes 12582912-19999999/20000000"}));
    CHECK(upload()["received"] == 20'000'000);
    CHECK(videos().size() == 1);
}

TEST_CASE_METHOD(YouTubeChannel,
                 "YouTube takes the finished video from the status query when the last answer is "
                 "lost",
                 "[integration][social]") {
    const auto account = target(connect());
    fake.program(kUploadPath, {json::object(), {{"delay_ms", 1500}}});
    const auto p = youtube->publish(account, video_message("Once", youtube_video(folder, kMiB)));
    REQUIRE_FALSE(p.failure);
    CHECK(upload()["pieces"].size() == 1);
    REQUIRE(videos().size() == 1);
    CHECK(videos()[0]["id"] == p.message_id);
}

TEST_CASE_METHOD(YouTubeChannel,
                 "YouTube gives up an upload as unknown only once its last byte went out",
                 "[integration][social]") {
    const auto account = target(connect());
    const json lost = {{"delay_ms", 1500}};
    // The first of two chunks is answered nowhere, nor are the status queries: no video exists.
    fake.program(kUploadPath, {json::object(), lost, lost, lost, lost});
    const auto early =
        youtube->publish(account, video_message("Early", youtube_video(folder, 9 * kMiB)));
    REQUIRE(early.failure);
    CHECK(early.failure->kind == FailureKind::not_accepted);

    // The last chunk went out: the video may be there, so it must not be sent again blindly.
    fake.program(kUploadPath, {json::object(), lost, lost, lost, lost});
    const auto late = youtube->publish(account, video_message("Late", youtube_video(folder, kMiB)));
    REQUIRE(late.failure);
    CHECK(late.failure->kind == FailureKind::unknown_outcome);
    CHECK(videos().size() == 1);
}

TEST_CASE_METHOD(YouTubeChannel, "YouTube refuses a post without a video before any call",
                 "[integration][social]") {
    const auto account = target(connect());
    fake.clear_calls();
    const auto p = youtube->publish(account, message("Just words"));
    REQUIRE(p.failure);
    CHECK(p.failure->kind == FailureKind::refused);
    CHECK(p.failure->reason == "YouTube publishes videos only, and this post has none");
    const auto images =
        youtube->publish(account, message("A photo", {"https://img.example/a.png"}));
    REQUIRE(images.failure);
    CHECK(images.failure->kind == FailureKind::refused);
    // A description YouTube would refuse is refused here first.
    const auto angled =
        youtube->publish(account, video_message("a <tag>", youtube_video(folder, 1000)));
    REQUIRE(angled.failure);
    CHECK(angled.failure->reason.find("'<' or '>'") != std::string::npos);
    CHECK(fake.calls("/youtube/").empty());
}

TEST_CASE_METHOD(YouTubeChannel,
                 "YouTube's upload session elsewhere than its API's origin is refused and never "
                 "sent the video or the token",
                 "[integration][social]") {
    const auto account = target(connect());
    // The fake itself under another name: a request there would reach it and be recorded.
    const auto own = net::parse_url(fake.base_url("youtube"));
    fake.control_platform("youtube", "upload_host",
                          {{"host", "localhost:" + std::to_string(own.port)}});
    const auto p =
        youtube->publish(account, video_message("Elsewhere", youtube_video(folder, 1000)));
    REQUIRE(p.failure);
    CHECK(p.failure->kind == FailureKind::refused);
    CHECK(p.failure->reason.find("off its API's host") != std::string::npos);
    for (const auto& call : fake.calls(kUploadPath)) CHECK(call["method"] == "POST");
    CHECK(uploads().begin().value()["received"] == 0);
    CHECK(videos().empty());
}

TEST_CASE_METHOD(YouTubeChannel,
                 "YouTube edits a video's title and description keeping its category and tags",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto p =
        youtube->publish(account, video_message("First words", youtube_video(folder, kMiB),
                                                {{"category_id", "10"}, {"tags", {"music"}}}));
    REQUIRE_FALSE(p.failure);
    auto edit = message("Better words");
    edit.options = {{"title", "A better title"}};
    REQUIRE_FALSE(youtube->edit(account, p.message_id, edit).failure);
    auto stored = videos()[0]["snippet"];
    CHECK(stored["title"] == "A better title");
    CHECK(stored["description"] == "Better words");
    CHECK(stored["categoryId"] == "10");
    CHECK(stored["tags"] == json::array({"music"}));
    const auto update = fake.calls("/youtube/youtube/v3/videos");
    REQUIRE(update.back()["method"] == "PUT");
    CHECK(query_fields(update.back()["target"].get<std::string>()).at("part") == "snippet");

    // Without a title option the title stays; the same text again succeeds.
    REQUIRE_FALSE(youtube->edit(account, p.message_id, message("Only the description")).failure);
    REQUIRE_FALSE(youtube->edit(account, p.message_id, message("Only the description")).failure);
    stored = videos()[0]["snippet"];
    CHECK(stored["title"] == "A better title");
    CHECK(stored["description"] == "Only the description");

    const auto missing = youtube->edit(account, "AAAAAAAAAAA", message("x"));
    REQUIRE(missing.failure);
    CHECK(missing.failure->kind == FailureKind::refused);

    // A token that may only read and upload cannot edit: the scope is named.
    const auto uploader = target(connect({{"scopes", {kUpload, kRead}}}));
    const auto forbidden = youtube->edit(uploader, p.message_id, message("nope"));
    REQUIRE(forbidden.failure);
    CHECK(forbidden.failure->kind == FailureKind::refused);
    CHECK(forbidden.failure->http_status == 403);
    CHECK(forbidden.failure->reason.find(kManage) != std::string::npos);
}

TEST_CASE_METHOD(YouTubeChannel, "YouTube deletes a video and deleting it again succeeds",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto p =
        youtube->publish(account, video_message("Gone soon", youtube_video(folder, kMiB)));
    REQUIRE_FALSE(p.failure);
    REQUIRE_FALSE(youtube->remove(account, p.message_id).failure);
    CHECK(videos().empty());
    REQUIRE_FALSE(youtube->remove(account, p.message_id).failure);
    const auto deletes = fake.calls("/youtube/youtube/v3/videos");
    REQUIRE(deletes.size() == 2);
    CHECK(deletes[0]["method"] == "DELETE");
    CHECK(query_fields(deletes[0]["target"].get<std::string>()).at("id") == p.message_id);
    const auto malformed = youtube->remove(account, "not/an/id");
    REQUIRE(malformed.failure);
    CHECK(malformed.failure->kind == FailureKind::refused);
}

TEST_CASE_METHOD(YouTubeChannel, "YouTube lists the channel's uploads newest first",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto first = youtube->publish(account, video_message("One", youtube_video(folder, 1000)));
    REQUIRE_FALSE(first.failure);
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    const auto second =
        youtube->publish(account, video_message("Two", youtube_video(folder, 1001)));
    REQUIRE_FALSE(second.failure);
    const auto listing = youtube->list_recent(account);
    REQUIRE(listing);
    REQUIRE_FALSE(listing->failure);
    REQUIRE(listing->posts.size() == 2);
    CHECK(listing->posts[0].external_id == second.message_id);
    CHECK(listing->posts[0].text == "Two");
    CHECK(listing->posts[0].url == "https://www.youtube.com/watch?v=" + second.message_id);
    CHECK(listing->posts[1].external_id == first.message_id);
    CHECK(listing->posts[0].published_at > listing->posts[1].published_at);
    const auto items = fake.calls("/youtube/youtube/v3/playlistItems");
    REQUIRE(items.size() == 1);
    CHECK(query_fields(items[0]["target"].get<std::string>()).at("playlistId") ==
          "UU" + channel_id.substr(2));
}

TEST_CASE_METHOD(YouTubeChannel,
                 "YouTube reads the channel's subscribers and views and a video's views and "
                 "likes and comments",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto channel = youtube->account_metrics(account);
    REQUIRE(channel);
    REQUIRE_FALSE(channel->failure);
    CHECK(channel->metrics.followers == 1200);
    CHECK(channel->metrics.video_views == 34000);

    const auto p = youtube->publish(account, video_message("Counted", youtube_video(folder, 1000)));
    REQUIRE_FALSE(p.failure);
    fake.control_platform(
        "youtube", "statistics",
        {{"video_id", p.message_id}, {"views", 512}, {"likes", 40}, {"comments", 7}});
    const auto video = youtube->post_metrics(account, p.message_id);
    REQUIRE(video);
    REQUIRE_FALSE(video->failure);
    CHECK(video->metrics.video_views == 512);
    CHECK(video->metrics.likes == 40);
    CHECK(video->metrics.comments == 7);
    CHECK_FALSE(video->metrics.followers);

    // A channel that hides its subscriber count has no followers to tell.
    fake.control_platform("youtube", "channel",
                          {{"user_id", user_id},
                           {"id", channel_id},
                           {"title", "Squawk"},
                           {"hidden_subscribers", true},
                           {"subscribers", 1200}});
    const auto hidden = youtube->account_metrics(account);
    REQUIRE(hidden);
    CHECK_FALSE(hidden->metrics.followers);
    const auto gone = youtube->post_metrics(account, "AAAAAAAAAAA");
    REQUIRE(gone);
    REQUIRE(gone->failure);
    CHECK(gone->failure->kind == FailureKind::refused);
}

TEST_CASE_METHOD(YouTubeChannel, "YouTube failures are classified as the publish worker relies on",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto clip = youtube_video(folder, kMiB);

    // The daily quota: not accepted until it resets at midnight Pacific time.
    fake.control_platform("youtube", "fail",
                          {{"match", "/upload/"}, {"reasons", {"quotaExceeded"}}});
    const auto quota = youtube->publish(account, video_message("a", clip));
    REQUIRE(quota.failure);
    CHECK(quota.failure->kind == FailureKind::not_accepted);
    CHECK(quota.failure->http_status == 403);
    CHECK(quota.failure->reason.find("quota") != std::string::npos);
    REQUIRE(quota.failure->retry_after);
    CHECK(quota.failure->retry_after->count() > 0);
    CHECK(quota.failure->retry_after->count() <= 24 * 3600);

    fake.control_platform("youtube", "fail",
                          {{"match", "/upload/"}, {"reasons", {"rateLimitExceeded"}}});
    const auto limited = youtube->publish(account, video_message("b", clip));
    REQUIRE(limited.failure);
    CHECK(limited.failure->kind == FailureKind::not_accepted);
    CHECK(limited.failure->retry_after == std::chrono::seconds(30));

    fake.control_platform("youtube", "fail",
                          {{"match", "/upload/"}, {"reasons", {"uploadLimitExceeded"}}});
    const auto too_many = youtube->publish(account, video_message("c", clip));
    REQUIRE(too_many.failure);
    CHECK(too_many.failure->kind == FailureKind::refused);
    CHECK(too_many.failure->http_status == 400);

    fake.control_platform("youtube", "fail",
                          {{"match", "/upload/"}, {"reasons", {"backendError"}}});
    const auto backend = youtube->publish(account, video_message("d", clip));
    REQUIRE(backend.failure);
    CHECK(backend.failure->kind == FailureKind::not_accepted);
    CHECK(backend.failure->reason == "Backend Error");

    // Starting a session makes no video: no answer to it is a sure non-acceptance.
    fake.program(kUploadPath, {{{"delay_ms", 1500}}});
    const auto unanswered = youtube->publish(account, video_message("e", clip));
    REQUIRE(unanswered.failure);
    CHECK(unanswered.failure->kind == FailureKind::not_accepted);

    // A 5xx to a chunk is outlived by asking what YouTube holds and sending the rest.
    fake.program(kUploadPath,
                 {json::object(), {{"status", 503}, {"body", {{"error", {{"code", 503}}}}}}});
    REQUIRE_FALSE(youtube->publish(account, video_message("f", clip)).failure);
    CHECK(videos().size() == 1);

    // A session YouTube no longer knows made no video: it is started again later.
    fake.program(kUploadPath, {json::object(),
                               {{"status", 404},
                                {"body", {{"error", {{"code", 404}, {"message", "Not Found"}}}}}}});
    const auto expired = youtube->publish(account, video_message("session", clip));
    REQUIRE(expired.failure);
    CHECK(expired.failure->kind == FailureKind::not_accepted);
    CHECK(expired.failure->http_status == 404);

    // A token without the upload scope is refused naming it.
    const auto reader = target(connect({{"scopes", {kRead}}}));
    const auto unscoped = youtube->publish(reader, video_message("g", clip));
    REQUIRE(unscoped.failure);
    CHECK(unscoped.failure->kind == FailureKind::refused);
    CHECK(unscoped.failure->http_status == 403);
    CHECK(unscoped.failure->reason.find(kUpload) != std::string::npos);

    fake.revoke(account.credentials.at("access_token"));
    const auto revoked = youtube->publish(account, video_message("h", clip));
    REQUIRE(revoked.failure);
    CHECK(revoked.failure->kind == FailureKind::refused);
    CHECK(revoked.failure->http_status == 401);
    CHECK(revoked.failure->field == "access_token");
    CHECK(videos().size() == 1);
}

TEST_CASE("YouTube quota waits until midnight Pacific time", "[integration][social]") {
    const auto at = [](const char* utc) { return *time::parse_iso8601(utc); };
    using social::youtube::until_quota_reset;
    CHECK(until_quota_reset(at("2026-11-26T08:00:00Z")) == std::chrono::hours(24));
    CHECK(until_quota_reset(at("2026-11-26T07:59:59Z")) == std::chrono::seconds(1));
    CHECK(until_quota_reset(at("2026-11-26T20:00:00Z")) == std::chrono::hours(12));
}

TEST_CASE_METHOD(YouTubeChannel,
                 "YouTube lists a video's comment threads with every reply, those held for review "
                 "last and hidden, answers a reply in its thread, holds one for review and "
                 "removes as YouTube Studio does",
                 "[integration][social]") {
    const auto t = target(connect());
    const auto p = youtube->publish(t, video_message("Our clip", youtube_video(folder, 4 * kMiB)));
    REQUIRE_FALSE(p.failure);
    const auto comment = [&](const std::string& text, const std::string& parent = "") {
        return fake
            .control_platform("youtube", "comment",
                              {{"video_id", p.message_id},
                               {"channel_id", "UCfan0000000000000000001"},
                               {"name", "A Fan"},
                               {"text", text},
                               {"parent_id", parent}})["id"]
            .get<std::string>();
    };
    const auto top = comment("Great video");
    std::vector<std::string> replies;
    for (int i = 0; i < 7; ++i) replies.push_back(comment("Reply " + std::to_string(i), top));

    const auto listed = youtube->list_comments(t, p.message_id, "");
    REQUIRE(listed);
    REQUIRE_FALSE(listed->failure);
    // The thread carries 5 replies; the 2 others come from comments.list by parentId.
    REQUIRE(listed->comments.size() == 8);
    CHECK(listed->comments[0].external_id == top);
    CHECK(listed->comments[0].parent_id.empty());
    CHECK(listed->comments[0].author_id == "UCfan0000000000000000001");
    CHECK(listed->comments[0].author_name == "A Fan");
    CHECK(listed->comments[0].text == "Great video");
    CHECK(listed->comments[7].external_id == replies.back());
    CHECK(listed->comments[7].parent_id == top);
    CHECK(fake.calls("/youtube/v3/comments").size() == 1);
    CHECK_FALSE(listed->next_cursor);

    // A reply to a reply answers the thread's top-level comment.
    const auto answered = youtube->reply_to_comment(t, replies[0], message("Thank you!"));
    REQUIRE(answered);
    REQUIRE_FALSE(answered->failure);
    CHECK(answered->message_id.starts_with(top + "."));
    CHECK(answered->url ==
          "https://www.youtube.com/watch?v=" + p.message_id + "&lc=" + answered->message_id);
    CHECK_FALSE(youtube->like_comment(t, top));

    const auto held = youtube->moderate_comment(t, replies[1], social::Moderation::hide);
    REQUIRE(held);
    REQUIRE_FALSE(held->failure);
    const auto after = youtube->list_comments(t, p.message_id, "");
    REQUIRE(after);
    CHECK(after->comments.size() == 8);  // the held reply is left out, the channel's answer in
    const auto shown = youtube->moderate_comment(t, replies[1], social::Moderation::unhide);
    REQUIRE(shown);
    REQUIRE_FALSE(shown->failure);
    // A top-level comment held for review is listed hidden, with its thread, after the
    // published threads.
    REQUIRE_FALSE(youtube->moderate_comment(t, top, social::Moderation::hide)->failure);
    const auto held_thread = youtube->list_comments(t, p.message_id, "");
    REQUIRE(held_thread);
    REQUIRE(held_thread->comments.size() == 9);
    CHECK(held_thread->comments[0].external_id == top);
    CHECK(held_thread->comments[0].hidden);
    CHECK_FALSE(held_thread->comments[1].hidden);
    const auto statuses = fake.calls("/commentThreads");
    CHECK(query_fields(statuses.back()["target"].get<std::string>()).at("moderationStatus") ==
          "heldForReview");
    REQUIRE_FALSE(youtube->moderate_comment(t, top, social::Moderation::unhide)->failure);

    // The channel's own answer is deleted; the fan's comment is rejected, not deleted.
    const auto own = youtube->moderate_comment(t, answered->message_id, social::Moderation::remove);
    REQUIRE(own);
    REQUIRE_FALSE(own->failure);
    const auto fans = youtube->moderate_comment(t, replies[2], social::Moderation::remove);
    REQUIRE(fans);
    REQUIRE_FALSE(fans->failure);
    const auto rejected = fake.calls("setModerationStatus");
    REQUIRE(rejected.size() == 5);
    CHECK(query_fields(rejected[4]["target"].get<std::string>()).at("moderationStatus") ==
          "rejected");
    const auto remaining = youtube->list_comments(t, p.message_id, "");
    REQUIRE(remaining);
    CHECK(remaining->comments.size() == 7);
    // Removing a comment already gone succeeds.
    const auto again =
        youtube->moderate_comment(t, answered->message_id, social::Moderation::remove);
    REQUIRE(again);
    CHECK_FALSE(again->failure);
}

TEST_CASE_METHOD(YouTubeChannel, "YouTube moderates comments only with youtube.force-ssl",
                 "[integration][social]") {
    const auto full = target(connect());
    const auto p =
        youtube->publish(full, video_message("Quiet clip", youtube_video(folder, 2 * kMiB)));
    REQUIRE_FALSE(p.failure);
    const auto id = fake.control_platform("youtube", "comment",
                                          {{"video_id", p.message_id},
                                           {"channel_id", "UCfan0000000000000000001"},
                                           {"name", "A Fan"},
                                           {"text", "Hi"}})["id"]
                        .get<std::string>();
    const auto reader = target(connect({{"scopes", {kUpload, kRead}}}));
    const auto refused = youtube->moderate_comment(reader, id, social::Moderation::hide);
    REQUIRE(refused);
    REQUIRE(refused->failure);
    CHECK(refused->failure->access == social::AccessLoss::permission_missing);
}
