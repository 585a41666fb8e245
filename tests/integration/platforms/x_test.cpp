// The X connector against the fake X API: the OAuth 2.0 round trip with PKCE (consent page, code
// for tokens, rotating refresh tokens, scopes not granted), verify, posts with uploaded images
// (with alt texts) and X's weighted length, threads as reply chains and replies, deletion,
// listing, post and account metrics, and each failure classified as the publish worker relies on.
#include "common/core/crypto/crypto.hpp"
#include "common/core/fs/work_files.hpp"
#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/domain/social/post_validation.hpp"
#include "common/extensions/platforms/x/factory.hpp"
#include "common/extensions/platforms/x/options.hpp"
#include "common/extensions/platforms/x/weighted_length.hpp"
#include "tests/support/connector_fixture.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace squawk;
using namespace squawk::testing;
using nlohmann::json;
using social::FailureKind;

namespace {

// RFC 7636's example verifier (appendix B), whose S256 challenge the RFC gives.
const std::string kXScopes =
    "tweet.read tweet.write users.read offline.access media.write tweet.moderate.write like.write";

// The X user @squawkapp, who consents when the tests connect the account.
struct XAccount : ConnectorFixture {
    XAccount() {
        fake.control_platform("x", "user",
                              {{"id", user_id}, {"username", "squawkapp"}, {"name", "Squawk"}});
    }

    const std::string user_id = "1600000000000000001";
    std::unique_ptr<social::Connector> x = connector("x");
    const social::OAuthClient client = oauth_client("x");

    // The consent page's redirect for an authorization challenged with `verifier`, the user
    // choosing as `choice` says (scopes, deny; by default granting all that was asked).
    std::map<std::string, std::string> authorize(const std::string& verifier,
                                                 json choice = json::object()) {
        choice["user_id"] = user_id;
        fake.control_platform("x", "next_consent", choice);
        return consent(x->authorize_url(client, "state-42", social::code_challenge_of(verifier)));
    }

    // The tokens of a completed connection.
    social::Credentials connect(json choice = json::object()) {
        const auto redirect = authorize(kPkceVerifier, std::move(choice));
        REQUIRE(redirect.contains("code"));
        auto grant = x->exchange_code(client, redirect.at("code"), kPkceVerifier);
        REQUIRE_FALSE(grant.failure);
        return grant.credentials;
    }

    social::Target target(social::Credentials credentials) const {
        return {{user_id, "Squawk", "squawkapp"}, std::move(credentials)};
    }

    // The account's posts on the fake, oldest first.
    json tweets() { return fake.messages()["x"].value(user_id, json::array()); }
    // The body of the `index`th call creating a post.
    json posted(size_t index) {
        const auto calls = fake.calls("/x/2/tweets");
        REQUIRE(calls.size() > index);
        return json::parse(calls[index]["body"].get<std::string>());
    }
};

}  // namespace

TEST_CASE("X is registered as an OAuth platform also named twitter", "[integration][social]") {
    ConnectorFixture f;
    const auto* x = social::find_platform("twitter");
    REQUIRE(x);
    CHECK(x == social::find_platform("x"));
    CHECK(x->display_name == "X");
    CHECK(x->connect_style == social::ConnectStyle::oauth);
    CHECK(x->credential_fields.empty());
    CHECK(x->default_base_url == "https://api.x.com");
    CHECK(x->default_authorize_url == "https://x.com/i/oauth2/authorize");
    CHECK(x->settings_section == "x");
    CHECK(x->limits.max_text_chars == 280);
    CHECK(x->limits.max_images == 4);
    CHECK_FALSE(x->limits.media.photos_by_url);
    CHECK(x->limits.media.max_photo_upload_bytes == 5 * 1024 * 1024);
    CHECK(f.connector("twitter")->platform() == "x");
}

TEST_CASE_METHOD(XAccount,
                 "X consent URL asks every scope joined by spaces with the state and an S256 "
                 "challenge",
                 "[integration][social]") {
    const auto url = x->authorize_url(client, "state-42", social::code_challenge_of(kPkceVerifier));
    REQUIRE(url.starts_with(fake.authorize_url("x") + "?"));
    const auto query = query_fields(url);
    CHECK(query.at("response_type") == "code");
    CHECK(query.at("client_id") == fake.oauth_client_id());
    CHECK(query.at("redirect_uri") == client.redirect_uri);
    CHECK(query.at("scope") == kXScopes);
    CHECK(query.at("state") == "state-42");
    CHECK(query.at("code_challenge") == kPkceChallenge);
    CHECK(query.at("code_challenge_method") == "S256");
    CHECK(url.find("scope=tweet.read%20tweet.write%20") != std::string::npos);
}

TEST_CASE_METHOD(XAccount,
                 "X trades a consent code once and only with its verifier for expiring tokens",
                 "[integration][social]") {
    const auto redirect = authorize(kPkceVerifier);
    CHECK(redirect.at("state") == "state-42");
    const long long before = time::to_unix_ms(time::now()) / 1000;
    const auto grant = x->exchange_code(client, redirect.at("code"), kPkceVerifier);
    REQUIRE_FALSE(grant.failure);
    const auto& tokens = grant.credentials;
    CHECK_FALSE(tokens.at("access_token").empty());
    CHECK_FALSE(tokens.at("refresh_token").empty());
    CHECK(tokens.at("scope") == kXScopes);
    CHECK(social::missing_scopes(tokens, social::x::kFactory.oauth_scopes).empty());
    CHECK(std::stoll(tokens.at("expires_at")) >= before + 7200);
    CHECK(std::stoll(tokens.at("expires_at")) <= before + 7202);

    // A confidential client: its id and secret as HTTP Basic, the grant as a form.
    const auto calls = fake.calls("/x/2/oauth2/token");
    REQUIRE(calls.size() == 1);
    CHECK(calls[0]["headers"]["authorization"] ==
          "Basic " + crypto::base64(fake.oauth_client_id() + ":" + fake.oauth_client_secret()));
    const auto form = form_fields(calls[0]["body"].get<std::string>());
    CHECK(form.at("grant_type") == "authorization_code");
    CHECK(form.at("code") == redirect.at("code"));
    CHECK(form.at("redirect_uri") == client.redirect_uri);
    CHECK(form.at("code_verifier") == kPkceVerifier);
    CHECK_FALSE(form.contains("client_secret"));

    const auto reused = x->exchange_code(client, redirect.at("code"), kPkceVerifier);
    REQUIRE(reused.failure);
    CHECK(reused.failure->kind == FailureKind::refused);
    CHECK(reused.failure->http_status == 400);
    CHECK(reused.failure->reason == "Value passed for the authorization code was invalid.");

    const auto other = authorize(kPkceVerifier);
    const auto wrong = x->exchange_code(client, other.at("code"), kPkceVerifier + "0");
    REQUIRE(wrong.failure);
    CHECK(wrong.failure->kind == FailureKind::refused);
    CHECK(wrong.failure->reason.find("code verifier") != std::string::npos);

    auto stranger = client;
    stranger.client_secret = "not-the-secret";
    const auto third = authorize(kPkceVerifier);
    const auto unknown = x->exchange_code(stranger, third.at("code"), kPkceVerifier);
    REQUIRE(unknown.failure);
    CHECK(unknown.failure->kind == FailureKind::refused);
    CHECK(unknown.failure->http_status == 401);
}

TEST_CASE_METHOD(XAccount,
                 "X answers a denied consent with access_denied and the state and no code",
                 "[integration][social]") {
    const auto denied = authorize(kPkceVerifier, {{"deny", true}});
    CHECK(denied.at("error") == "access_denied");
    CHECK(denied.at("state") == "state-42");
    CHECK_FALSE(denied.contains("code"));

    // With nobody at the consent page, or a plain challenge, it redirects nowhere.
    CHECK(consent(x->authorize_url(client, "state-43", kPkceChallenge)).empty());
    fake.control_platform("x", "next_consent", {{"user_id", user_id}});
    auto plain = x->authorize_url(client, "state-44", kPkceChallenge);
    plain.replace(plain.find("S256"), 4, "plain");
    CHECK(consent(plain).empty());
}

TEST_CASE_METHOD(XAccount, "X refresh rotates the refresh token and refuses the old one again",
                 "[integration][social]") {
    const auto first = connect();
    const auto renewed = x->refresh(client, first);
    REQUIRE_FALSE(renewed.failure);
    CHECK(renewed.credentials.at("access_token") != first.at("access_token"));
    CHECK(renewed.credentials.at("refresh_token") != first.at("refresh_token"));
    CHECK(renewed.credentials.at("scope") == kXScopes);
    const auto form = form_fields(fake.calls("/x/2/oauth2/token")[1]["body"].get<std::string>());
    CHECK(form.at("grant_type") == "refresh_token");
    CHECK(form.at("refresh_token") == first.at("refresh_token"));
    CHECK(x->verify(renewed.credentials).identity);

    const auto again = x->refresh(client, first);
    REQUIRE(again.failure);
    CHECK(again.failure->kind == FailureKind::refused);
    CHECK(again.failure->http_status == 400);
    CHECK(again.failure->reason == "Value passed for the token was invalid.");
    CHECK_FALSE(x->refresh(client, renewed.credentials).failure);
}

TEST_CASE_METHOD(XAccount,
                 "X finds a scope the user did not grant missing and X forbids what it is for",
                 "[integration][social]") {
    const auto credentials =
        connect({{"scopes", {"tweet.read", "tweet.write", "users.read", "offline.access"}}});
    CHECK(credentials.at("scope") == "tweet.read tweet.write users.read offline.access");
    CHECK(social::missing_scopes(credentials, social::x::kFactory.oauth_scopes) ==
          std::vector<std::string>{"media.write", "tweet.moderate.write", "like.write"});
    auto m = message("with a photo", {"https://img.example/a.png"});
    m.uploads = {png("a.png")};
    const auto p = x->publish(target(credentials), m);
    REQUIRE(p.failure);
    CHECK(p.failure->kind == FailureKind::refused);
    CHECK(p.failure->http_status == 403);
    CHECK(p.failure->reason == "Forbidden");
    CHECK(tweets().empty());

    // Without users.read X does not say who the token is, and without offline.access it gives no
    // refresh token.
    const auto reader = connect({{"scopes", json::array({"tweet.read"})}});
    CHECK_FALSE(reader.contains("refresh_token"));
    const auto v = x->verify(reader);
    REQUIRE(v.failure);
    CHECK(v.failure->kind == FailureKind::refused);
    CHECK(v.failure->http_status == 403);
}

TEST_CASE_METHOD(XAccount, "X verify names the user by id and name and username",
                 "[integration][social]") {
    auto credentials = connect();
    CHECK(x->check(credentials).empty());
    const auto v = x->verify(credentials);
    REQUIRE(v.identity);
    CHECK(v.identity->external_id == user_id);
    CHECK(v.identity->display_name == "Squawk");
    CHECK(v.identity->handle == "squawkapp");
    const auto calls = fake.calls("/x/2/users/me");
    REQUIRE(calls.size() == 1);
    CHECK(calls[0]["headers"]["authorization"] == "Bearer " + credentials.at("access_token"));

    // A connect body has no token to offer: X accounts connect through OAuth.
    social::Credentials typed;
    const auto problems = x->check(typed);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].field == "access_token");
    CHECK(problems[0].reason.find("/v1/social/connect/x/authorize") != std::string::npos);
}

TEST_CASE_METHOD(XAccount,
                 "X verify refuses an expired or revoked token naming access_token until "
                 "refreshed",
                 "[integration][social]") {
    const auto credentials = connect();
    fake.control_platform("x", "expire", {{"user_id", user_id}});
    const auto expired = x->verify(credentials);
    REQUIRE(expired.failure);
    CHECK(expired.failure->kind == FailureKind::refused);
    CHECK(expired.failure->http_status == 401);
    CHECK(expired.failure->field == "access_token");
    CHECK(expired.failure->reason == "Unauthorized");

    const auto renewed = x->refresh(client, credentials);
    REQUIRE_FALSE(renewed.failure);
    REQUIRE(x->verify(renewed.credentials).identity);
    fake.revoke(renewed.credentials.at("access_token"));
    const auto revoked = x->verify(renewed.credentials);
    REQUIRE(revoked.failure);
    CHECK(revoked.failure->field == "access_token");
}

TEST_CASE_METHOD(XAccount, "X publishes text as a post linked under the account's handle",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto p = x->publish(account, message("Hello from Squawk"));
    REQUIRE_FALSE(p.failure);
    CHECK(p.url == "https://x.com/squawkapp/status/" + p.message_id);
    CHECK(posted(0) == json{{"text", "Hello from Squawk"}});
    CHECK(fake.calls("/x/2/tweets")[0]["headers"]["authorization"] ==
          "Bearer " + account.credentials.at("access_token"));
    const auto stored = tweets();
    REQUIRE(stored.size() == 1);
    CHECK(stored[0]["id"] == p.message_id);
    CHECK(stored[0]["text"] == "Hello from Squawk");
    CHECK_FALSE(stored[0].contains("attachments"));
}

TEST_CASE_METHOD(XAccount, "X uploads images before the post and attaches their media ids",
                 "[integration][social]") {
    const auto account = target(connect());
    auto m = message("Two photos", {"https://img.example/a.png", "https://img.example/b.jpg"});
    m.uploads = {png("a.png", 900'000), social::Upload{"b.jpg", "image/jpeg", "jpeg-bytes"}};
    const auto p = x->publish(account, m);
    REQUIRE_FALSE(p.failure);
    const auto uploads = fake.calls("/x/2/media/upload");
    REQUIRE(uploads.size() == 2);
    CHECK(uploads[0]["headers"]["authorization"] ==
          "Bearer " + account.credentials.at("access_token"));
    CHECK(uploads[0]["form"]["fields"]["media_category"] == "tweet_image");
    CHECK(uploads[0]["form"]["files"]["media"]["filename"] == "a.png");
    CHECK(uploads[0]["form"]["files"]["media"]["content_type"] == "image/png");
    CHECK(uploads[0]["form"]["files"]["media"]["bytes"] == 900'000);
    CHECK(uploads[1]["form"]["files"]["media"]["content_type"] == "image/jpeg");

    const auto ids = posted(0)["media"]["media_ids"];
    REQUIRE(ids.size() == 2);
    const auto stored = tweets();
    REQUIRE(stored.size() == 1);
    CHECK(stored[0]["attachments"]["media_keys"] ==
          json::array({"3_" + ids[0].get<std::string>(), "3_" + ids[1].get<std::string>()}));

    // Images alone go without text.
    auto photo = message("", {"https://img.example/c.png"});
    photo.uploads = {png("c.png")};
    REQUIRE_FALSE(x->publish(account, photo).failure);
    CHECK_FALSE(posted(1).contains("text"));

    // An image the media plan did not download is refused before anything is uploaded.
    auto partly = message("two more", {"https://img.example/d.png", "https://img.example/e.png"});
    partly.uploads = {png("d.png"), std::nullopt};
    const auto refused = x->publish(account, partly);
    REQUIRE(refused.failure);
    CHECK(refused.failure->kind == FailureKind::refused);
    CHECK(refused.failure->reason.find("https://img.example/e.png") != std::string::npos);
    CHECK(fake.calls("/x/2/media/upload").size() == 3);
    CHECK(tweets().size() == 2);
}

TEST_CASE_METHOD(XAccount,
                 "X uploads a video in segments of at most 4 MiB and posts it once processed",
                 "[integration][social]") {
    const auto account = target(connect());
    fs::ScratchDirectory folder("squawk-x-video-");
    auto m = message("A clip");
    m.video = video_file(folder, 9 * 1024 * 1024 + 5);
    const auto p = x->publish(account, m);
    REQUIRE_FALSE(p.failure);

    const auto uploads = fake.calls("/x/2/media/upload");
    std::vector<std::string> commands;
    std::vector<long long> segments;
    for (const auto& call : uploads) {
        if (call["method"] == "GET") {
            commands.push_back("STATUS");
            continue;
        }
        const auto& fields = call["form"]["fields"];
        commands.push_back(fields["command"].get<std::string>());
        if (fields["command"] == "APPEND")
            segments.push_back(call["form"]["files"]["media"]["bytes"]);
    }
    CHECK(commands == std::vector<std::string>{"INIT", "APPEND", "APPEND", "APPEND", "FINALIZE",
                                               "STATUS", "STATUS"});
    CHECK(segments == std::vector<long long>{4 * 1024 * 1024, 4 * 1024 * 1024, 1024 * 1024 + 5});
    CHECK(uploads[0]["form"]["fields"]["media_category"] == "tweet_video");
    CHECK(uploads[0]["form"]["fields"]["total_bytes"] == std::to_string(9 * 1024 * 1024 + 5));
    const auto stored = tweets();
    REQUIRE(stored.size() == 1);
    CHECK(stored[0]["attachments"]["media_keys"].size() == 1);
    CHECK(posted(0)["media"]["media_ids"].size() == 1);
}

TEST_CASE_METHOD(XAccount, "X refuses a video its processing failed and posts nothing",
                 "[integration][social]") {
    const auto account = target(connect());
    fs::ScratchDirectory folder("squawk-x-video-");
    fake.control_platform("x", "fail_processing", json::object());
    auto m = message("A broken clip");
    m.video = video_file(folder, 200'000);
    const auto p = x->publish(account, m);
    REQUIRE(p.failure);
    CHECK(p.failure->kind == FailureKind::refused);
    CHECK(p.failure->reason.find("Unsupported video format") != std::string::npos);
    CHECK(fake.calls("/x/2/tweets").empty());
}

TEST_CASE("X weighted length counts a link as 23 and CJK and emoji as 2", "[integration][social]") {
    using social::x::weighted_length;
    CHECK(weighted_length("") == 0);
    CHECK(weighted_length("Hello") == 5);
    // Latin-1, an en dash and curly quotes weigh 1; an ellipsis, CJK and emoji 2.
    CHECK(weighted_length("Café – “quoted”") == 15);
    CHECK(weighted_length("…") == 2);
    CHECK(weighted_length("日本語") == 6);
    CHECK(weighted_length("👍") == 2);
    CHECK(weighted_length("https://squawk.example/" + std::string(100, 'p')) == 23);
    CHECK(weighted_length("HTTP://A.CO") == 23);
    // Closing punctuation and a bracket the link did not open stay out of it.
    CHECK(weighted_length("see https://a.co.") == 4 + 23 + 1);
    CHECK(weighted_length("(https://a.example/x) ok") == 1 + 23 + 1 + 3);
    CHECK(weighted_length("https://a.example/wiki/A_(b)") == 23);
    // A link ends before non-ASCII text, starts after no letter, and needs more than a scheme.
    CHECK(weighted_length("https://a.co/x日本") == 23 + 4);
    CHECK(weighted_length("abchttps://a.co") == 15);
    CHECK(weighted_length("https://") == 8);
    // Bytes that are not UTF-8 weigh 2 each.
    CHECK(weighted_length("\xff") == 2);
    CHECK(weighted_length("\xe8"
                          "ab") == 4);
}

TEST_CASE_METHOD(XAccount, "X refuses text over 280 weighted characters before any call",
                 "[integration][social]") {
    const auto account = target(connect());
    fake.clear_calls();
    // 141 CJK characters pass the posts validator's plain count of 280 but weigh 282.
    std::string cjk;
    for (int i = 0; i < 141; ++i) cjk += "語";
    auto m = message(cjk, {"https://img.example/a.png"});
    m.uploads = {png("a.png")};
    const auto heavy = x->publish(account, m);
    REQUIRE(heavy.failure);
    CHECK(heavy.failure->kind == FailureKind::refused);
    CHECK(heavy.failure->reason.find("as 282 characters") != std::string::npos);
    // A short link weighs 23.
    const auto linked = x->publish(account, message(std::string(260, 'a') + " https://a.co"));
    REQUIRE(linked.failure);
    CHECK(linked.failure->reason.find("as 284 characters") != std::string::npos);
    CHECK(fake.calls("/x/").empty());

    CHECK_FALSE(x->publish(account, message(cjk.substr(0, 140 * 3))).failure);
}

TEST_CASE_METHOD(XAccount, "X deletes a post and deleting it again succeeds",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto p = x->publish(account, message("short-lived"));
    REQUIRE_FALSE(p.failure);
    CHECK_FALSE(x->remove(account, p.message_id).failure);
    const auto deletes = fake.calls("/x/2/tweets/" + p.message_id);
    REQUIRE(deletes.size() == 1);
    CHECK(deletes[0]["method"] == "DELETE");
    CHECK(tweets().empty());
    CHECK_FALSE(x->remove(account, p.message_id).failure);

    const auto bad = x->remove(account, "../users/me");
    REQUIRE(bad.failure);
    CHECK(bad.failure->kind == FailureKind::refused);
    CHECK(fake.calls("/x/2/tweets/").size() == 2);

    fake.control_platform("x", "user", {{"id", "42"}, {"username", "other"}, {"name", "Other"}});
    const auto theirs = fake.control_platform("x", "tweet", {{"user_id", "42"}, {"text", "mine"}});
    const auto forbidden = x->remove(account, theirs["id"].get<std::string>());
    REQUIRE(forbidden.failure);
    CHECK(forbidden.failure->kind == FailureKind::refused);
    CHECK(forbidden.failure->http_status == 403);

    CHECK(x->edit(account, p.message_id, message("changed")).failure);
    CHECK_FALSE(x->limits().can_edit);
    CHECK(x->limits().can_remove);
}

TEST_CASE_METHOD(XAccount,
                 "X lists the account's recent posts newest first with those made in "
                 "the app",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto ours = x->publish(account, message("from Squawk"));
    REQUIRE_FALSE(ours.failure);
    const auto native =
        fake.control_platform("x", "tweet", {{"user_id", user_id}, {"text", "from the app"}});
    const auto listing = x->list_recent(account);
    REQUIRE(listing);
    REQUIRE_FALSE(listing->failure);
    REQUIRE(listing->posts.size() == 2);
    CHECK(listing->posts[0].external_id == native["id"]);
    CHECK(listing->posts[0].text == "from the app");
    CHECK(listing->posts[0].url ==
          "https://x.com/squawkapp/status/" + native["id"].get<std::string>());
    CHECK(listing->posts[1].external_id == ours.message_id);
    CHECK(listing->posts[1].url == ours.url);
    CHECK(listing->posts[1].published_at.time_since_epoch().count() > 0);
    CHECK(listing->posts[0].published_at >= listing->posts[1].published_at);
    const auto calls = fake.calls("/x/2/users/" + user_id + "/tweets");
    REQUIRE(calls.size() == 1);
    const auto query = query_fields(calls[0]["target"].get<std::string>());
    CHECK(query.at("max_results") == "100");
    CHECK(query.at("tweet.fields") == "created_at");

    // A timeline without posts has no data at all.
    REQUIRE_FALSE(x->remove(account, ours.message_id).failure);
    REQUIRE_FALSE(x->remove(account, native["id"].get<std::string>()).failure);
    const auto empty = x->list_recent(account);
    REQUIRE(empty);
    CHECK_FALSE(empty->failure);
    CHECK(empty->posts.empty());
}

TEST_CASE_METHOD(XAccount, "X failures are classified as the publish worker relies on",
                 "[integration][social]") {
    const auto account = target(connect());
    fake.control_platform("x", "rate_limit",
                          {{"method", "POST"}, {"path", "/2/tweets"}, {"reset_in", 40}});
    const auto limited = x->publish(account, message("a"));
    REQUIRE(limited.failure);
    CHECK(limited.failure->kind == FailureKind::not_accepted);
    CHECK(limited.failure->http_status == 429);
    CHECK(limited.failure->reason == "Too Many Requests");
    REQUIRE(limited.failure->retry_after);
    CHECK(limited.failure->retry_after->count() >= 38);
    CHECK(limited.failure->retry_after->count() <= 40);

    fake.program(
        "/x/2/tweets",
        {{{"status", 503}, {"body", {{"title", "Service Unavailable"}, {"type", "about:blank"}}}},
         {{"delay_ms", 2000}}});
    const auto unavailable = x->publish(account, message("b"));
    REQUIRE(unavailable.failure);
    CHECK(unavailable.failure->kind == FailureKind::not_accepted);
    CHECK(unavailable.failure->reason == "Service Unavailable");
    // The post went out and no answer came: it is there, and must not be sent again blindly.
    const auto slow = x->publish(account, message("c"));
    REQUIRE(slow.failure);
    CHECK(slow.failure->kind == FailureKind::unknown_outcome);
    REQUIRE(tweets().size() == 1);
    CHECK(tweets()[0]["text"] == "c");

    // A request X cannot take is refused in its words.
    fake.program("/x/2/tweets",
                 {{{"status", 400},
                   {"body",
                    {{"errors", {{{"message", "Your media IDs are invalid."}}}},
                     {"title", "Invalid Request"},
                     {"detail", "One or more parameters to your request was invalid."}}}}});
    const auto invalid = x->publish(account, message("d"));
    REQUIRE(invalid.failure);
    CHECK(invalid.failure->kind == FailureKind::refused);
    CHECK(invalid.failure->reason == "Your media IDs are invalid.");

    // An upload publishes nothing: no answer to it is a sure non-acceptance.
    auto m = message("e", {"https://img.example/a.png"});
    m.uploads = {png("a.png")};
    fake.program(
        "/x/2/media/upload",
        {{{"delay_ms", 2000}},
         {{"status", 400},
          {"body", {{"errors", {{{"title", "Bad Request"}, {"detail", "Bad image."}}}}}}}});
    const auto lost = x->publish(account, m);
    REQUIRE(lost.failure);
    CHECK(lost.failure->kind == FailureKind::not_accepted);
    const auto bad_image = x->publish(account, m);
    REQUIRE(bad_image.failure);
    CHECK(bad_image.failure->kind == FailureKind::refused);
    CHECK(bad_image.failure->reason == "Bad image.");
    CHECK(tweets().size() == 1);

    fake.revoke(account.credentials.at("access_token"));
    const auto revoked = x->publish(account, message("f"));
    REQUIRE(revoked.failure);
    CHECK(revoked.failure->kind == FailureKind::refused);
    CHECK(revoked.failure->http_status == 401);
    CHECK(revoked.failure->field == "access_token");
}

TEST_CASE_METHOD(
    XAccount,
    "X's bare Forbidden is a missing permission, while a 403 that says what it refuses "
    "is not",
    "[integration][social]") {
    // The user took media.write away when they consented: uploads are refused, posting is not.
    const auto account = target(
        connect({{"scopes", {"tweet.read", "tweet.write", "users.read", "offline.access"}}}));
    auto m = message("with an image", {"https://img.example/a.png"});
    m.uploads = {png("a.png")};
    const auto no_scope = x->publish(account, m);
    REQUIRE(no_scope.failure);
    CHECK(no_scope.failure->kind == FailureKind::refused);
    CHECK(no_scope.failure->http_status == 403);
    CHECK(no_scope.failure->access == social::AccessLoss::permission_missing);
    CHECK(tweets().empty());

    REQUIRE_FALSE(x->publish(account, message("same words")).failure);
    fake.program(
        "/x/2/tweets",
        {{{"status", 403},
          {"body",
           {{"title", "Forbidden"},
            {"type", "about:blank"},
            {"detail", "You are not allowed to create a Tweet with duplicate content."}}}}});
    const auto duplicate = x->publish(account, message("same words"));
    REQUIRE(duplicate.failure);
    CHECK(duplicate.failure->http_status == 403);
    CHECK(duplicate.failure->access == social::AccessLoss::none);
    CHECK(duplicate.failure->reason ==
          "You are not allowed to create a Tweet with duplicate content.");
}

TEST_CASE("X takes threads, replies and alt texts as checked options", "[integration][social]") {
    using social::x::check_options;
    const auto& x = social::x::kFactory;
    CHECK(social::default_post_type(x) == "post");
    CHECK(social::takes_post_type(x, "thread"));

    const json part = {{"text", "and then"}};
    CHECK(check_options({{"thread", json::array({part})}, {"reply_to", "1790000000000000001"}},
                        "thread")
              .empty());
    CHECK(check_options({{"alt_texts", {"a kite", ""}}}, "post").empty());

    // Each problem names its field inside platform_options.x.
    const auto fields = [](const social::OptionProblems& problems) {
        std::vector<std::string> out;
        for (const auto& p : problems) out.push_back(p.field);
        return out;
    };
    const json parts =
        json::array({part,
                     {{"media_urls", {"https://img.example/a.png"}}, {"alt_texts", {"a", 5}}},
                     {{"text", std::string(141, 'x') + "漢"}},  // 141 + 2 weighted: fine
                     {{"text", std::string(279, 'x') + "漢"}},  // 281 weighted
                     {{"media_urls", {"ftp://img.example/a.png"}}},
                     {{"text", ""}},
                     {{"text", "x"}, {"video", true}}});
    CHECK(fields(check_options({{"thread", parts}}, "thread")) ==
          std::vector<std::string>{"thread[1].alt_texts[1]", "thread[1].alt_texts",
                                   "thread[3].text", "thread[4].media_urls[0]", "thread[5].text",
                                   "thread[6].video"});
    CHECK(fields(check_options(json::object(), "thread")) == std::vector<std::string>{"thread"});
    CHECK(fields(check_options({{"thread", json::array()}}, "thread")) ==
          std::vector<std::string>{"thread"});
    CHECK(fields(check_options({{"thread", json::array({part})}}, "post")) ==
          std::vector<std::string>{"thread"});
    CHECK(fields(check_options({{"thread", json(25, part)}}, "thread")) ==
          std::vector<std::string>{"thread"});
    CHECK(fields(check_options({{"reply_to", "x123"}, {"alt_texts", {std::string(1001, 'a')}}},
                               "post")) == std::vector<std::string>{"alt_texts[0]", "reply_to"});
    CHECK(fields(check_options({{"alt_texts", json(5, "a")}, {"poll", true}}, "post")) ==
          std::vector<std::string>{"alt_texts", "poll"});
}

TEST_CASE("alt texts describing more images than the post has are refused by name",
          "[integration][social]") {
    social::PostInput input;
    input.content = "Two kites";
    input.media_urls = {"https://img.example/a.png", "https://img.example/b.png"};
    input.platform_options = {{"x", {{"alt_texts", {"a red kite", "a blue kite"}}}}};
    CHECK(social::review_for_platforms(input, {"x"}, social::known_limits()).problems.empty());

    input.platform_options["x"]["alt_texts"].push_back("a third kite");
    const auto review = social::review_for_platforms(input, {"x"}, social::known_limits());
    REQUIRE(review.problems.contains("platform_options.x.alt_texts"));
    CHECK(review.problems.at("platform_options.x.alt_texts") == "has 3 descriptions for 2 images");

    input.media_urls.clear();
    input.platform_options = {{"bluesky", {{"alt_texts", {"a kite"}}}}};
    CHECK(social::review_for_platforms(input, {"bluesky"}, social::known_limits())
              .problems.at("platform_options.bluesky.alt_texts") ==
          "has 1 description for 0 images");
}

TEST_CASE_METHOD(XAccount,
                 "X posts a thread as a chain of replies in order, a part's image uploaded with "
                 "its alt text",
                 "[integration][social]") {
    const auto account = target(connect());
    auto m = message("1/3 The post");
    m.post_type = "thread";
    m.options = {{"thread",
                  {{{"text", "2/3 with a photo"},
                    {"media_urls", {fake.media_url("kite.png", "image/png", 3'000)}},
                    {"alt_texts", {"A red kite over a field"}}},
                   {{"text", "3/3 the end"}}}}};
    const auto p = x->publish(account, m);
    REQUIRE_FALSE(p.failure);

    const auto stored = tweets();
    REQUIRE(stored.size() == 3);
    CHECK(stored[0]["id"] == p.message_id);
    CHECK(p.url == "https://x.com/squawkapp/status/" + p.message_id);
    CHECK_FALSE(stored[0].contains("referenced_tweets"));
    CHECK(stored[1]["text"] == "2/3 with a photo");
    CHECK(stored[1]["referenced_tweets"] ==
          json::array({{{"type", "replied_to"}, {"id", stored[0]["id"]}}}));
    CHECK(stored[2]["text"] == "3/3 the end");
    CHECK(stored[2]["referenced_tweets"][0]["id"] == stored[1]["id"]);
    CHECK(stored[2]["conversation_id"] == p.message_id);
    REQUIRE(stored[1]["media"].size() == 1);
    CHECK(stored[1]["media"][0]["alt_text"] == "A red kite over a field");
    const auto uploads = fake.calls("/x/2/media/upload");
    REQUIRE(uploads.size() == 1);
    CHECK(uploads[0]["form"]["files"]["media"]["content_type"] == "image/png");
    CHECK(uploads[0]["form"]["files"]["media"]["bytes"] == 3'000);
    CHECK(posted(2)["reply"] == json{{"in_reply_to_tweet_id", stored[1]["id"]}});

    // The thread's own posts are replies: the account's listing shows the first only.
    const auto listing = x->list_recent(account);
    REQUIRE(listing);
    REQUIRE(listing->posts.size() == 1);
    CHECK(listing->posts[0].external_id == p.message_id);
}

TEST_CASE_METHOD(XAccount,
                 "X stops a thread at a part it refuses: the post stands published, with a "
                 "warning saying which parts went out, and nothing is retried",
                 "[integration][social]") {
    const auto account = target(connect());
    auto m = message("first");
    m.post_type = "thread";
    m.options = {{"thread", {{{"text", "second"}}, {{"text", "third"}}, {{"text", "fourth"}}}}};
    fake.program("/x/2/tweets",
                 {json::object(),
                  json::object(),
                  {{"status", 403},
                   {"body",
                    {{"detail", "You are not allowed to create a Tweet with duplicate content."},
                     {"type", "about:blank"},
                     {"title", "Forbidden"},
                     {"status", 403}}}}});
    const auto refused = x->publish(account, m);
    REQUIRE_FALSE(refused.failure);
    const auto stored = tweets();
    REQUIRE(stored.size() == 2);
    CHECK(refused.message_id == stored[0]["id"]);
    CHECK(refused.url);
    CHECK(refused.warnings ==
          std::vector<std::string>{
              "X published the post " + stored[0]["id"].get<std::string>() + ", thread[0] " +
              stored[1]["id"].get<std::string>() +
              "; then thread[1] failed and the rest was not sent: You are not allowed to create "
              "a Tweet with duplicate content."});

    // A 503 on a part would be retried for a single post; here a retry would repeat the post
    // already out, so the thread ends there too.
    fake.program("/x/2/tweets",
                 {json::object(), {{"status", 503}, {"body", {{"title", "Service Unavailable"}}}}});
    const auto unavailable = x->publish(account, m);
    REQUIRE_FALSE(unavailable.failure);
    REQUIRE(unavailable.warnings.size() == 1);
    CHECK(unavailable.warnings[0].find("then thread[0] failed and the rest was not sent") !=
          std::string::npos);
    CHECK(tweets().size() == 3);

    // A part that timed out may be there: it is never resent, and the warning says so.
    fake.program("/x/2/tweets", {json::object(), {{"delay_ms", 2000}}});
    const auto lost = x->publish(account, m);
    REQUIRE_FALSE(lost.failure);
    REQUIRE(lost.warnings.size() == 1);
    CHECK(lost.warnings[0].find("thread[0] may or may not have been published") !=
          std::string::npos);

    // A part's image that cannot be fetched fails the thread before anything is posted.
    const auto before = tweets().size();
    m.options["thread"][1]["media_urls"] = {fake.media_url("notes.pdf", "application/pdf", 900)};
    const auto bad_image = x->publish(account, m);
    REQUIRE(bad_image.failure);
    CHECK(bad_image.failure->kind == FailureKind::refused);
    CHECK(bad_image.failure->reason.find("application/pdf") != std::string::npos);
    CHECK(tweets().size() == before);
}

TEST_CASE_METHOD(XAccount,
                 "X posts a reply to an existing post and refuses one to a post that is gone",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto parent =
        fake.control_platform("x", "tweet", {{"user_id", user_id}, {"text", "a question"}});
    auto m = message("an answer");
    m.options = {{"reply_to", parent["id"]}};
    const auto p = x->publish(account, m);
    REQUIRE_FALSE(p.failure);
    CHECK(posted(0)["reply"] == json{{"in_reply_to_tweet_id", parent["id"]}});
    CHECK(tweets()[1]["referenced_tweets"][0]["id"] == parent["id"]);

    REQUIRE_FALSE(x->remove(account, parent["id"].get<std::string>()).failure);
    const auto orphan = x->publish(account, m);
    REQUIRE(orphan.failure);
    CHECK(orphan.failure->kind == FailureKind::refused);
    CHECK(orphan.failure->http_status == 403);
    CHECK(orphan.failure->reason ==
          "You attempted to reply to a Tweet that is deleted or not visible to you.");
}

TEST_CASE_METHOD(XAccount, "X describes each image with its alt text before the post",
                 "[integration][social]") {
    const auto account = target(connect());
    auto m = message("Two photos", {"https://img.example/a.png", "https://img.example/b.png"});
    m.uploads = {png("a.png"), png("b.png")};
    m.options = {{"alt_texts", {"", "A heron on one leg"}}};
    REQUIRE_FALSE(x->publish(account, m).failure);
    // An empty alt text is no call.
    const auto described = fake.calls("/x/2/media/metadata");
    REQUIRE(described.size() == 1);
    const auto ids = posted(0)["media"]["media_ids"];
    CHECK(json::parse(described[0]["body"].get<std::string>()) ==
          json{{"id", ids[1]}, {"metadata", {{"alt_text", {{"text", "A heron on one leg"}}}}}});
    const auto media = tweets()[0]["media"];
    CHECK_FALSE(media[0].contains("alt_text"));
    CHECK(media[1]["alt_text"] == "A heron on one leg");
}

TEST_CASE_METHOD(XAccount, "X reads a post's public metrics and the account's followers",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto p = x->publish(account, message("counted"));
    REQUIRE_FALSE(p.failure);
    fake.control_platform("x", "engagement",
                          {{"id", p.message_id},
                           {"like_count", 7},
                           {"reply_count", 2},
                           {"retweet_count", 3},
                           {"quote_count", 1},
                           {"bookmark_count", 4},
                           {"impression_count", 250}});
    const auto reading = x->post_metrics(account, p.message_id);
    REQUIRE(reading);
    REQUIRE_FALSE(reading->failure);
    const auto& m = reading->metrics;
    CHECK(m.likes == 7);
    CHECK(m.comments == 2);
    CHECK(m.shares == 4);
    CHECK(m.saves == 4);
    CHECK(m.impressions == 250);
    CHECK_FALSE(m.reach);
    CHECK_FALSE(m.followers);
    const auto calls = fake.calls("/x/2/tweets/" + p.message_id);
    REQUIRE(calls.size() == 1);
    CHECK(query_fields(calls[0]["target"].get<std::string>()).at("tweet.fields") ==
          "public_metrics");

    REQUIRE_FALSE(x->remove(account, p.message_id).failure);
    const auto gone = x->post_metrics(account, p.message_id);
    REQUIRE(gone);
    REQUIRE(gone->failure);
    CHECK(gone->failure->kind == FailureKind::refused);
    CHECK(gone->failure->reason == "Could not find tweet with id: [" + p.message_id + "].");

    fake.control_platform("x", "user",
                          {{"id", user_id},
                           {"username", "squawkapp"},
                           {"name", "Squawk"},
                           {"followers", 1200},
                           {"following", 80}});
    const auto profile = x->account_metrics(account);
    REQUIRE(profile);
    REQUIRE_FALSE(profile->failure);
    CHECK(profile->metrics.followers == 1200);
    CHECK(profile->metrics.following == 80);
}

TEST_CASE_METHOD(XAccount,
                 "X reads a post's conversation by search, page by page and each page oldest "
                 "first, and answers, likes and hides its replies",
                 "[integration][social]") {
    const std::string fan = "1600000000000000077";
    fake.control_platform("x", "user", {{"id", fan}, {"username", "fan"}, {"name", "A Fan"}});
    const auto account = target(connect());
    const auto p = x->publish(account, message("What do you think?"));
    REQUIRE_FALSE(p.failure);
    const auto reply = [&](const std::string& text, const std::string& to) {
        return fake
            .control_platform("x", "tweet",
                              {{"user_id", fan}, {"text", text}, {"reply_to", to}})["id"]
            .get<std::string>();
    };
    const auto first = reply("Love it", p.message_id);
    const auto under = reply("Me too", first);
    std::vector<std::string> more;
    for (int i = 0; i < 100; ++i) more.push_back(reply("More " + std::to_string(i), p.message_id));

    // X searches newest first: the first page holds the newest 100, turned oldest first.
    const auto newest = x->list_comments(account, p.message_id, "");
    REQUIRE(newest);
    REQUIRE_FALSE(newest->failure);
    REQUIRE(newest->comments.size() == 100);
    CHECK(newest->comments.front().external_id == more.front());
    CHECK(newest->comments.back().external_id == more.back());
    CHECK(newest->comments.back().author_name == "A Fan");
    CHECK(newest->comments.back().author_id == fan);
    REQUIRE(newest->next_cursor);
    const auto older = x->list_comments(account, p.message_id, *newest->next_cursor);
    REQUIRE(older);
    REQUIRE(older->comments.size() == 2);
    CHECK(older->comments[0].external_id == first);
    CHECK(older->comments[0].parent_id.empty());
    CHECK(older->comments[1].external_id == under);
    CHECK(older->comments[1].parent_id == first);
    CHECK_FALSE(older->next_cursor);

    const auto answered = x->reply_to_comment(account, under, message("Thanks, both"));
    REQUIRE(answered);
    REQUIRE_FALSE(answered->failure);
    CHECK(tweets().back()["referenced_tweets"][0] == json{{"type", "replied_to"}, {"id", under}});

    const auto liked = x->like_comment(account, first);
    REQUIRE(liked);
    REQUIRE_FALSE(liked->failure);
    const auto likes = fake.calls("/x/2/users/" + user_id + "/likes");
    REQUIRE(likes.size() == 1);
    CHECK(json::parse(likes[0]["body"].get<std::string>()) == json{{"tweet_id", first}});

    const auto hidden = x->moderate_comment(account, first, social::Moderation::hide);
    REQUIRE(hidden);
    REQUIRE_FALSE(hidden->failure);
    const auto hides = fake.calls("/x/2/tweets/" + first + "/hidden");
    REQUIRE(hides.size() == 1);
    CHECK(hides[0]["method"] == "PUT");
    CHECK(json::parse(hides[0]["body"].get<std::string>()) == json{{"hidden", true}});
    const auto shown = x->moderate_comment(account, first, social::Moderation::unhide);
    REQUIRE(shown);
    REQUIRE_FALSE(shown->failure);

    // Its own reply the account deletes; a fan's it may only hide.
    const auto own = x->moderate_comment(account, answered->message_id, social::Moderation::remove);
    REQUIRE(own);
    REQUIRE_FALSE(own->failure);
    CHECK(tweets().size() == 1);
    const auto fans = x->moderate_comment(account, first, social::Moderation::remove);
    REQUIRE(fans);
    REQUIRE(fans->failure);
    CHECK(fans->failure->reason ==
          "X lets an account delete only its own posts; hide the reply instead");
}

TEST_CASE_METHOD(XAccount, "X hides replies only with tweet.moderate.write",
                 "[integration][social]") {
    const auto account = target(
        connect({{"scopes", {"tweet.read", "tweet.write", "users.read", "offline.access"}}}));
    const auto p = x->publish(account, message("Mine"));
    REQUIRE_FALSE(p.failure);
    const auto refused = x->moderate_comment(account, p.message_id, social::Moderation::hide);
    REQUIRE(refused);
    REQUIRE(refused->failure);
    CHECK(refused->failure->access == social::AccessLoss::permission_missing);
}
