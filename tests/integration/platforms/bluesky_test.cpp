// The Bluesky connector against the fake PDS: a session from an app password names the account,
// posts carry link facets at UTF-8 byte offsets and uploaded images, posts are deleted (again
// too) and listed, and each failure is classified as the publish worker relies on.
#include "tests/support/connector_fixture.hpp"

#include <catch2/catch.hpp>

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
