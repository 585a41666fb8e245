// The Bluesky connector against the fake PDS: a session from an app password names the account
// (by its profile's display name) and is kept across operations, refreshed when its access token
// expires; posts carry link and mention facets at UTF-8 byte offsets, a link card or uploaded
// images with their alt texts; posts are deleted (again too) and listed, their counts and the
// account's followers read, and each failure is classified as the publish worker relies on.
#include "common/core/fs/work_files.hpp"
#include "tests/support/connector_fixture.hpp"

#include <catch2/catch.hpp>

#include <thread>
#include <vector>

using namespace squawk;
using namespace squawk::testing;
using nlohmann::json;
using social::FailureKind;

namespace {

// The account @squawk.bsky.social with one app password, connected as the tests publish to it.
struct BlueskyAccount : ConnectorFixture {
    BlueskyAccount() {
        fake.control_platform("bluesky", "account",
                              {{"did", did},
                               {"handle", "squawk.bsky.social"},
                               {"email", "team@squawk.example"},
                               {"app_password", app_password}});
    }
    const std::string did = "did:plc:squawk4bluesky7test";
    const std::string app_password = "abcd-efgh-ijkl-mnop";
    const social::Credentials credentials{{"identifier", "squawk.bsky.social"},
                                          {"app_password", app_password}};
    const social::Target target{{did, "squawk.bsky.social", "squawk.bsky.social"}, credentials};
    std::unique_ptr<social::Connector> bluesky = connector("bluesky");

    // The post records on the fake PDS for the account, oldest first.
    json posts() { return fake.messages()["bluesky"].value(did, json::array()); }
    // How many calls of the XRPC method `method` the fake received.
    size_t calls_of(const std::string& method) { return fake.calls("/xrpc/" + method).size(); }
    // Someone on the fake PDS the account can mention.
    void someone(const std::string& someone_did, const std::string& handle) {
        fake.control_platform("bluesky", "account", {{"did", someone_did}, {"handle", handle}});
    }
    // A web page on the fake at /bluesky/_pages/<name>; returns its URL.
    std::string page(const std::string& name, const std::string& html) {
        fake.control_platform("bluesky", "page", {{"name", name}, {"html", html}});
        return page_url(name);
    }
    std::string page_url(const std::string& name) const {
        return fake.base_url("bluesky") + "/_pages/" + name;
    }
    // The body of the one call whose path contains `method`.
    json sent(const std::string& method) {
        const auto calls = fake.calls("/xrpc/" + method);
        REQUIRE(calls.size() == 1);
        return json::parse(calls[0]["body"].get<std::string>());
    }
};

std::string rkey_of(const std::string& uri) {
    return uri.substr(uri.rfind('/') + 1);
}

}  // namespace

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky verifies an app password with createSession and names the account by "
                 "its DID and handle",
                 "[integration][social]") {
    social::Credentials typed{
        {"identifier", "@squawk.bsky.social"}, {"app_password", app_password}, {"service", ""}};
    REQUIRE(bluesky->check(typed).empty());
    CHECK(typed["identifier"] == "squawk.bsky.social");
    CHECK_FALSE(typed.contains("service"));
    const auto v = bluesky->verify(typed);
    REQUIRE(v.identity);
    CHECK(v.identity->external_id == did);
    CHECK(v.identity->handle == "squawk.bsky.social");
    CHECK(v.identity->display_name == "squawk.bsky.social");
    CHECK(sent("com.atproto.server.createSession") ==
          json{{"identifier", "squawk.bsky.social"}, {"password", app_password}});
    CHECK(bluesky->verify({{"identifier", "team@squawk.example"}, {"app_password", app_password}})
              .identity);
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky refuses a wrong app password naming app_password, and bad connect "
                 "fields before any call",
                 "[integration][social]") {
    const auto bad =
        bluesky->verify({{"identifier", "squawk.bsky.social"}, {"app_password", "wxyz-0000"}});
    REQUIRE(bad.failure);
    CHECK(bad.failure->kind == FailureKind::refused);
    CHECK(bad.failure->field == "app_password");
    CHECK(bad.failure->http_status == 401);
    CHECK(bad.failure->reason == "AuthenticationRequired: Invalid identifier or password");

    social::Credentials empty;
    const auto missing = bluesky->check(empty);
    REQUIRE(missing.size() == 2);
    CHECK(missing[0].field == "identifier");
    CHECK(missing[1].field == "app_password");
    for (const std::string service :
         {"ftp://pds.example", "https://pds.example/?x=1", "https://user:pw@pds.example", "pds"}) {
        INFO(service);
        social::Credentials c = credentials;
        c["service"] = service;
        const auto problems = bluesky->check(c);
        REQUIRE(problems.size() == 1);
        CHECK(problems[0].field == "service");
    }
    CHECK(fake.calls("/xrpc/").size() == 1);
}

TEST_CASE_METHOD(
    BlueskyAccount,
    "a Bluesky account's service sends every call to that PDS instead of the configured one",
    "[integration][social]") {
    config::SocialSettings elsewhere = settings;
    elsewhere.platforms["bluesky"].api_base_url = "http://127.0.0.1:1";
    auto connector = social::make_connector("bluesky", elsewhere, http);
    social::Credentials own = credentials;
    own["service"] = fake.base_url("bluesky") + "/";
    REQUIRE(connector->check(own).empty());
    CHECK(own["service"] == fake.base_url("bluesky"));
    const auto v = connector->verify(own);
    REQUIRE(v.identity);
    const auto posted = connector->publish({*v.identity, own}, message("via my own PDS"));
    REQUIRE_FALSE(posted.failure);
    CHECK(posts().size() == 1);
}

TEST_CASE_METHOD(BlueskyAccount,
                 "a Bluesky post is a createRecord of app.bsky.feed.post whose links are facets "
                 "at UTF-8 byte offsets, and its id is the record's at:// uri",
                 "[integration][social]") {
    // "Café " is 6 bytes (é is 2) and 5 characters: the link starts at byte 6.
    const std::string text = "Café https://squawk.example/menu?day=1, see (https://a.example/x).";
    const auto p = bluesky->publish(target, message(text));
    REQUIRE_FALSE(p.failure);
    CHECK(p.message_id.starts_with("at://" + did + "/app.bsky.feed.post/"));
    CHECK(p.url == "https://bsky.app/profile/squawk.bsky.social/post/" + rkey_of(p.message_id));

    const auto body = sent("com.atproto.repo.createRecord");
    CHECK(body["repo"] == did);
    CHECK(body["collection"] == "app.bsky.feed.post");
    const auto& record = body["record"];
    CHECK(record["$type"] == "app.bsky.feed.post");
    CHECK(record["text"] == text);
    CHECK(record["createdAt"].get<std::string>().ends_with("Z"));
    CHECK_FALSE(record.contains("embed"));
    REQUIRE(record["facets"].size() == 2);
    const auto& first = record["facets"][0];
    CHECK(first["index"] == json{{"byteStart", 6}, {"byteEnd", 39}});
    CHECK(first["features"] == json::array({{{"$type", "app.bsky.richtext.facet#link"},
                                             {"uri", "https://squawk.example/menu?day=1"}}}));
    CHECK(text.substr(6, 33) == "https://squawk.example/menu?day=1");
    const auto& second = record["facets"][1];
    CHECK(second["features"][0]["uri"] == "https://a.example/x");
    CHECK(text.substr(second["index"]["byteStart"].get<size_t>(),
                      second["index"]["byteEnd"].get<size_t>() -
                          second["index"]["byteStart"].get<size_t>()) == "https://a.example/x");

    const auto stored = posts();
    REQUIRE(stored.size() == 1);
    CHECK(stored[0]["uri"] == p.message_id);
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky images are uploaded as blobs and embedded as app.bsky.embed.images",
                 "[integration][social]") {
    auto m = message("Two photos", {"https://img.example/a.png", "https://img.example/b.jpg"});
    m.uploads = {social::Upload{"a.png", "image/png", std::string(900'000, 'a')},
                 social::Upload{"b.jpg", "image/jpeg", std::string(2'000, 'b')}};
    const auto p = bluesky->publish(target, m);
    REQUIRE_FALSE(p.failure);
    const auto uploads = fake.calls("/xrpc/com.atproto.repo.uploadBlob");
    REQUIRE(uploads.size() == 2);
    CHECK(uploads[0]["headers"]["content-type"] == "image/png");
    CHECK(uploads[0]["headers"]["authorization"].get<std::string>().starts_with("Bearer "));
    CHECK(uploads[0]["body"].get<std::string>().size() == 900'000);
    CHECK(uploads[1]["headers"]["content-type"] == "image/jpeg");

    const auto embed = posts()[0]["value"]["embed"];
    CHECK(embed["$type"] == "app.bsky.embed.images");
    REQUIRE(embed["images"].size() == 2);
    CHECK(embed["images"][0]["alt"] == "");
    CHECK(embed["images"][0]["image"]["$type"] == "blob");
    CHECK(embed["images"][0]["image"]["mimeType"] == "image/png");
    CHECK(embed["images"][0]["image"]["size"] == 900'000);
    CHECK(embed["images"][1]["image"]["ref"]["$link"].get<std::string>().starts_with("bafkrei"));

    // The media plan downloads every image for Bluesky; one it did not is refused unsent.
    const auto by_url = bluesky->publish(target, message("x", {"https://img.example/c.png"}));
    REQUIRE(by_url.failure);
    CHECK(by_url.failure->kind == FailureKind::refused);
    CHECK(posts().size() == 1);
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky failures are classified: 429 waits until ratelimit-reset, 5xx is not "
                 "accepted, no answer after createRecord is unknown, a refused record is refused",
                 "[integration][social]") {
    fake.control_platform("bluesky", "rate_limit",
                          {{"method", "com.atproto.repo.createRecord"}, {"reset_in", 40}});
    const auto limited = bluesky->publish(target, message("a"));
    REQUIRE(limited.failure);
    CHECK(limited.failure->kind == FailureKind::not_accepted);
    CHECK(limited.failure->http_status == 429);
    REQUIRE(limited.failure->retry_after);
    CHECK(limited.failure->retry_after->count() >= 38);
    CHECK(limited.failure->retry_after->count() <= 40);

    fake.program("createRecord",
                 {{{"status", 502},
                   {"body", {{"error", "UpstreamFailure"}, {"message", "Upstream Failure"}}}},
                  {{"delay_ms", 2000}}});
    const auto upstream = bluesky->publish(target, message("b"));
    REQUIRE(upstream.failure);
    CHECK(upstream.failure->kind == FailureKind::not_accepted);
    CHECK(upstream.failure->reason == "UpstreamFailure: Upstream Failure");
    const auto slow = bluesky->publish(target, message("c"));
    REQUIRE(slow.failure);
    CHECK(slow.failure->kind == FailureKind::unknown_outcome);

    const auto too_long = bluesky->publish(target, message(std::string(301, 'x')));
    REQUIRE(too_long.failure);
    CHECK(too_long.failure->kind == FailureKind::refused);
    CHECK(too_long.failure->reason.find("300 graphemes") != std::string::npos);

    // A session publishes nothing: no answer to createSession is a sure non-acceptance.
    fake.control_platform("bluesky", "expire_sessions", {{"did", did}, {"refresh", true}});
    fake.program("createSession", {{{"delay_ms", 2000}}});
    const auto no_session = bluesky->publish(target, message("d"));
    REQUIRE(no_session.failure);
    CHECK(no_session.failure->kind == FailureKind::not_accepted);

    fake.revoke(app_password);
    const auto revoked = bluesky->publish(target, message("e"));
    REQUIRE(revoked.failure);
    CHECK(revoked.failure->kind == FailureKind::refused);
    CHECK(revoked.failure->field == "app_password");
}

TEST_CASE_METHOD(BlueskyAccount,
                 "a Bluesky post is deleted with deleteRecord, and deleting it again succeeds",
                 "[integration][social]") {
    const auto p = bluesky->publish(target, message("short-lived"));
    REQUIRE_FALSE(p.failure);
    CHECK_FALSE(bluesky->remove(target, p.message_id).failure);
    CHECK(sent("com.atproto.repo.deleteRecord") == json{{"repo", did},
                                                        {"collection", "app.bsky.feed.post"},
                                                        {"rkey", rkey_of(p.message_id)}});
    CHECK(posts().empty());
    CHECK_FALSE(bluesky->remove(target, p.message_id).failure);

    const auto other = bluesky->remove(target, "at://did:plc:someoneelse/app.bsky.feed.post/3k");
    REQUIRE(other.failure);
    CHECK(other.failure->kind == FailureKind::refused);
    CHECK(bluesky->edit(target, p.message_id, message("changed")).failure);
    CHECK_FALSE(bluesky->limits().can_edit);
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky lists the account's posts newest first from getAuthorFeed, those made "
                 "in the app too",
                 "[integration][social]") {
    const auto ours = bluesky->publish(target, message("from Squawk"));
    REQUIRE_FALSE(ours.failure);
    const auto native =
        fake.control_platform("bluesky", "post", {{"did", did}, {"text", "from the app"}});
    const auto listing = bluesky->list_recent(target);
    REQUIRE(listing);
    REQUIRE_FALSE(listing->failure);
    REQUIRE(listing->posts.size() == 2);
    CHECK(listing->posts[0].external_id == native["uri"]);
    CHECK(listing->posts[0].text == "from the app");
    CHECK(listing->posts[1].external_id == ours.message_id);
    CHECK(listing->posts[1].url == ours.url);
    CHECK(listing->posts[1].published_at.time_since_epoch().count() > 0);
    const auto feed = fake.calls("/xrpc/app.bsky.feed.getAuthorFeed");
    REQUIRE(feed.size() == 1);
    CHECK(feed[0]["target"].get<std::string>().find("actor=" + did) != std::string::npos);
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky mentions are facets naming the DID resolveHandle gives at UTF-8 byte "
                 "offsets",
                 "[integration][social]") {
    someone("did:plc:alice4mention", "alice.bsky.social");
    someone("did:plc:bob4mention", "bob.example.com");
    // "Grüße " is 8 bytes (ü and ß are 2 each) and 6 characters: the first mention starts at 8.
    const std::string text =
        "Grüße @Alice.bsky.social, (@bob.example.com) and @alice.bsky.social. "
        "Mail team@squawk.example or @x";
    const auto p = bluesky->publish(target, message(text));
    REQUIRE_FALSE(p.failure);

    const auto facets = posts()[0]["value"]["facets"];
    REQUIRE(facets.size() == 3);
    CHECK(facets[0] == json{{"index", {{"byteStart", 8}, {"byteEnd", 26}}},
                            {"features",
                             {{{"$type", "app.bsky.richtext.facet#mention"},
                               {"did", "did:plc:alice4mention"}}}}});
    CHECK(text.substr(8, 18) == "@Alice.bsky.social");
    const auto covered = [&](const json& facet) {
        const auto start = facet["index"]["byteStart"].get<size_t>();
        return text.substr(start, facet["index"]["byteEnd"].get<size_t>() - start);
    };
    CHECK(covered(facets[1]) == "@bob.example.com");
    CHECK(facets[1]["features"][0]["did"] == "did:plc:bob4mention");
    CHECK(covered(facets[2]) == "@alice.bsky.social");  // the sentence's period left out
    CHECK(facets[2]["features"][0]["did"] == "did:plc:alice4mention");

    // Each handle is resolved once, without the session's token, as the PDS serves it.
    const auto resolved = fake.calls("/xrpc/com.atproto.identity.resolveHandle");
    REQUIRE(resolved.size() == 2);
    CHECK(resolved[0]["target"].get<std::string>().ends_with("?handle=alice.bsky.social"));
    CHECK(resolved[1]["target"].get<std::string>().ends_with("?handle=bob.example.com"));
    CHECK_FALSE(resolved[0]["headers"].contains("authorization"));
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky leaves a mention whose handle does not resolve as plain text and "
                 "publishes nothing when resolveHandle is not answered",
                 "[integration][social]") {
    someone("did:plc:alice4mention", "alice.bsky.social");
    const std::string text = "Thanks @nobody.bsky.social and @alice.bsky.social";
    const auto p = bluesky->publish(target, message(text));
    REQUIRE_FALSE(p.failure);
    const auto facets = posts()[0]["value"]["facets"];
    REQUIRE(facets.size() == 1);
    CHECK(facets[0]["index"]["byteStart"] == text.find("@alice"));
    CHECK(calls_of("com.atproto.identity.resolveHandle") == 2);

    fake.program("resolveHandle",
                 {{{"status", 502},
                   {"body", {{"error", "UpstreamFailure"}, {"message", "Upstream Failure"}}}}});
    const auto unanswered = bluesky->publish(target, message("Hello @alice.bsky.social"));
    REQUIRE(unanswered.failure);
    CHECK(unanswered.failure->kind == FailureKind::not_accepted);
    CHECK(posts().size() == 1);
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky names the account by its profile's displayName and by its handle when "
                 "the profile has none",
                 "[integration][social]") {
    const auto unnamed = bluesky->verify(credentials);
    REQUIRE(unnamed.identity);
    CHECK(unnamed.identity->display_name == "squawk.bsky.social");
    const auto profile = fake.calls("/xrpc/app.bsky.actor.getProfile");
    REQUIRE(profile.size() == 1);
    CHECK(profile[0]["target"].get<std::string>().ends_with("?actor=" + did));
    CHECK(profile[0]["headers"]["authorization"].get<std::string>().starts_with("Bearer "));

    fake.control_platform("bluesky", "account", {{"did", did}, {"display_name", "Squawk Café"}});
    const auto named = bluesky->verify(credentials);
    REQUIRE(named.identity);
    CHECK(named.identity->display_name == "Squawk Café");
    CHECK(named.identity->handle == "squawk.bsky.social");
    CHECK(named.identity->external_id == did);

    // An account the AppView has not indexed yet still connects, by its handle.
    fake.program("getProfile",
                 {{{"status", 400},
                   {"body", {{"error", "InvalidRequest"}, {"message", "Profile not found"}}}}});
    const auto unindexed = bluesky->verify(credentials);
    REQUIRE(unindexed.identity);
    CHECK(unindexed.identity->display_name == "squawk.bsky.social");

    fake.program("getProfile", {{{"status", 503}, {"body", json::object()}}});
    const auto down = bluesky->verify(credentials);
    REQUIRE(down.failure);
    CHECK(down.failure->kind == FailureKind::not_accepted);
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky opens one session with createSession for a verify and several "
                 "operations",
                 "[integration][social]") {
    REQUIRE(bluesky->verify(credentials).identity);
    for (const std::string text : {"one", "two", "three"})
        REQUIRE_FALSE(bluesky->publish(target, message(text)).failure);
    // Connectors are made per task: the session outlives this one.
    auto another = connector("bluesky");
    const auto p = another->publish(target, message("four"));
    REQUIRE_FALSE(p.failure);
    CHECK_FALSE(another->remove(target, p.message_id).failure);
    REQUIRE(another->list_recent(target));

    CHECK(calls_of("com.atproto.server.createSession") == 1);
    CHECK(calls_of("com.atproto.server.refreshSession") == 0);
    const auto records = fake.calls("/xrpc/com.atproto.repo.createRecord");
    REQUIRE(records.size() == 4);
    for (const auto& call : records)
        CHECK(call["headers"]["authorization"] == records[0]["headers"]["authorization"]);
    CHECK(posts().size() == 3);
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky refreshes an expired access token with refreshSession once and opens "
                 "no new session",
                 "[integration][social]") {
    REQUIRE_FALSE(bluesky->publish(target, message("before")).failure);
    fake.control_platform("bluesky", "expire_sessions", {{"did", did}});
    const auto after = bluesky->publish(target, message("after"));
    REQUIRE_FALSE(after.failure);
    REQUIRE_FALSE(bluesky->publish(target, message("later")).failure);

    CHECK(calls_of("com.atproto.server.createSession") == 1);
    const auto refreshes = fake.calls("/xrpc/com.atproto.server.refreshSession");
    REQUIRE(refreshes.size() == 1);
    CHECK(
        refreshes[0]["headers"]["authorization"].get<std::string>().starts_with("Bearer refresh-"));
    // The refused call, then the same call with the new token.
    const auto records = fake.calls("/xrpc/com.atproto.repo.createRecord");
    REQUIRE(records.size() == 4);
    CHECK(records[1]["headers"]["authorization"] == records[0]["headers"]["authorization"]);
    CHECK(records[2]["headers"]["authorization"] != records[0]["headers"]["authorization"]);
    CHECK(records[3]["headers"]["authorization"] == records[2]["headers"]["authorization"]);
    CHECK(records[2]["body"] == records[1]["body"]);
    CHECK(posts().size() == 3);
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky signs in again with createSession when refreshSession is refused and "
                 "waits when it is not answered",
                 "[integration][social]") {
    REQUIRE_FALSE(bluesky->publish(target, message("before")).failure);
    fake.control_platform("bluesky", "expire_sessions", {{"did", did}, {"refresh", true}});
    REQUIRE_FALSE(bluesky->publish(target, message("after")).failure);
    CHECK(calls_of("com.atproto.server.refreshSession") == 1);
    CHECK(calls_of("com.atproto.server.createSession") == 2);
    CHECK(posts().size() == 2);

    // A refresh the PDS does not answer spends none of the account's few createSession calls.
    fake.control_platform("bluesky", "expire_sessions", {{"did", did}});
    fake.program("refreshSession", {{{"status", 503}, {"body", json::object()}}});
    const auto unanswered = bluesky->publish(target, message("unanswered"));
    REQUIRE(unanswered.failure);
    CHECK(unanswered.failure->kind == FailureKind::not_accepted);
    CHECK(calls_of("com.atproto.server.createSession") == 2);
    REQUIRE_FALSE(bluesky->publish(target, message("retried")).failure);
    CHECK(calls_of("com.atproto.server.refreshSession") == 3);
    CHECK(posts().size() == 3);
}

TEST_CASE_METHOD(BlueskyAccount, "Bluesky shares one session among publishes on several threads",
                 "[integration][social]") {
    REQUIRE(bluesky->verify(credentials).identity);
    std::vector<social::Publication> published(12);
    std::vector<std::thread> threads;
    for (size_t t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (size_t i = t * 3; i < t * 3 + 3; ++i)
                published[i] = bluesky->publish(target, message("post " + std::to_string(i)));
        });
    for (auto& thread : threads) thread.join();
    for (const auto& p : published) CHECK_FALSE(p.failure);
    CHECK(posts().size() == 12);
    CHECK(calls_of("com.atproto.server.createSession") == 1);
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky publishes of an account that find no session at once sign in with one "
                 "createSession between them",
                 "[integration][social]") {
    // The sign-in is still under way when every other publish asks for the session.
    fake.program("createSession", {{{"delay_ms", 300}}});
    std::vector<social::Publication> published(6);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < published.size(); ++i)
        threads.emplace_back([&, i] {
            published[i] = bluesky->publish(target, message("due together " + std::to_string(i)));
        });
    for (auto& thread : threads) thread.join();
    for (const auto& p : published) CHECK_FALSE(p.failure);
    CHECK(posts().size() == 6);
    CHECK(calls_of("com.atproto.server.createSession") == 1);
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky embeds a link card with the title and description of the linked page",
                 "[integration][social]") {
    const auto article =
        page("article",
             "<!doctype html><html><head><title>Plain title</title>\n"
             "<meta property=\"og:title\" content=\"Squawk &amp; friends: Grüße\">\n"
             "<meta content='Everything about   posting.' property='og:description'/>\n"
             "</head><body><meta property=\"og:title\" content=\"not in the head\"></body></html>");
    const std::string text = "Read " + article + " and https://other.example/";
    const auto p = bluesky->publish(target, message(text));
    REQUIRE_FALSE(p.failure);
    const auto record = posts()[0]["value"];
    CHECK(record["embed"] == json{{"$type", "app.bsky.embed.external"},
                                  {"external",
                                   {{"uri", article},
                                    {"title", "Squawk & friends: Grüße"},
                                    {"description", "Everything about posting."}}}});
    CHECK(record["facets"].size() == 2);
    CHECK(fake.calls("/_pages/article").size() == 1);

    // No Open Graph tags: the <title> and the description meta tag; a redirect is followed, the
    // card keeping the link as written.
    page("titled",
         "<html><HEAD><Title>\n  The &quot;titled&quot; page </title><meta name=description "
         "content=\"Short.\"></HEAD></html>");
    fake.control_platform("bluesky", "page",
                          {{"name", "moved"}, {"redirect_to", page_url("titled")}});
    REQUIRE_FALSE(bluesky->publish(target, message("See " + page_url("moved") + ".")).failure);
    CHECK(posts()[1]["value"]["embed"]["external"] == json{{"uri", page_url("moved")},
                                                           {"title", "The \"titled\" page"},
                                                           {"description", "Short."}});

    // A page in another encoding: its bytes that are not UTF-8 become U+FFFD.
    fake.control_platform("bluesky", "page",
                          {{"name", "latin"},
                           {"html", "<title>Café</title>"},
                           {"encoding", "latin1"},
                           {"content_type", "text/html; charset=iso-8859-1"}});
    REQUIRE_FALSE(bluesky->publish(target, message(page_url("latin"))).failure);
    CHECK(posts()[2]["value"]["embed"]["external"]["title"] == "Caf\uFFFD");
}

TEST_CASE_METHOD(BlueskyAccount, "Bluesky attaches no link card to a post with images",
                 "[integration][social]") {
    const auto article =
        page("article", "<html><head><meta property=og:title content=Article></head></html>");
    auto m = message("Photo and " + article, {"https://img.example/a.png"});
    m.uploads = {social::Upload{"a.png", "image/png", std::string(1'000, 'a')}};
    REQUIRE_FALSE(bluesky->publish(target, m).failure);
    const auto record = posts()[0]["value"];
    CHECK(record["embed"]["$type"] == "app.bsky.embed.images");
    CHECK(record["facets"].size() == 1);
    CHECK(fake.calls("/_pages/").empty());
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky publishes without a link card when the page does not answer in time or "
                 "names no title",
                 "[integration][social]") {
    const auto slow = page("slow", "<html><head><title>Slow</title></head></html>");
    const auto untitled = page("untitled", "<html><head><title> </title></head><body>x</body>");
    fake.program("/_pages/slow", {{{"delay_ms", 2000}}});
    const auto started = std::chrono::steady_clock::now();
    REQUIRE_FALSE(bluesky->publish(target, message("Slow " + slow)).failure);
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(1800));
    REQUIRE_FALSE(bluesky->publish(target, message("Untitled " + untitled)).failure);
    REQUIRE_FALSE(bluesky->publish(target, message("Missing " + page_url("missing"))).failure);
    const auto stored = posts();
    REQUIRE(stored.size() == 3);
    for (const auto& post : stored) {
        CHECK_FALSE(post["value"].contains("embed"));
        CHECK(post["value"]["facets"].size() == 1);
    }
}

TEST_CASE("Bluesky takes alt_texts as its one option", "[integration][social]") {
    const auto* bluesky = social::find_platform("bluesky");
    REQUIRE(bluesky);
    REQUIRE(bluesky->check_options);
    CHECK(bluesky->check_options({{"alt_texts", {"a cat", ""}}}, "post").empty());
    CHECK(bluesky->check_options({{"alt_texts", {std::string(2000, 'a')}}}, "post").empty());
    const auto long_text =
        bluesky->check_options({{"alt_texts", {"", std::string(2001, 'a')}}}, "post");
    REQUIRE(long_text.size() == 1);
    CHECK(long_text[0].field == "alt_texts[1]");
    CHECK(long_text[0].reason == "must be a text of at most 2000 characters");
    const auto too_many = bluesky->check_options({{"alt_texts", json(5, "a")}}, "post");
    REQUIRE(too_many.size() == 1);
    CHECK(too_many[0].field == "alt_texts");
    const auto unknown = bluesky->check_options({{"langs", {"en"}}}, "post");
    REQUIRE(unknown.size() == 1);
    CHECK(unknown[0].field == "langs");
}

TEST_CASE_METHOD(BlueskyAccount, "Bluesky sends each image's alt text in the images embed",
                 "[integration][social]") {
    auto m = message("Two photos", {"https://img.example/a.png", "https://img.example/b.png"});
    m.uploads = {social::Upload{"a.png", "image/png", std::string(1'000, 'a')},
                 social::Upload{"b.png", "image/png", std::string(1'000, 'b')}};
    m.options = {{"alt_texts", {"A heron on one leg"}}};
    REQUIRE_FALSE(bluesky->publish(target, m).failure);
    const auto stored = posts();
    REQUIRE(stored.size() == 1);
    const auto images = stored[0]["value"]["embed"]["images"];
    REQUIRE(images.size() == 2);
    CHECK(images[0]["alt"] == "A heron on one leg");
    // An image without an entry goes with an empty alt, which the lexicon requires.
    CHECK(images[1]["alt"] == "");
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky reads a post's likes, replies and reposts and the "
                 "account's followers",
                 "[integration][social]") {
    const auto p = bluesky->publish(target, message("counted"));
    REQUIRE_FALSE(p.failure);
    fake.control_platform("bluesky", "engagement",
                          {{"uri", p.message_id},
                           {"likeCount", 9},
                           {"replyCount", 2},
                           {"repostCount", 3},
                           {"quoteCount", 1}});
    const auto reading = bluesky->post_metrics(target, p.message_id);
    REQUIRE(reading);
    REQUIRE_FALSE(reading->failure);
    const auto& m = reading->metrics;
    CHECK(m.likes == 9);
    CHECK(m.comments == 2);
    CHECK(m.shares == 4);
    CHECK_FALSE(m.impressions);
    CHECK_FALSE(m.saves);
    const auto calls = fake.calls("/xrpc/app.bsky.feed.getPosts");
    REQUIRE(calls.size() == 1);
    CHECK(query_fields(calls[0]["target"].get<std::string>()).at("uris") == p.message_id);

    // A post deleted is left out of getPosts' answer.
    REQUIRE_FALSE(bluesky->remove(target, p.message_id).failure);
    const auto gone = bluesky->post_metrics(target, p.message_id);
    REQUIRE(gone);
    REQUIRE(gone->failure);
    CHECK(gone->failure->kind == FailureKind::refused);
    const auto other = bluesky->post_metrics(target, "at://did:plc:someone/app.bsky.feed.post/3x");
    REQUIRE(other);
    REQUIRE(other->failure);
    CHECK(fake.calls("/xrpc/app.bsky.feed.getPosts").size() == 2);

    fake.control_platform("bluesky", "followers",
                          {{"did", did}, {"followers", 310}, {"follows", 42}});
    const auto profile = bluesky->account_metrics(target);
    REQUIRE(profile);
    REQUIRE_FALSE(profile->failure);
    CHECK(profile->metrics.followers == 310);
    CHECK(profile->metrics.following == 42);
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky publishes a video through its video service, which stores the encoded "
                 "file on the PDS for the post's video embed",
                 "[integration][social]") {
    fake.control_platform("bluesky", "video_encoding", {{"polls", 2}});
    fs::ScratchDirectory folder("squawk-bluesky-video-");
    auto m = message("Our new clip");
    m.video = video_file(folder, 300'000, {.seconds = 20, .width = 1280, .height = 720});
    m.options = {{"alt_texts", {"A heron takes off"}}};
    const auto p = bluesky->publish(target, m);
    REQUIRE_FALSE(p.failure);

    // The service token is the account's, for uploadBlob on its own PDS (did:web of its host).
    const auto auth = fake.calls("/xrpc/com.atproto.server.getServiceAuth");
    REQUIRE(auth.size() == 1);
    const auto asked = query_fields(auth[0]["target"].get<std::string>());
    const auto pds = fake.base_url("bluesky");
    const auto host = pds.substr(7, pds.find('/', 7) - 7);
    CHECK(asked.at("aud") ==
          "did:web:" + host.substr(0, host.find(':')) + "%3A" + host.substr(host.find(':') + 1));
    CHECK(asked.at("lxm") == "com.atproto.repo.uploadBlob");

    const auto uploads = fake.calls("/bluesky/_upload/xrpc/app.bsky.video.uploadVideo");
    REQUIRE(uploads.size() == 1);
    CHECK(uploads[0]["headers"]["authorization"].get<std::string>().starts_with("Bearer service-"));
    CHECK(uploads[0]["headers"]["content-type"] == "video/mp4");
    CHECK(uploads[0]["bytes"] == 300'000);
    CHECK(query_fields(uploads[0]["target"].get<std::string>()).at("did") == did);
    // Polled while it encodes, then completed with the blob.
    CHECK(fake.calls("/_upload/xrpc/app.bsky.video.getJobStatus").size() == 3);
    CHECK(calls_of("com.atproto.repo.uploadBlob") == 0);

    const auto stored = posts();
    REQUIRE(stored.size() == 1);
    const auto embed = stored[0]["value"]["embed"];
    CHECK(embed["$type"] == "app.bsky.embed.video");
    CHECK(embed["video"]["mimeType"] == "video/mp4");
    CHECK(embed["aspectRatio"] == json{{"width", 1280}, {"height", 720}});
    CHECK(embed["alt"] == "A heron takes off");
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky fails a video its video service refuses, with the service's reason and "
                 "nothing posted",
                 "[integration][social]") {
    fake.control_platform("bluesky", "refuse_video",
                          {{"error", "invalid_video"}, {"message", "Video is too long"}});
    fs::ScratchDirectory folder("squawk-bluesky-video-");
    auto m = message("Too long a clip");
    m.video = video_file(folder, 50'000, {.seconds = 20});
    const auto p = bluesky->publish(target, m);
    REQUIRE(p.failure);
    CHECK(p.failure->kind == FailureKind::refused);
    CHECK(p.failure->reason == "Bluesky's video service refused the video: Video is too long");
    CHECK(posts().empty());
    CHECK(calls_of("com.atproto.repo.createRecord") == 0);
}

TEST_CASE_METHOD(BlueskyAccount,
                 "Bluesky posts a video sent before with the blob the service encoded then",
                 "[integration][social]") {
    fs::ScratchDirectory folder("squawk-bluesky-video-");
    auto m = message("Once");
    m.video = video_file(folder, 40'000, {.seconds = 5});
    REQUIRE_FALSE(bluesky->publish(target, m).failure);
    m.text = "Twice";
    REQUIRE_FALSE(bluesky->publish(target, m).failure);
    const auto stored = posts();
    REQUIRE(stored.size() == 2);
    CHECK(stored[1]["value"]["embed"]["video"] == stored[0]["value"]["embed"]["video"]);
}

namespace {

// A post of the account with replies from others: `friend_reply` under it and `nested` under that.
struct BlueskyThread : BlueskyAccount {
    BlueskyThread() {
        someone(friend_did, "friend.bsky.social");
        someone("did:plc:squawkbystander", "bystander.bsky.social");
        const auto p = bluesky->publish(target, message("What do you think?"));
        REQUIRE_FALSE(p.failure);
        root = p.message_id;
        friend_reply = reply(friend_did, "Nice!", root);
        nested = reply("did:plc:squawkbystander", "Agreed", friend_reply);
    }

    std::string reply(const std::string& author, const std::string& text, const std::string& to) {
        return fake
            .control_platform("bluesky", "post",
                              {{"did", author}, {"text", text}, {"reply_to", to}})["uri"]
            .get<std::string>();
    }

    const std::string friend_did = "did:plc:squawkfriend";
    std::string root;
    std::string friend_reply;
    std::string nested;
};

}  // namespace

TEST_CASE_METHOD(BlueskyThread,
                 "Bluesky lists the replies under a post at any depth, oldest first, and hides "
                 "one through the post's threadgate",
                 "[integration][social]") {
    const auto listed = bluesky->list_comments(target, root, "");
    REQUIRE(listed);
    REQUIRE_FALSE(listed->failure);
    REQUIRE(listed->comments.size() == 2);
    CHECK(listed->comments[0].external_id == friend_reply);
    CHECK(listed->comments[0].parent_id.empty());
    CHECK(listed->comments[0].author_id == friend_did);
    CHECK(listed->comments[0].author_name == "friend.bsky.social");
    CHECK(listed->comments[0].text == "Nice!");
    CHECK(listed->comments[1].external_id == nested);
    CHECK(listed->comments[1].parent_id == friend_reply);
    CHECK_FALSE(listed->comments[1].hidden);
    CHECK_FALSE(listed->next_cursor);

    const auto hidden = bluesky->moderate_comment(target, nested, social::Moderation::hide);
    REQUIRE(hidden);
    REQUIRE_FALSE(hidden->failure);
    const auto gate = sent("com.atproto.repo.putRecord");
    CHECK(gate["collection"] == "app.bsky.feed.threadgate");
    CHECK(gate["rkey"] == rkey_of(root));
    CHECK(gate["record"]["post"] == root);
    CHECK(gate["record"]["hiddenReplies"] == json::array({nested}));
    CHECK(gate["record"].contains("allow") == false);  // replying stays open to everyone
    const auto after = bluesky->list_comments(target, root, "");
    REQUIRE(after);
    REQUIRE(after->comments.size() == 2);
    CHECK(after->comments[1].hidden);

    const auto shown = bluesky->moderate_comment(target, nested, social::Moderation::unhide);
    REQUIRE(shown);
    REQUIRE_FALSE(shown->failure);
    const auto again = bluesky->list_comments(target, root, "");
    REQUIRE(again);
    CHECK_FALSE(again->comments[1].hidden);

    // Someone else's post is no thread of the account's.
    const auto foreign = bluesky->list_comments(target, friend_reply, "");
    REQUIRE(foreign);
    REQUIRE(foreign->failure);
    CHECK(foreign->failure->kind == FailureKind::refused);
}

TEST_CASE_METHOD(BlueskyThread, "Bluesky answers a reply inside its thread and likes it",
                 "[integration][social]") {
    const auto answered = bluesky->reply_to_comment(target, nested, message("Thank you both"));
    REQUIRE(answered);
    REQUIRE_FALSE(answered->failure);
    const auto record = posts().back()["value"];
    CHECK(record["text"] == "Thank you both");
    CHECK(record["reply"]["root"]["uri"] == root);
    CHECK(record["reply"]["parent"]["uri"] == nested);
    CHECK(answered->url->starts_with("https://bsky.app/profile/squawk.bsky.social/post/"));

    const auto liked = bluesky->like_comment(target, friend_reply);
    REQUIRE(liked);
    REQUIRE_FALSE(liked->failure);
    const auto creates = fake.calls("/xrpc/com.atproto.repo.createRecord");
    const auto like = json::parse(creates.back()["body"].get<std::string>());
    CHECK(like["collection"] == "app.bsky.feed.like");
    CHECK(like["record"]["subject"]["uri"] == friend_reply);
    const auto friends = fake.messages()["bluesky"][friend_did];
    REQUIRE(friends.size() == 1);
    CHECK(friends[0]["counts"]["likeCount"] == 1);

    const auto gone =
        bluesky->like_comment(target, "at://did:plc:squawkfriend/app.bsky.feed.post/3x");
    REQUIRE(gone);
    REQUIRE(gone->failure);
    CHECK(gone->failure->kind == FailureKind::refused);
}

TEST_CASE_METHOD(BlueskyThread,
                 "Bluesky deletes only the account's own replies and hides only under its own "
                 "threads",
                 "[integration][social]") {
    const auto others = bluesky->moderate_comment(target, friend_reply, social::Moderation::remove);
    REQUIRE(others);
    REQUIRE(others->failure);
    CHECK(others->failure->reason ==
          "Bluesky lets an account delete only its own posts; hide the reply instead");

    const auto own = bluesky->reply_to_comment(target, friend_reply, message("Oops"));
    REQUIRE(own);
    REQUIRE_FALSE(own->failure);
    const auto removed =
        bluesky->moderate_comment(target, own->message_id, social::Moderation::remove);
    REQUIRE(removed);
    REQUIRE_FALSE(removed->failure);
    CHECK(posts().size() == 1);

    // A reply in the friend's own thread is theirs to hide.
    const auto theirs = reply(
        "did:plc:squawkbystander", "Hello friend",
        fake.control_platform("bluesky", "post", {{"did", friend_did}, {"text", "My post"}})["uri"]
            .get<std::string>());
    const auto hide = bluesky->moderate_comment(target, theirs, social::Moderation::hide);
    REQUIRE(hide);
    REQUIRE(hide->failure);
    CHECK(hide->failure->reason == "only the author of a thread's first post can hide its replies");
    CHECK(calls_of("com.atproto.repo.putRecord") == 0);
}
