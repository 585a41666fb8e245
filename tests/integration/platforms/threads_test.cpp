// The Threads connector against the fake Threads Graph API: the consent page's code buys a
// short-lived token traded for a long-lived one that refreshes itself, posts go out as media
// containers (text, an image, a carousel of image items) published once FINISHED, posts are
// deleted (again too) and listed, and each failure is classified as the publish worker relies on.
#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/extensions/platforms/threads/options.hpp"
#include "tests/support/connector_fixture.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::testing;
using nlohmann::json;
using social::FailureKind;

namespace {

constexpr long long kThreadsLongLivedSeconds = 5183944;

// The user @squawk.app, who connects through the consent page as the tests need.
struct ThreadsAccount : ConnectorFixture {
    ThreadsAccount() {
        fake.control_platform(
            "threads", "user",
            {{"id", user_id}, {"username", "squawk.app"}, {"name", "Squawk Team"}});
    }
    const std::string user_id = "17841400000000042";
    std::unique_ptr<social::Connector> threads = connector("threads");
    const social::OAuthClient client = oauth_client("threads");

    std::string consent_url() {
        return threads->authorize_url(client, "st4te", social::code_challenge_of("verifier"));
    }
    // The user at the consent page as `how` (next_consent) says: the redirect's parameters.
    Fields consent_as(const json& how) {
        fake.control_platform("threads", "next_consent", how);
        return consent(consent_url());
    }
    // The account connected: the credentials its grant keeps.
    social::Credentials connect(json how = json::object()) {
        how["user_id"] = user_id;
        const auto redirect = consent_as(how);
        REQUIRE(redirect.contains("code"));
        const auto grant = threads->exchange_code(client, redirect.at("code"), "verifier");
        REQUIRE_FALSE(grant.failure);
        return grant.credentials;
    }
    social::Target target(social::Credentials credentials) const {
        return {{user_id, "Squawk Team", "squawk.app"}, std::move(credentials)};
    }

    // The posts on the fake for the account, oldest first.
    json posts() { return fake.messages()["threads"].value(user_id, json::array()); }
    // The calls whose path is exactly `path` (under the fake's /threads).
    json calls_to(const std::string& path) {
        json out = json::array();
        for (const auto& call : fake.calls("/threads" + path))
            if (call["path"] == "/threads" + path) out.push_back(call);
        return out;
    }
    json containers_made() { return calls_to("/v1.0/" + user_id + "/threads"); }
    json publishes() { return calls_to("/v1.0/" + user_id + "/threads_publish"); }
};

}  // namespace

TEST_CASE_METHOD(ThreadsAccount,
                 "Threads consent asks for the scopes and state and its code buys a long-lived "
                 "token once",
                 "[integration][social]") {
    const auto url = consent_url();
    CHECK(url.starts_with(fake.authorize_url("threads") + "?"));
    const auto asked = query_fields(url);
    CHECK(asked.at("scope") ==
          "threads_basic,threads_content_publish,threads_delete,threads_manage_insights,"
          "threads_read_replies,threads_manage_replies");
    CHECK(asked.at("state") == "st4te");
    CHECK(asked.at("client_id") == client.client_id);
    CHECK(asked.at("redirect_uri") == client.redirect_uri);
    CHECK(asked.at("response_type") == "code");

    fake.control_platform("threads", "next_consent", {{"user_id", user_id}});
    const auto redirect = consent(url);
    REQUIRE(redirect.contains("code"));
    CHECK(redirect.at("state") == "st4te");
    const long long before = unix_now();
    const auto grant = threads->exchange_code(client, redirect.at("code"), "verifier");
    REQUIRE_FALSE(grant.failure);
    const auto& credentials = grant.credentials;
    CHECK(credentials.at("user_id") == user_id);
    CHECK(credentials.at("access_token").starts_with("THQVJLong"));
    const long long expires_at = std::stoll(credentials.at("expires_at"));
    CHECK(expires_at >= before + kThreadsLongLivedSeconds);
    CHECK(expires_at <= unix_now() + kThreadsLongLivedSeconds);
    CHECK_FALSE(credentials.contains("refresh_token"));
    CHECK_FALSE(credentials.contains("scope"));
    CHECK(social::missing_scopes(credentials, social::find_platform("threads")->oauth_scopes)
              .empty());

    const auto code_call = calls_to("/oauth/access_token");
    REQUIRE(code_call.size() == 1);
    CHECK(code_call[0]["method"] == "POST");
    CHECK(form_of(code_call[0]) == Fields{{"client_id", client.client_id},
                                          {"client_secret", client.client_secret},
                                          {"grant_type", "authorization_code"},
                                          {"redirect_uri", client.redirect_uri},
                                          {"code", redirect.at("code")}});
    const auto exchange = calls_to("/access_token");
    REQUIRE(exchange.size() == 1);
    CHECK(exchange[0]["method"] == "GET");
    const auto exchanged = call_query(exchange[0]);
    CHECK(exchanged.at("grant_type") == "th_exchange_token");
    CHECK(exchanged.at("client_secret") == client.client_secret);
    CHECK(exchanged.at("access_token").starts_with("THQVJShort"));
    CHECK(threads->verify(credentials).identity);

    const auto again = threads->exchange_code(client, redirect.at("code"), "verifier");
    REQUIRE(again.failure);
    CHECK(again.failure->kind == FailureKind::refused);
    CHECK(again.failure->reason == "This authorization code has been used.");
}

TEST_CASE_METHOD(ThreadsAccount,
                 "Threads consent denied brings no code and a code is bound to its redirect and "
                 "application",
                 "[integration][social]") {
    const auto denied = consent_as({{"user_id", user_id}, {"deny", true}});
    CHECK(denied.at("error") == "access_denied");
    CHECK(denied.at("error_reason") == "user_denied");
    CHECK(denied.at("state") == "st4te");
    CHECK_FALSE(denied.contains("code"));
    // Nobody at the consent page: it does not redirect.
    CHECK(consent(consent_url()).empty());

    const auto code = consent_as({{"user_id", user_id}}).at("code");
    auto elsewhere = client;
    elsewhere.redirect_uri = "https://elsewhere.example/callback";
    const auto moved = threads->exchange_code(elsewhere, code, "verifier");
    REQUIRE(moved.failure);
    CHECK(moved.failure->kind == FailureKind::refused);
    CHECK(moved.failure->reason.find("redirect_uri") != std::string::npos);
    auto impostor = client;
    impostor.client_secret = "not-the-secret";
    const auto forged = threads->exchange_code(impostor, code, "verifier");
    REQUIRE(forged.failure);
    CHECK(forged.failure->reason == "Error validating client secret.");
    CHECK(calls_to("/access_token").empty());
    CHECK_FALSE(threads->exchange_code(client, code, "verifier").failure);
}

TEST_CASE_METHOD(ThreadsAccount,
                 "Threads partial consent keeps the granted scopes and deleting needs "
                 "threads_delete and reading counts threads_manage_insights",
                 "[integration][social]") {
    const auto credentials = connect({{"scopes", {"threads_basic", "threads_content_publish"}}});
    CHECK(credentials.at("scope") == "threads_basic threads_content_publish");
    CHECK(social::missing_scopes(credentials, social::find_platform("threads")->oauth_scopes) ==
          std::vector<std::string>{"threads_delete", "threads_manage_insights",
                                   "threads_read_replies", "threads_manage_replies"});
    const auto t = target(credentials);
    const auto p = threads->publish(t, message("publishing was granted"));
    REQUIRE_FALSE(p.failure);
    const auto removed = threads->remove(t, p.message_id);
    REQUIRE(removed.failure);
    CHECK(removed.failure->kind == FailureKind::refused);
    CHECK(removed.failure->reason == "Application does not have permission for this action");
    CHECK(posts().size() == 1);
    const auto counts = threads->post_metrics(t, p.message_id);
    REQUIRE(counts);
    REQUIRE(counts->failure);
    CHECK(counts->failure->kind == FailureKind::refused);
}

TEST_CASE_METHOD(ThreadsAccount,
                 "Threads refresh trades the long-lived token for a new one with a new expiry",
                 "[integration][social]") {
    const auto credentials = connect();
    const long long before = unix_now();
    const auto refreshed = threads->refresh(client, credentials);
    REQUIRE_FALSE(refreshed.failure);
    const auto& fresh = refreshed.credentials;
    CHECK(fresh.at("access_token") != credentials.at("access_token"));
    CHECK(std::stoll(fresh.at("expires_at")) >= before + kThreadsLongLivedSeconds);
    CHECK_FALSE(fresh.contains("refresh_token"));
    const auto calls = calls_to("/refresh_access_token");
    REQUIRE(calls.size() == 1);
    CHECK(calls[0]["method"] == "GET");
    CHECK(call_query(calls[0]) == Fields{{"grant_type", "th_refresh_token"},
                                         {"access_token", credentials.at("access_token")}});
    CHECK(threads->verify(fresh).identity);

    // An expired token cannot be refreshed: the user must consent again.
    fake.control_platform("threads", "expire", {{"user_id", user_id}});
    const auto dead = threads->refresh(client, fresh);
    REQUIRE(dead.failure);
    CHECK(dead.failure->kind == FailureKind::refused);
    CHECK(dead.failure->field == "access_token");
    CHECK(threads->refresh(client, {}).failure);
}

TEST_CASE_METHOD(ThreadsAccount, "Threads verify names the account by its id name and username",
                 "[integration][social]") {
    auto credentials = connect();
    REQUIRE(threads->check(credentials).empty());
    const auto v = threads->verify(credentials);
    REQUIRE(v.identity);
    CHECK(v.identity->external_id == user_id);
    CHECK(v.identity->display_name == "Squawk Team");
    CHECK(v.identity->handle == "squawk.app");
    const auto me = calls_to("/v1.0/me");
    REQUIRE(me.size() == 1);
    CHECK(me[0]["target"] == "/threads/v1.0/me?fields=id,username,name");
    CHECK(me[0]["headers"]["authorization"] == "Bearer " + credentials.at("access_token"));

    fake.revoke(credentials.at("access_token"));
    const auto revoked = threads->verify(credentials);
    REQUIRE(revoked.failure);
    CHECK(revoked.failure->kind == FailureKind::refused);
    CHECK(revoked.failure->field == "access_token");

    social::Credentials empty;
    const auto missing = threads->check(empty);
    REQUIRE(missing.size() == 1);
    CHECK(missing[0].field == "access_token");
    social::Credentials spaced{{"access_token", "TH not a token"}};
    CHECK(threads->check(spaced).size() == 1);
}

TEST_CASE_METHOD(ThreadsAccount,
                 "Threads publishes text as a TEXT container by threads_publish at once, its "
                 "status unread",
                 "[integration][social]") {
    const auto t = target(connect());
    const auto p = threads->publish(t, message("Hello from Squawk & friends"));
    REQUIRE_FALSE(p.failure);

    const auto made = containers_made();
    REQUIRE(made.size() == 1);
    CHECK(made[0]["method"] == "POST");
    CHECK(made[0]["headers"]["authorization"] == "Bearer " + t.credentials.at("access_token"));
    CHECK(form_of(made[0]) ==
          Fields{{"media_type", "TEXT"}, {"text", "Hello from Squawk & friends"}});
    const auto published = publishes();
    REQUIRE(published.size() == 1);
    const auto container = call_query(published[0]).at("creation_id");
    CHECK(calls_to("/v1.0/" + container).empty());

    const auto stored = posts();
    REQUIRE(stored.size() == 1);
    CHECK(stored[0]["id"] == p.message_id);
    CHECK(stored[0]["media_type"] == "TEXT_POST");
    CHECK(stored[0]["text"] == "Hello from Squawk & friends");
    CHECK(p.url == stored[0]["permalink"].get<std::string>());
    CHECK(p.url->starts_with("https://www.threads.net/@squawk.app/post/"));
}

TEST_CASE_METHOD(ThreadsAccount,
                 "Threads publishes a reply to an existing post with reply_to_id, and refuses "
                 "one to a post it does not know",
                 "[integration][social]") {
    const auto t = target(connect());
    const auto first = threads->publish(t, message("The question"));
    REQUIRE_FALSE(first.failure);
    auto reply = message("The answer");
    reply.options = {{"reply_to", first.message_id}};
    const auto answered = threads->publish(t, reply);
    REQUIRE_FALSE(answered.failure);
    CHECK(form_of(containers_made().back()) == Fields{{"reply_to_id", first.message_id},
                                                      {"media_type", "TEXT"},
                                                      {"text", "The answer"}});
    const auto stored = posts();
    REQUIRE(stored.size() == 2);
    CHECK(stored[1]["id"] == answered.message_id);
    CHECK(stored[1]["is_reply"] == true);
    CHECK(stored[1]["replied_to"]["id"] == first.message_id);

    reply.options = {{"reply_to", "17999999999999999"}};
    const auto lost = threads->publish(t, reply);
    REQUIRE(lost.failure);
    CHECK(lost.failure->kind == social::FailureKind::refused);
    CHECK(lost.failure->reason == "Param reply_to_id must be the id of an existing Threads post");
    CHECK(posts().size() == 2);
}

TEST_CASE_METHOD(ThreadsAccount,
                 "Threads publishes a video as a VIDEO container by its public URL, and refuses "
                 "one Squawk had to transcode",
                 "[integration][social]") {
    const auto t = target(connect());
    fs::ScratchDirectory folder("squawk-threads-");
    auto clip = message("A clip");
    clip.video = video_file(folder, 3'000'000, {12, 1080, 1920});
    const auto p = threads->publish(t, clip);
    REQUIRE_FALSE(p.failure);
    CHECK(form_of(containers_made().back()) ==
          Fields{{"media_type", "VIDEO"}, {"video_url", clip.video->url}, {"text", "A clip"}});
    const auto stored = posts();
    REQUIRE(stored.size() == 1);
    CHECK(stored[0]["media_type"] == "VIDEO");
    CHECK(stored[0]["media_url"] == clip.video->url);

    clip.video->transcoded = true;
    const auto refused = threads->publish(t, clip);
    REQUIRE(refused.failure);
    CHECK(refused.failure->kind == social::FailureKind::refused);
    CHECK(refused.failure->reason.starts_with("Threads takes a video only by its public URL"));
    CHECK(posts().size() == 1);
}

TEST_CASE("Threads options take reply_to as a post id and nothing else", "[integration][social]") {
    CHECK(social::threads::check_options({{"reply_to", "17900000000000001"}}, "post").empty());
    const auto problems =
        social::threads::check_options({{"reply_to", "not-an-id"}, {"poll", true}}, "post");
    REQUIRE(problems.size() == 2);
    CHECK(problems[0].field == "poll");
    CHECK(problems[1].field == "reply_to");
}

TEST_CASE_METHOD(ThreadsAccount,
                 "Threads publishes one image as an IMAGE container by its public URL",
                 "[integration][social]") {
    const auto t = target(connect());
    const auto image = fake.media_url("photo.jpg", "image/jpeg", 300'000);
    const auto p = threads->publish(t, message("A caption", {image}));
    REQUIRE_FALSE(p.failure);
    const auto made = containers_made();
    REQUIRE(made.size() == 1);
    CHECK(form_of(made[0]) ==
          Fields{{"media_type", "IMAGE"}, {"image_url", image}, {"text", "A caption"}});
    const auto stored = posts();
    REQUIRE(stored.size() == 1);
    CHECK(stored[0]["media_type"] == "IMAGE");
    CHECK(stored[0]["media_url"] == image);
    CHECK(stored[0]["text"] == "A caption");

    // Threads fetches images itself: one the media plan meant to upload is refused unsent.
    auto upload = message("x", {image});
    upload.uploads = {social::Upload{"photo.jpg", "image/jpeg", "bytes"}};
    const auto refused = threads->publish(t, upload);
    REQUIRE(refused.failure);
    CHECK(refused.failure->kind == FailureKind::refused);
    CHECK(containers_made().size() == 1);
}

TEST_CASE_METHOD(ThreadsAccount,
                 "Threads publishes several images as a carousel of item containers, read until "
                 "FINISHED when Threads answers that it is not ready",
                 "[integration][social]") {
    const auto t = target(connect());
    fake.control_platform("threads", "container_delay", {{"polls", 2}});
    const std::vector<std::string> images = {fake.media_url("a.jpg", "image/jpeg", 1000),
                                             fake.media_url("b.png", "image/png", 2000),
                                             fake.media_url("c.jpg", "image/jpeg", 3000)};
    const auto p = threads->publish(t, message("Three photos", images));
    REQUIRE_FALSE(p.failure);

    const auto made = containers_made();
    REQUIRE(made.size() == 4);
    for (size_t i = 0; i < 3; ++i)
        CHECK(form_of(made[i]) == Fields{{"media_type", "IMAGE"},
                                         {"image_url", images[i]},
                                         {"is_carousel_item", "true"}});
    const auto carousel = form_of(made[3]);
    CHECK(carousel.at("media_type") == "CAROUSEL");
    CHECK(carousel.at("text") == "Three photos");
    const auto children = carousel.at("children");
    CHECK(std::count(children.begin(), children.end(), ',') == 2);

    // Refused as not ready, then IN_PROGRESS twice, then FINISHED, and only then published.
    const auto published = publishes();
    REQUIRE(published.size() == 2);
    const auto container = call_query(published[0]).at("creation_id");
    CHECK(call_query(published[1]).at("creation_id") == container);
    const auto status = calls_to("/v1.0/" + container);
    REQUIRE(status.size() == 3);
    CHECK(call_query(status[0]).at("fields") == "status,error_message");
    CHECK(published[0]["received_at_ms"] <= status[0]["received_at_ms"]);
    CHECK(status[2]["received_at_ms"] <= published[1]["received_at_ms"]);

    const auto stored = posts();
    REQUIRE(stored.size() == 1);
    CHECK(stored[0]["media_type"] == "CAROUSEL_ALBUM");
    REQUIRE(stored[0]["children"].size() == 3);
    for (size_t i = 0; i < 3; ++i) CHECK(stored[0]["children"][i]["media_url"] == images[i]);
}

TEST_CASE_METHOD(ThreadsAccount,
                 "Threads refuses a post whose container ends in ERROR with its error message",
                 "[integration][social]") {
    const auto t = target(connect());
    const auto gif = fake.media_url("moving.gif", "image/gif", 1000);
    const auto single = threads->publish(t, message("moving", {gif}));
    REQUIRE(single.failure);
    CHECK(single.failure->kind == FailureKind::refused);
    CHECK(single.failure->reason == "Threads could not process the post: UNKNOWN");

    const auto jpeg = fake.media_url("still.jpg", "image/jpeg", 1000);
    const auto album = threads->publish(t, message("mixed", {jpeg, gif}));
    REQUIRE(album.failure);
    CHECK(album.failure->kind == FailureKind::refused);
    CHECK(album.failure->reason == "Threads could not process the post: UNKNOWN");
    // Each publish was answered not ready and its container then read as ERROR.
    CHECK(publishes().size() == 2);
    CHECK(posts().empty());
}

TEST_CASE_METHOD(ThreadsAccount, "Threads deletes a post and deleting it again succeeds",
                 "[integration][social]") {
    const auto t = target(connect());
    const auto p = threads->publish(t, message("short-lived"));
    REQUIRE_FALSE(p.failure);
    CHECK_FALSE(threads->remove(t, p.message_id).failure);
    const auto deleted = calls_to("/v1.0/" + p.message_id);
    REQUIRE_FALSE(deleted.empty());
    CHECK(deleted.back()["method"] == "DELETE");
    CHECK(deleted.back()["headers"]["authorization"] ==
          "Bearer " + t.credentials.at("access_token"));
    CHECK(posts().empty());
    CHECK_FALSE(threads->remove(t, p.message_id).failure);

    const auto bad = threads->remove(t, "../me");
    REQUIRE(bad.failure);
    CHECK(bad.failure->kind == FailureKind::refused);
    CHECK(threads->edit(t, p.message_id, message("changed")).failure);
    CHECK_FALSE(threads->limits().can_edit);
    CHECK(threads->limits().can_remove);
}

TEST_CASE_METHOD(ThreadsAccount,
                 "Threads lists the account's posts newest first and leaves reposts out",
                 "[integration][social]") {
    const auto t = target(connect());
    const auto ours = threads->publish(t, message("from Squawk"));
    REQUIRE_FALSE(ours.failure);
    const auto native =
        fake.control_platform("threads", "post", {{"user_id", user_id}, {"text", "from the app"}});
    fake.control_platform("threads", "post",
                          {{"user_id", user_id}, {"media_type", "REPOST_FACADE"}});
    const auto listing = threads->list_recent(t);
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
    const auto listed = calls_to("/v1.0/" + user_id + "/threads");
    const auto query = call_query(listed.back());
    CHECK(query.at("fields") == "id,media_type,text,permalink,timestamp");
    CHECK(query.at("limit") == "100");
}

TEST_CASE_METHOD(ThreadsAccount,
                 "Threads reads the account's followers and a post's views likes replies and "
                 "shares from insights",
                 "[integration][social]") {
    fake.control_platform("threads", "user",
                          {{"id", user_id},
                           {"username", "squawk.app"},
                           {"name", "Squawk Team"},
                           {"followers_count", 4321}});
    const auto t = target(connect());
    const auto account = threads->account_metrics(t);
    REQUIRE(account);
    REQUIRE_FALSE(account->failure);
    CHECK(account->metrics.followers == 4321);
    const auto followers_call = calls_to("/v1.0/" + user_id + "/threads_insights");
    REQUIRE(followers_call.size() == 1);
    CHECK(call_query(followers_call[0]).at("metric") == "followers_count");

    const auto p = threads->publish(t, message("Counted"));
    REQUIRE_FALSE(p.failure);
    fake.control_platform("threads", "insights",
                          {{"post_id", p.message_id},
                           {"counts",
                            {{"views", 900},
                             {"likes", 40},
                             {"replies", 7},
                             {"reposts", 3},
                             {"quotes", 2},
                             {"shares", 1}}}});
    const auto post = threads->post_metrics(t, p.message_id);
    REQUIRE(post);
    REQUIRE_FALSE(post->failure);
    CHECK(post->metrics.impressions == 900);
    CHECK(post->metrics.likes == 40);
    CHECK(post->metrics.comments == 7);
    CHECK(post->metrics.shares == 6);
    CHECK_FALSE(post->metrics.followers);
    CHECK_FALSE(post->metrics.saves);
    const auto post_call = calls_to("/v1.0/" + p.message_id + "/insights");
    REQUIRE(post_call.size() == 1);
    CHECK(call_query(post_call[0]).at("metric") == "views,likes,replies,reposts,quotes,shares");

    // A post deleted (or never this account's) is refused; an id that is not one is refused
    // before any call.
    REQUIRE_FALSE(threads->remove(t, p.message_id).failure);
    const auto gone = threads->post_metrics(t, p.message_id);
    REQUIRE(gone);
    REQUIRE(gone->failure);
    CHECK(gone->failure->kind == FailureKind::refused);
    const auto calls_before = fake.calls("/threads/v1.0/").size();
    const auto bad = threads->post_metrics(t, "not-an-id");
    REQUIRE(bad);
    REQUIRE(bad->failure);
    CHECK(bad->failure->kind == FailureKind::refused);
    CHECK(fake.calls("/threads/v1.0/").size() == calls_before);
}

TEST_CASE_METHOD(ThreadsAccount,
                 "Threads failures are classified: throttled and 5xx not accepted and no answer "
                 "after publishing unknown and a dead token refused",
                 "[integration][social]") {
    const auto t = target(connect());
    fake.program("/threads_publish", {{{"status", 400},
                                       {"body",
                                        {{"error",
                                          {{"message", "Application request limit reached"},
                                           {"type", "OAuthException"},
                                           {"code", 4}}}}}}});
    const auto throttled = threads->publish(t, message("a"));
    REQUIRE(throttled.failure);
    CHECK(throttled.failure->kind == FailureKind::not_accepted);
    CHECK(throttled.failure->http_status == 400);
    CHECK(throttled.failure->reason == "Application request limit reached");

    fake.program("/threads_publish",
                 {{{"status", 503},
                   {"body", {{"error", {{"message", "Service unavailable"}, {"code", 2}}}}}}});
    const auto unavailable = threads->publish(t, message("b"));
    REQUIRE(unavailable.failure);
    CHECK(unavailable.failure->kind == FailureKind::not_accepted);
    CHECK(unavailable.failure->http_status == 503);

    fake.program("/threads_publish", {{{"delay_ms", 1500}}});
    const auto slow = threads->publish(t, message("c"));
    REQUIRE(slow.failure);
    CHECK(slow.failure->kind == FailureKind::unknown_outcome);

    // A container publishes nothing: no answer to one is a sure non-acceptance.
    fake.program("/v1.0/" + user_id + "/threads", {{{"delay_ms", 1500}}});
    const auto no_container = threads->publish(t, message("d"));
    REQUIRE(no_container.failure);
    CHECK(no_container.failure->kind == FailureKind::not_accepted);

    fake.control_platform("threads", "expire", {{"user_id", user_id}});
    const auto expired = threads->publish(t, message("e"));
    REQUIRE(expired.failure);
    CHECK(expired.failure->kind == FailureKind::refused);
    CHECK(expired.failure->field == "access_token");
    CHECK(expired.failure->reason.starts_with("Error validating access token"));
}

TEST_CASE_METHOD(ThreadsAccount,
                 "Threads lists the replies under a post oldest first by page, answers one and "
                 "hides a top-level one",
                 "[integration][social]") {
    fake.control_platform("threads", "user", {{"id", "17841400000000077"}, {"username", "fan"}});
    const auto t = target(connect());
    const auto p = threads->publish(t, message("Tell us"));
    REQUIRE_FALSE(p.failure);
    const auto reply = [&](const std::string& text, const std::string& to) {
        return fake
            .control_platform(
                "threads", "post",
                {{"user_id", "17841400000000077"}, {"text", text}, {"reply_to_id", to}})["id"]
            .get<std::string>();
    };
    const auto first = reply("Love it", p.message_id);
    const auto under = reply("Same here", first);
    std::vector<std::string> more;
    for (int i = 0; i < 100; ++i) more.push_back(reply("More " + std::to_string(i), p.message_id));

    const auto page = threads->list_comments(t, p.message_id, "");
    REQUIRE(page);
    REQUIRE_FALSE(page->failure);
    REQUIRE(page->comments.size() == 100);
    CHECK(page->comments[0].external_id == first);
    CHECK(page->comments[0].parent_id.empty());
    CHECK(page->comments[0].author_name == "fan");
    CHECK(page->comments[0].text == "Love it");
    CHECK(page->comments[1].external_id == under);
    CHECK(page->comments[1].parent_id == first);
    REQUIRE(page->next_cursor);
    const auto rest = threads->list_comments(t, p.message_id, *page->next_cursor);
    REQUIRE(rest);
    REQUIRE(rest->comments.size() == 2);
    CHECK(rest->comments[1].external_id == more.back());
    CHECK_FALSE(rest->next_cursor);
    const auto asked = query_fields(fake.calls("/conversation")[0]["target"].get<std::string>());
    CHECK(asked.at("reverse") == "false");

    const auto answered = threads->reply_to_comment(t, first, message("Thank you!"));
    REQUIRE(answered);
    REQUIRE_FALSE(answered->failure);
    CHECK(posts().back()["replied_to"]["id"] == first);

    const auto hidden = threads->moderate_comment(t, first, social::Moderation::hide);
    REQUIRE(hidden);
    REQUIRE_FALSE(hidden->failure);
    const auto after = threads->list_comments(t, p.message_id, "");
    REQUIRE(after);
    CHECK(after->comments[0].hidden);
    // Threads hides a nested reply only with the top-level one above it.
    const auto nested = threads->moderate_comment(t, under, social::Moderation::hide);
    REQUIRE(nested);
    REQUIRE(nested->failure);
    CHECK(nested->failure->kind == FailureKind::refused);
    const auto shown = threads->moderate_comment(t, first, social::Moderation::unhide);
    REQUIRE(shown);
    REQUIRE_FALSE(shown->failure);

    // Its own reply the account may delete; a fan's it may not.
    const auto own = threads->moderate_comment(t, answered->message_id, social::Moderation::remove);
    REQUIRE(own);
    REQUIRE_FALSE(own->failure);
    CHECK(posts().size() == 1);
    const auto fans = threads->moderate_comment(t, first, social::Moderation::remove);
    REQUIRE(fans);
    REQUIRE(fans->failure);
    CHECK(fans->failure->reason ==
          "Threads lets an account delete only its own replies; hide the reply instead");
    CHECK_FALSE(threads->like_comment(t, first));
}

TEST_CASE_METHOD(ThreadsAccount, "Threads needs threads_read_replies to read replies",
                 "[integration][social]") {
    const auto t = target(connect({{"scopes", {"threads_basic", "threads_content_publish"}}}));
    const auto p = threads->publish(t, message("Quiet"));
    REQUIRE_FALSE(p.failure);
    const auto listed = threads->list_comments(t, p.message_id, "");
    REQUIRE(listed);
    REQUIRE(listed->failure);
    CHECK(listed->failure->access == social::AccessLoss::permission_missing);
}
