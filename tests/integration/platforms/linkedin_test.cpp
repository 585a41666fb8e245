// The LinkedIn connector against the fake LinkedIn: the OAuth round trip with the token endpoint
// on its own address, refresh, verify, posts of text (as escaped little text), a linked article,
// images, a video in parts and a document, posts as an organization page the member administers,
// edits, deletions, the listing, follower and post counts, the comments under a post (listed with
// their replies, answered, liked, deleted), and each failure classified as the publish worker
// relies on.
#include "common/core/fs/work_files.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/domain/social/post_validation.hpp"
#include "common/extensions/platforms/linkedin/factory.hpp"
#include "common/extensions/platforms/linkedin/little_text.hpp"
#include "common/extensions/platforms/linkedin/rest.hpp"
#include "tests/support/connector_fixture.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace squawk;
using namespace squawk::testing;
using nlohmann::json;
using social::FailureKind;

namespace {

const std::string kPdf = "application/pdf";

// The member Ada Lovelace (OpenID sub "ada-42"), who consents when the tests connect her.
struct LinkedInMember : ConnectorFixture {
    LinkedInMember() {
        fake.control_platform("linkedin", "user",
                              {{"id", member}, {"name", "Ada Lovelace"}, {"followers", 1815}});
    }

    const std::string member = "ada-42";
    std::unique_ptr<social::Connector> linkedin = connector("linkedin");
    const social::OAuthClient client = oauth_client("linkedin");

    std::map<std::string, std::string> authorize(json choice = json::object()) {
        choice["user_id"] = member;
        fake.control_platform("linkedin", "next_consent", choice);
        return consent(
            linkedin->authorize_url(client, "state-7", social::code_challenge_of(kPkceVerifier)));
    }

    social::Credentials connect(json choice = json::object()) {
        const auto redirect = authorize(std::move(choice));
        REQUIRE(redirect.contains("code"));
        auto grant = linkedin->exchange_code(client, redirect.at("code"), kPkceVerifier);
        REQUIRE_FALSE(grant.failure);
        return grant.credentials;
    }

    social::Target target(social::Credentials credentials) const {
        return {{member, "Ada Lovelace", ""}, std::move(credentials)};
    }

    // An account whose token also carries permissions LinkedIn grants select applications (the
    // developer portal's token generator issues it).
    social::Target privileged(std::vector<std::string> extra) {
        std::vector<std::string> scopes = {"openid", "profile", "w_member_social"};
        scopes.insert(scopes.end(), extra.begin(), extra.end());
        const auto issued = fake.control_platform("linkedin", "issue_token",
                                                  {{"user_id", member}, {"scopes", scopes}});
        return target({{"access_token", issued["access_token"].get<std::string>()}});
    }

    json posts() { return fake.messages()["linkedin"]; }
    // The body of the `index`th call creating a post.
    json posted(size_t index) {
        const auto calls = fake.calls("/linkedin/rest/posts");
        std::vector<json> creates;
        for (const auto& call : calls)
            if (call["method"] == "POST" && call["path"] == "/linkedin/rest/posts")
                creates.push_back(call);
        REQUIRE(creates.size() > index);
        return json::parse(creates[index]["body"].get<std::string>());
    }
};

// Ada administers the page of Analytical Engines Ltd (2414183) and is only an analyst of
// another (5550001); a deployment whose application has the Community Management API.
struct LinkedInAdministrator : LinkedInMember {
    LinkedInAdministrator() {
        fake.control_platform("linkedin", "organization",
                              {{"id", page},
                               {"name", "Analytical Engines Ltd"},
                               {"roles", {{member, "ADMINISTRATOR"}}}});
        fake.control_platform("linkedin", "organization",
                              {{"id", analysed},
                               {"name", "Difference Engines"},
                               {"roles", {{member, "ANALYST"}, {"grace-7", "ADMINISTRATOR"}}}});
        settings.platforms["linkedin"].organization_pages = true;
        linkedin = connector("linkedin");
    }

    const std::string page = "2414183";
    const std::string analysed = "5550001";

    social::Message as_page(std::string text, std::vector<std::string> images,
                            const std::string& organization) const {
        auto m = message(std::move(text), std::move(images));
        m.options = {{"organization", organization}};
        return m;
    }
};

social::Message document_message(const std::string& text) {
    auto m = message(text, {"https://cdn.example/deck.pdf"});
    m.post_type = "document";
    m.images_as_documents = true;
    m.uploads = {social::Upload{"deck.pdf", kPdf, std::string(300'000, 'd')}};
    return m;
}

}  // namespace

TEST_CASE("LinkedIn is registered as an OAuth platform whose token endpoint is on www.linkedin.com",
          "[integration][social]") {
    const auto* linkedin = social::find_platform("linkedin");
    REQUIRE(linkedin);
    CHECK(linkedin->display_name == "LinkedIn");
    CHECK(linkedin->connect_style == social::ConnectStyle::oauth);
    CHECK(linkedin->default_base_url == "https://api.linkedin.com");
    CHECK(linkedin->default_authorize_url == "https://www.linkedin.com/oauth/v2/authorization");
    CHECK(linkedin->default_token_url == "https://www.linkedin.com/oauth/v2/accessToken");
    CHECK(linkedin->limits.max_text_chars == 3000);
    CHECK(linkedin->limits.max_images == 20);
    CHECK(linkedin->limits.can_edit);
    CHECK(linkedin->limits.can_remove);
    CHECK_FALSE(linkedin->limits.media.photos_by_url);
    CHECK(social::takes_post_type(*linkedin, "document"));
    CHECK(social::default_post_type(*linkedin) == "post");

    CHECK(linkedin->check_options({{"visibility", "CONNECTIONS"}, {"title", "Q3 report"}}, "post")
              .empty());
    const auto problems =
        linkedin->check_options({{"visibility", "FRIENDS"}, {"title", ""}, {"pin", true}}, "post");
    REQUIRE(problems.size() == 3);
}

TEST_CASE_METHOD(LinkedInMember,
                 "LinkedIn consent URL asks openid profile and w_member_social with the state",
                 "[integration][social]") {
    const auto url =
        linkedin->authorize_url(client, "state-7", social::code_challenge_of(kPkceVerifier));
    REQUIRE(url.starts_with(fake.authorize_url("linkedin") + "?"));
    const auto query = query_fields(url);
    CHECK(query.at("response_type") == "code");
    CHECK(query.at("client_id") == fake.oauth_client_id());
    CHECK(query.at("redirect_uri") == client.redirect_uri);
    CHECK(query.at("scope") == "openid profile w_member_social");
    CHECK(query.at("state") == "state-7");
}

TEST_CASE_METHOD(LinkedInMember,
                 "LinkedIn trades a consent code once at its own token endpoint for 60-day tokens",
                 "[integration][social]") {
    // The token endpoint is wherever the client says (www.linkedin.com in production), not under
    // the API's base URL.
    auto own_host = client;
    own_host.token_url = fake.token_url("linkedin") + "?via=token_url";
    const auto redirect = authorize();
    CHECK(redirect.at("state") == "state-7");
    const long long before = time::to_unix_ms(time::now()) / 1000;
    const auto grant = linkedin->exchange_code(own_host, redirect.at("code"), kPkceVerifier);
    REQUIRE_FALSE(grant.failure);
    const auto& tokens = grant.credentials;
    CHECK_FALSE(tokens.at("access_token").empty());
    CHECK_FALSE(tokens.at("refresh_token").empty());
    // LinkedIn names the scopes comma-separated; they are kept space-separated.
    CHECK(tokens.at("scope") == "openid profile w_member_social");
    CHECK(social::missing_scopes(tokens, social::linkedin::kFactory.oauth_scopes).empty());
    CHECK(std::stoll(tokens.at("expires_at")) >= before + 60LL * 24 * 3600);

    const auto calls = fake.calls("/linkedin/oauth/v2/accessToken");
    REQUIRE(calls.size() == 1);
    CHECK(query_fields(calls[0]["target"].get<std::string>()).at("via") == "token_url");
    const auto form = form_fields(calls[0]["body"].get<std::string>());
    CHECK(form.at("grant_type") == "authorization_code");
    CHECK(form.at("code") == redirect.at("code"));
    CHECK(form.at("redirect_uri") == client.redirect_uri);
    CHECK(form.at("client_id") == fake.oauth_client_id());
    CHECK(form.at("client_secret") == fake.oauth_client_secret());
    CHECK_FALSE(calls[0]["headers"].contains("linkedin-version"));

    const auto reused = linkedin->exchange_code(own_host, redirect.at("code"), kPkceVerifier);
    REQUIRE(reused.failure);
    CHECK(reused.failure->kind == FailureKind::refused);
    CHECK(reused.failure->http_status == 400);
    CHECK(reused.failure->reason.find("Unable to retrieve access token") != std::string::npos);

    auto stranger = client;
    stranger.client_secret = "not-the-secret";
    const auto unknown = linkedin->exchange_code(stranger, authorize().at("code"), kPkceVerifier);
    REQUIRE(unknown.failure);
    CHECK(unknown.failure->http_status == 401);
    CHECK(unknown.failure->reason == "Client authentication failed");

    const auto denied = authorize({{"deny", true}});
    CHECK(denied.at("error") == "user_cancelled_authorize");
    CHECK(denied.at("state") == "state-7");
    CHECK_FALSE(denied.contains("code"));
}

TEST_CASE_METHOD(LinkedInMember,
                 "LinkedIn refresh gives a new access token and keeps the refresh token",
                 "[integration][social]") {
    const auto first = connect();
    fake.control_platform("linkedin", "expire", {{"user_id", member}});
    const auto expired = linkedin->verify(first);
    REQUIRE(expired.failure);
    CHECK(expired.failure->field == "access_token");
    CHECK(expired.failure->reason == "The token used in the request has expired");

    const auto renewed = linkedin->refresh(client, first);
    REQUIRE_FALSE(renewed.failure);
    CHECK(renewed.credentials.at("access_token") != first.at("access_token"));
    CHECK(renewed.credentials.at("refresh_token") == first.at("refresh_token"));
    CHECK(renewed.credentials.at("scope") == "openid profile w_member_social");
    const auto form =
        form_fields(fake.calls("/linkedin/oauth/v2/accessToken")[1]["body"].get<std::string>());
    CHECK(form.at("grant_type") == "refresh_token");
    CHECK(form.at("refresh_token") == first.at("refresh_token"));
    CHECK(linkedin->verify(renewed.credentials).identity);

    fake.revoke(first.at("refresh_token"));
    const auto revoked = linkedin->refresh(client, first);
    REQUIRE(revoked.failure);
    CHECK(revoked.failure->kind == FailureKind::refused);
    CHECK(revoked.failure->http_status == 400);
}

TEST_CASE_METHOD(LinkedInMember, "LinkedIn verify names the member by OpenID sub and name",
                 "[integration][social]") {
    auto credentials = connect();
    CHECK(linkedin->check(credentials).empty());
    const auto v = linkedin->verify(credentials);
    REQUIRE(v.identity);
    CHECK(v.identity->external_id == member);
    CHECK(v.identity->display_name == "Ada Lovelace");
    const auto calls = fake.calls("/linkedin/v2/userinfo");
    REQUIRE(calls.size() == 1);
    CHECK(calls[0]["headers"]["authorization"] == "Bearer " + credentials.at("access_token"));

    social::Credentials typed;
    const auto problems = linkedin->check(typed);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].field == "access_token");
}

TEST_CASE("LinkedIn little text escapes every reserved character but the hashtag sign",
          "[integration][social]") {
    using social::linkedin::escape_little_text;
    using social::linkedin::plain_text;
    CHECK(escape_little_text("plain words, 100% fine.") == "plain words, 100% fine.");
    CHECK(escape_little_text("(a) [b] {c} <d> @e |f ~g _h *i \\j #k") ==
          "\\(a\\) \\[b\\] \\{c\\} \\<d\\> \\@e \\|f \\~g \\_h \\*i \\\\j #k");
    const std::string text = "Ünïcode (ok) 🎉 snake_case *bold* C:\\path #tag";
    CHECK(plain_text(escape_little_text(text)) == text);
    CHECK(plain_text("Hi @[Ada Lovelace](urn:li:person:ada-42) {hashtag|\\#|math}") ==
          "Hi Ada Lovelace #math");
}

TEST_CASE_METHOD(LinkedInMember,
                 "LinkedIn publishes text as escaped little text with the version headers",
                 "[integration][social]") {
    const auto account = target(connect());
    const std::string text = "Launch (v2) [beta] {soon} <3 @team | ~50% off_now *wow* \\o/ #squawk";
    auto m = message(text);
    m.options = {{"visibility", "CONNECTIONS"}};
    const auto p = linkedin->publish(account, m);
    REQUIRE_FALSE(p.failure);
    CHECK(p.message_id.starts_with("urn:li:share:"));
    CHECK(p.url == "https://www.linkedin.com/feed/update/" + p.message_id);

    const auto body = posted(0);
    CHECK(body["author"] == "urn:li:person:" + member);
    CHECK(body["commentary"] == social::linkedin::escape_little_text(text));
    CHECK(body["visibility"] == "CONNECTIONS");
    CHECK(body["lifecycleState"] == "PUBLISHED");
    CHECK(body["distribution"]["feedDistribution"] == "MAIN_FEED");
    CHECK_FALSE(body.contains("content"));
    const auto headers = fake.calls("/linkedin/rest/posts")[0]["headers"];
    CHECK(headers["linkedin-version"] == std::string(social::linkedin::kVersion));
    CHECK(headers["x-restli-protocol-version"] == "2.0.0");
    CHECK(headers["authorization"] == "Bearer " + account.credentials.at("access_token"));
    REQUIRE(posts().size() == 1);
    CHECK(social::linkedin::plain_text(posts()[0]["commentary"].get<std::string>()) == text);

    // LinkedIn takes no commentary with a reserved character left bare, nor a call without the
    // version header.
    auto raw = [&](http::HeaderList headers, json post) {
        http::Request r;
        r.method = "POST";
        r.url = fake.base_url("linkedin") + "/rest/posts";
        r.headers = std::move(headers);
        r.headers.emplace_back("Authorization", "Bearer " + account.credentials.at("access_token"));
        r.headers.emplace_back("Content-Type", "application/json");
        r.body = post.dump();
        return http.send(std::move(r));
    };
    json bare = body;
    bare["commentary"] = "Launch (v2)";
    const auto refused =
        raw({{"LinkedIn-Version", "202610"}, {"X-Restli-Protocol-Version", "2.0.0"}}, bare);
    CHECK(refused.status == 422);
    CHECK(refused.body.find("reserved character '('") != std::string::npos);
    CHECK(raw({{"X-Restli-Protocol-Version", "2.0.0"}}, body).status == 400);
    CHECK(posts().size() == 1);
}

TEST_CASE_METHOD(LinkedInMember, "LinkedIn posts a link as an article with its source and title",
                 "[integration][social]") {
    const auto account = target(connect());
    auto m = message("Read this: https://squawk.example/blog/launch?ref=li today");
    m.options = {{"title", "Squawk launches"}};
    REQUIRE_FALSE(linkedin->publish(account, m).failure);
    CHECK(posted(0)["content"] == json{{"article",
                                        {{"source", "https://squawk.example/blog/launch?ref=li"},
                                         {"title", "Squawk launches"}}}});
    // Without a title option the link is its own title.
    REQUIRE_FALSE(linkedin->publish(account, message("(see http://a.example/x).")).failure);
    CHECK(posted(1)["content"] ==
          json{{"article", {{"source", "http://a.example/x"}, {"title", "http://a.example/x"}}}});
}

TEST_CASE_METHOD(LinkedInMember,
                 "LinkedIn uploads an image through the Images API and posts it as media",
                 "[integration][social]") {
    const auto account = target(connect());
    auto m = message("A photo", {"https://img.example/a.png"});
    m.uploads = {png("a.png", 700'000)};
    const auto p = linkedin->publish(account, m);
    REQUIRE_FALSE(p.failure);
    const auto init = fake.calls("/linkedin/rest/images");
    REQUIRE(init.size() == 1);
    CHECK(query_fields(init[0]["target"].get<std::string>()).at("action") == "initializeUpload");
    CHECK(json::parse(init[0]["body"].get<std::string>()) ==
          json{{"initializeUploadRequest", {{"owner", "urn:li:person:" + member}}}});
    const auto puts = fake.calls("/linkedin/dms-uploads/image/");
    REQUIRE(puts.size() == 1);
    CHECK(puts[0]["method"] == "PUT");
    CHECK(puts[0]["body"].get<std::string>().size() == 700'000);
    const auto id = posted(0)["content"]["media"]["id"].get<std::string>();
    CHECK(id.starts_with("urn:li:image:"));
    CHECK(posts()[0]["content"]["media"]["id"] == id);

    // An image the media plan did not download is refused before anything is uploaded.
    auto by_url = message("by URL", {"https://img.example/b.png"});
    const auto refused = linkedin->publish(account, by_url);
    REQUIRE(refused.failure);
    CHECK(refused.failure->kind == FailureKind::refused);
    CHECK(fake.calls("/linkedin/rest/images").size() == 1);
}

TEST_CASE_METHOD(LinkedInMember, "LinkedIn posts several images as one multiImage",
                 "[integration][social]") {
    const auto account = target(connect());
    auto m = message("Three photos", {"https://img.example/1.png", "https://img.example/2.jpg",
                                      "https://img.example/3.gif"});
    m.uploads = {png("1.png"), social::Upload{"2.jpg", "image/jpeg", "jpeg-bytes"},
                 social::Upload{"3.gif", "image/gif", "gif-bytes"}};
    REQUIRE_FALSE(linkedin->publish(account, m).failure);
    CHECK(fake.calls("/linkedin/dms-uploads/image/").size() == 3);
    const auto images = posted(0)["content"]["multiImage"]["images"];
    REQUIRE(images.size() == 3);
    for (const auto& image : images)
        CHECK(image["id"].get<std::string>().starts_with("urn:li:image:"));
    CHECK(posts()[0]["content"]["multiImage"]["images"] == images);
}

TEST_CASE_METHOD(LinkedInMember,
                 "LinkedIn uploads a video in the parts it hands out and finalizes it with their "
                 "ETags",
                 "[integration][social]") {
    const auto account = target(connect());
    fs::ScratchDirectory folder("squawk-linkedin-video-");
    auto m = message("A talk");
    const long long size = 10 * 1000 * 1000;
    m.video = video_file(folder, size);
    const auto p = linkedin->publish(account, m);
    REQUIRE_FALSE(p.failure);

    const auto init = fake.calls("/linkedin/rest/videos");
    REQUIRE(init.size() >= 3);  // initializeUpload, finalizeUpload, the status reads
    const auto request = json::parse(init[0]["body"].get<std::string>());
    CHECK(request["initializeUploadRequest"]["fileSizeBytes"] == size);
    CHECK(request["initializeUploadRequest"]["owner"] == "urn:li:person:" + member);
    const auto parts = fake.calls("/linkedin/dms-uploads/video/");
    REQUIRE(parts.size() == 3);
    CHECK(parts[0]["body"].get<std::string>().size() == 4 * 1024 * 1024);
    CHECK(parts[1]["body"].get<std::string>().size() == 4 * 1024 * 1024);
    CHECK(parts[2]["body"].get<std::string>().size() == size - 8 * 1024 * 1024);
    CHECK_FALSE(parts[0]["headers"].contains("authorization"));
    const auto finalize = json::parse(init[1]["body"].get<std::string>());
    CHECK(query_fields(init[1]["target"].get<std::string>()).at("action") == "finalizeUpload");
    CHECK(finalize["finalizeUploadRequest"]["uploadedPartIds"].size() == 3);
    const auto video = posted(0)["content"]["media"]["id"].get<std::string>();
    CHECK(video == finalize["finalizeUploadRequest"]["video"].get<std::string>());
    CHECK(video.starts_with("urn:li:video:"));
    REQUIRE(posts().size() == 1);
}

TEST_CASE_METHOD(LinkedInMember,
                 "LinkedIn refuses a video whose processing failed and posts nothing",
                 "[integration][social]") {
    const auto account = target(connect());
    fs::ScratchDirectory folder("squawk-linkedin-video-");
    fake.control_platform("linkedin", "fail_processing", json::object());
    auto m = message("A broken talk");
    m.video = video_file(folder, 200'000);
    const auto p = linkedin->publish(account, m);
    REQUIRE(p.failure);
    CHECK(p.failure->kind == FailureKind::refused);
    CHECK(p.failure->reason.find("not in a supported format") != std::string::npos);
    CHECK(posts().empty());
}

TEST_CASE_METHOD(LinkedInMember,
                 "LinkedIn posts a document uploaded through the Documents API with its title",
                 "[integration][social]") {
    const auto account = target(connect());
    auto m = document_message("Our deck");
    m.options = {{"title", "Squawk deck"}};
    REQUIRE_FALSE(linkedin->publish(account, m).failure);
    CHECK(fake.calls("/linkedin/dms-uploads/document/").size() == 1);
    const auto media = posted(0)["content"]["media"];
    CHECK(media["id"].get<std::string>().starts_with("urn:li:document:"));
    CHECK(media["title"] == "Squawk deck");
    // Without a title option the file's name is the title.
    REQUIRE_FALSE(linkedin->publish(account, document_message("again")).failure);
    CHECK(posted(1)["content"]["media"]["title"] == "deck.pdf");

    // A document goes only as a document post, and a document post needs one.
    auto as_post = document_message("wrong type");
    as_post.post_type = "post";
    const auto refused = linkedin->publish(account, as_post);
    REQUIRE(refused.failure);
    CHECK(refused.failure->reason.find("post_type document") != std::string::npos);
    auto empty = message("no file");
    empty.post_type = "document";
    REQUIRE(linkedin->publish(account, empty).failure);
    CHECK(posts().size() == 2);
}

TEST_CASE_METHOD(LinkedInMember, "LinkedIn edits a post's commentary with a PARTIAL_UPDATE",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto p = linkedin->publish(account, message("first words"));
    REQUIRE_FALSE(p.failure);
    REQUIRE_FALSE(linkedin->edit(account, p.message_id, message("better words (edited)")).failure);
    const auto calls = fake.calls("/linkedin/rest/posts/");
    REQUIRE(calls.size() == 1);
    CHECK(calls[0]["method"] == "POST");
    CHECK(calls[0]["path"] == "/linkedin/rest/posts/urn%3Ali%3Ashare%3A" +
                                  p.message_id.substr(std::string("urn:li:share:").size()));
    CHECK(calls[0]["headers"]["x-restli-method"] == "PARTIAL_UPDATE");
    CHECK(json::parse(calls[0]["body"].get<std::string>()) ==
          json{{"patch", {{"$set", {{"commentary", "better words \\(edited\\)"}}}}}});
    CHECK(posts()[0]["commentary"] == "better words \\(edited\\)");
    // The same text again succeeds: edits may be repeated.
    CHECK_FALSE(linkedin->edit(account, p.message_id, message("better words (edited)")).failure);

    const auto missing = linkedin->edit(account, "urn:li:share:1", message("x"));
    REQUIRE(missing.failure);
    CHECK(missing.failure->http_status == 404);
    CHECK(linkedin->edit(account, "../userinfo", message("x")).failure);
}

TEST_CASE_METHOD(LinkedInMember, "LinkedIn deletes a post and deleting it again succeeds",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto p = linkedin->publish(account, message("short-lived"));
    REQUIRE_FALSE(p.failure);
    CHECK_FALSE(linkedin->remove(account, p.message_id).failure);
    CHECK(posts().empty());
    CHECK_FALSE(linkedin->remove(account, p.message_id).failure);
    const auto deletes = fake.calls("/linkedin/rest/posts/");
    REQUIRE(deletes.size() == 2);
    CHECK(deletes[0]["method"] == "DELETE");
    CHECK(deletes[0]["headers"]["x-restli-method"] == "DELETE");

    const auto bad = linkedin->remove(account, "urn:li:person:ada-42");
    REQUIRE(bad.failure);
    CHECK(bad.failure->kind == FailureKind::refused);
    CHECK(fake.calls("/linkedin/rest/posts/").size() == 2);

    fake.control_platform("linkedin", "user", {{"id", "other-1"}, {"name", "Other"}});
    const auto theirs =
        fake.control_platform("linkedin", "post", {{"user_id", "other-1"}, {"text", "mine"}});
    const auto forbidden = linkedin->remove(account, theirs["id"].get<std::string>());
    REQUIRE(forbidden.failure);
    CHECK(forbidden.failure->kind == FailureKind::refused);
    CHECK(forbidden.failure->http_status == 403);
}

TEST_CASE_METHOD(LinkedInMember,
                 "LinkedIn lists the member's posts newest first when granted r_member_social",
                 "[integration][social]") {
    const auto account = privileged({"r_member_social"});
    const auto ours = linkedin->publish(account, message("from Squawk (1)"));
    REQUIRE_FALSE(ours.failure);
    REQUIRE_FALSE(
        linkedin->edit(account, ours.message_id, message("from Squawk (edited)")).failure);
    const auto native =
        fake.control_platform("linkedin", "post", {{"user_id", member}, {"text", "from the app_"}});
    const auto listing = linkedin->list_recent(account);
    REQUIRE(listing);
    REQUIRE_FALSE(listing->failure);
    REQUIRE(listing->posts.size() == 2);
    CHECK(listing->posts[0].external_id == native["id"]);
    CHECK(listing->posts[0].text == "from the app_");
    CHECK_FALSE(listing->posts[0].edited_at);
    CHECK(listing->posts[1].external_id == ours.message_id);
    CHECK(listing->posts[1].text == "from Squawk (edited)");
    CHECK(listing->posts[1].url == ours.url);
    CHECK(listing->posts[1].edited_at);
    CHECK(listing->posts[0].published_at >= listing->posts[1].published_at);
    const auto calls = fake.calls("/linkedin/rest/posts");
    const auto query = query_fields(calls.back()["target"].get<std::string>());
    CHECK(query.at("q") == "author");
    CHECK(query.at("author") == "urn:li:person:" + member);
    CHECK(query.at("sortBy") == "CREATED");

    // A member's token without r_member_social cannot read their posts.
    const auto plain = linkedin->list_recent(target(connect()));
    REQUIRE(plain);
    REQUIRE(plain->failure);
    CHECK(plain->failure->kind == FailureKind::refused);
    CHECK(plain->failure->http_status == 403);
    CHECK(plain->failure->reason.find("r_member_social") != std::string::npos);
}

TEST_CASE_METHOD(LinkedInMember,
                 "LinkedIn reads the member's followers and a post's likes and comments",
                 "[integration][social]") {
    const auto account = privileged({"r_member_social", "r_member_profileAnalytics"});
    const auto followers = linkedin->account_metrics(account);
    REQUIRE(followers);
    REQUIRE_FALSE(followers->failure);
    CHECK(followers->metrics.followers == 1815);

    const auto p = linkedin->publish(account, message("count me"));
    REQUIRE_FALSE(p.failure);
    fake.control_platform("linkedin", "social",
                          {{"urn", p.message_id}, {"likes", 12}, {"comments", 3}});
    const auto counts = linkedin->post_metrics(account, p.message_id);
    REQUIRE(counts);
    REQUIRE_FALSE(counts->failure);
    CHECK(counts->metrics.likes == 12);
    CHECK(counts->metrics.comments == 3);
    CHECK_FALSE(counts->metrics.impressions);

    const auto member_only = target(connect());
    const auto refused = linkedin->account_metrics(member_only);
    REQUIRE(refused);
    REQUIRE(refused->failure);
    CHECK(refused->failure->http_status == 403);
    CHECK(refused->failure->reason.find("r_member_profileAnalytics") != std::string::npos);
}

TEST_CASE_METHOD(
    LinkedInMember,
    "LinkedIn refuses a bad token naming access_token and a missing permission by name",
    "[integration][social]") {
    const auto account = target(connect());
    fake.revoke(account.credentials.at("access_token"));
    const auto revoked = linkedin->publish(account, message("a"));
    REQUIRE(revoked.failure);
    CHECK(revoked.failure->kind == FailureKind::refused);
    CHECK(revoked.failure->http_status == 401);
    CHECK(revoked.failure->field == "access_token");
    CHECK(revoked.failure->reason == "Invalid access token");

    const auto reader = target(connect({{"scopes", {"openid", "profile"}}}));
    CHECK(social::missing_scopes(reader.credentials, social::linkedin::kFactory.oauth_scopes) ==
          std::vector<std::string>{"w_member_social"});
    const auto forbidden = linkedin->publish(reader, message("b"));
    REQUIRE(forbidden.failure);
    CHECK(forbidden.failure->kind == FailureKind::refused);
    CHECK(forbidden.failure->http_status == 403);
    CHECK(forbidden.failure->field.empty());
    CHECK(forbidden.failure->reason.find("Not enough permissions") != std::string::npos);
    CHECK(forbidden.failure->reason.find("w_member_social") != std::string::npos);
    CHECK(posts().empty());
}

TEST_CASE_METHOD(LinkedInMember, "LinkedIn refuses commentary over 3000 characters",
                 "[integration][social]") {
    const auto account = target(connect());
    // Escapes do not count: 3000 reserved characters are 3000 characters.
    REQUIRE_FALSE(linkedin->publish(account, message(std::string(3000, '('))).failure);
    std::string over = std::string(2999, 'a');
    over += "éé";
    const auto long_text = linkedin->publish(account, message(over));
    REQUIRE(long_text.failure);
    CHECK(long_text.failure->kind == FailureKind::refused);
    CHECK(long_text.failure->http_status == 422);
    CHECK(long_text.failure->reason.find("exceeds the maximum allowed length of 3000") !=
          std::string::npos);
    CHECK(posts().size() == 1);
}

TEST_CASE_METHOD(LinkedInMember, "LinkedIn failures are classified as the publish worker relies on",
                 "[integration][social]") {
    const auto account = target(connect());
    fake.control_platform("linkedin", "throttle",
                          {{"method", "POST"}, {"path", "/rest/posts"}, {"retry_after", 40}});
    const auto limited = linkedin->publish(account, message("a"));
    REQUIRE(limited.failure);
    CHECK(limited.failure->kind == FailureKind::not_accepted);
    CHECK(limited.failure->http_status == 429);
    CHECK(limited.failure->retry_after == std::chrono::seconds(40));
    CHECK(limited.failure->reason.find("throttle") != std::string::npos);

    fake.program(
        "/linkedin/rest/posts",
        {{{"status", 504},
          {"body", {{"status", 504}, {"code", "GATEWAY_TIMEOUT"}, {"message", "Gateway Timeout"}}}},
         {{"delay_ms", 2000}}});
    const auto unavailable = linkedin->publish(account, message("b"));
    REQUIRE(unavailable.failure);
    CHECK(unavailable.failure->kind == FailureKind::not_accepted);
    CHECK(unavailable.failure->reason == "Gateway Timeout");
    // The post went out and no answer came: it is there, and must not be sent again blindly.
    const auto slow = linkedin->publish(account, message("c"));
    REQUIRE(slow.failure);
    CHECK(slow.failure->kind == FailureKind::unknown_outcome);
    REQUIRE(posts().size() == 1);
    CHECK(posts()[0]["commentary"] == "c");

    // An upload publishes nothing: no answer to it is a sure non-acceptance.
    auto m = message("d", {"https://img.example/a.png"});
    m.uploads = {png("a.png")};
    fake.program("/linkedin/dms-uploads/", {{{"delay_ms", 2000}}});
    const auto lost = linkedin->publish(account, m);
    REQUIRE(lost.failure);
    CHECK(lost.failure->kind == FailureKind::not_accepted);
    CHECK(posts().size() == 1);
}

TEST_CASE("LinkedIn options name the organization posted as by its id or URN",
          "[integration][social]") {
    const auto* linkedin = social::find_platform("linkedin");
    REQUIRE(linkedin);
    CHECK(linkedin->check_options({{"organization", "2414183"}}, "post").empty());
    CHECK(linkedin->check_options({{"organization", "urn:li:organization:2414183"}}, "document")
              .empty());
    for (const json& bad : {json("acme"), json(2414183), json(""), json("urn:li:person:7"),
                            json("urn:li:organization:")}) {
        const auto problems = linkedin->check_options({{"organization", bad}}, "post");
        REQUIRE(problems.size() == 1);
        CHECK(problems[0].field == "organization");
    }
    // A page has no connections to limit a post to.
    const auto connections = linkedin->check_options(
        {{"organization", "2414183"}, {"visibility", "CONNECTIONS"}}, "post");
    REQUIRE(connections.size() == 1);
    CHECK(connections[0].field == "visibility");

    social::PostInput input;
    input.content = "News from the page";
    input.platform_options = {{"linkedin", {{"organization", "Analytical Engines"}}}};
    const auto review = social::review_for_platforms(input, {"linkedin"}, social::known_limits());
    REQUIRE(review.problems.contains("platform_options.linkedin.organization"));
    CHECK(
        review.problems.at("platform_options.linkedin.organization").find("urn:li:organization:") !=
        std::string::npos);
}

TEST_CASE_METHOD(LinkedInAdministrator,
                 "LinkedIn consent asks the organization scopes where organization pages are on",
                 "[integration][social]") {
    const auto url =
        linkedin->authorize_url(client, "state-7", social::code_challenge_of(kPkceVerifier));
    CHECK(query_fields(url).at("scope") ==
          "openid profile w_member_social w_organization_social r_organization_social "
          "rw_organization_admin");
    // The organization scopes are not required: a member who declines them still connects.
    const auto member_only = connect({{"scopes", {"openid", "profile", "w_member_social"}}});
    CHECK(social::missing_scopes(member_only, social::linkedin::kScopes).empty());
}

TEST_CASE_METHOD(LinkedInAdministrator,
                 "LinkedIn posts as an organization the member administers with the page as "
                 "author and media owner",
                 "[integration][social]") {
    const auto account = target(connect());
    CHECK(account.credentials.at("scope").find("w_organization_social") != std::string::npos);
    const std::string urn = "urn:li:organization:" + page;
    auto m = as_page("Our new engine", {"https://img.example/engine.png"}, page);
    m.uploads = {png("engine.png")};
    const auto p = linkedin->publish(account, m);
    REQUIRE_FALSE(p.failure);
    CHECK(p.message_id.starts_with("urn:li:share:"));

    // The member's roles were looked up before anything was uploaded.
    const auto acls = fake.calls("/linkedin/rest/organizationAcls");
    REQUIRE(acls.size() == 1);
    const auto query = query_fields(acls[0]["target"].get<std::string>());
    CHECK(query.at("q") == "roleAssignee");
    CHECK(query.at("role") == "ADMINISTRATOR");
    CHECK(query.at("state") == "APPROVED");
    CHECK(acls[0]["headers"]["x-restli-method"] == "FINDER");
    const auto init = fake.calls("/linkedin/rest/images");
    REQUIRE(init.size() == 1);
    CHECK(json::parse(init[0]["body"].get<std::string>()) ==
          json{{"initializeUploadRequest", {{"owner", urn}}}});
    CHECK(posted(0)["author"] == urn);
    CHECK(posted(0)["visibility"] == "PUBLIC");
    REQUIRE(posts().size() == 1);
    CHECK(posts()[0]["author"] == urn);
    CHECK(posts()[0]["content"]["media"]["id"].get<std::string>().starts_with("urn:li:image:"));

    // The URN names the page as well; a video is owned by the page too.
    fs::ScratchDirectory folder("squawk-linkedin-video-");
    auto clip = as_page("A demonstration", {}, urn);
    clip.video = video_file(folder, 100'000);
    REQUIRE_FALSE(linkedin->publish(account, clip).failure);
    const auto videos = fake.calls("/linkedin/rest/videos");
    REQUIRE_FALSE(videos.empty());
    CHECK(json::parse(videos[0]["body"].get<std::string>())["initializeUploadRequest"]["owner"] ==
          urn);
    CHECK(posts()[1]["author"] == urn);
    // The page's post is edited and deleted like the member's own.
    CHECK_FALSE(linkedin->edit(account, p.message_id, message("Our newer engine", {})).failure);
    CHECK_FALSE(linkedin->remove(account, p.message_id).failure);
    CHECK(posts().size() == 1);
}

TEST_CASE_METHOD(LinkedInAdministrator,
                 "LinkedIn reads a page's post impressions, reach and reshares from the "
                 "organization's share statistics",
                 "[integration][social]") {
    const auto account = target(connect());
    auto m = as_page("Counted by the page", {}, page);
    const auto p = linkedin->publish(account, m);
    REQUIRE_FALSE(p.failure);
    fake.control_platform("linkedin", "social",
                          {{"urn", p.message_id},
                           {"likes", 40},
                           {"comments", 6},
                           {"impressions", 5200},
                           {"unique_impressions", 3100},
                           {"reshares", 9}});
    fake.clear_calls();
    const auto counts = linkedin->post_metrics(account, p.message_id);
    REQUIRE(counts);
    REQUIRE_FALSE(counts->failure);
    CHECK(counts->metrics.likes == 40);
    CHECK(counts->metrics.comments == 6);
    CHECK(counts->metrics.impressions == 5200);
    CHECK(counts->metrics.reach == 3100);
    CHECK(counts->metrics.shares == 9);
    const auto statistics = fake.calls("/linkedin/rest/organizationalEntityShareStatistics");
    REQUIRE(statistics.size() == 1);
    const auto query = query_fields(statistics[0]["target"].get<std::string>());
    CHECK(query.at("q") == "organizationalEntity");
    CHECK(query.at("organizationalEntity") == "urn:li:organization:" + page);
    CHECK(query.at("shares") == "List(" + p.message_id + ")");

    // The member's own post has no page statistics: its author is read, and no statistics.
    const auto own = linkedin->publish(account, message("my own words"));
    REQUIRE_FALSE(own.failure);
    fake.clear_calls();
    const auto reader = privileged({"r_member_social"});
    const auto member_post = linkedin->post_metrics(reader, own.message_id);
    REQUIRE(member_post);
    REQUIRE_FALSE(member_post->failure);
    CHECK_FALSE(member_post->metrics.impressions);
    const auto reads = fake.calls("/linkedin/rest/posts");
    REQUIRE(reads.size() == 1);
    CHECK(reads[0]["method"] == "GET");
    CHECK(fake.calls("/linkedin/rest/organizationalEntityShareStatistics").empty());

    // A grant without rw_organization_admin reads likes and comments only.
    const auto declined = target(connect({{"scopes",
                                           {"openid", "profile", "w_member_social",
                                            "w_organization_social", "r_organization_social"}}}));
    const auto without = linkedin->post_metrics(declined, p.message_id);
    REQUIRE(without);
    REQUIRE_FALSE(without->failure);
    CHECK(without->metrics.likes == 40);
    CHECK_FALSE(without->metrics.impressions);
    CHECK(fake.calls("/linkedin/rest/organizationalEntityShareStatistics").empty());
}

TEST_CASE_METHOD(LinkedInAdministrator,
                 "LinkedIn refuses to post as an organization the member does not administer",
                 "[integration][social]") {
    const auto account = target(connect());
    for (const std::string& organization : {analysed, std::string("9990001")}) {
        fake.clear_calls();
        auto m = as_page("Not mine to say", {"https://img.example/a.png"}, organization);
        m.uploads = {png("a.png")};
        const auto p = linkedin->publish(account, m);
        REQUIRE(p.failure);
        CHECK(p.failure->kind == FailureKind::refused);
        CHECK(p.failure->http_status == 403);
        CHECK(p.failure->field == "organization");
        CHECK(p.failure->reason ==
              "Ada Lovelace is not an administrator of LinkedIn "
              "organization " +
                  organization + " (organization)");
        // Nothing was uploaded or posted.
        CHECK(fake.calls("/linkedin/rest/images").empty());
        CHECK(fake.calls("/linkedin/rest/posts").empty());
    }
    CHECK(posts().empty());
}

TEST_CASE_METHOD(LinkedInAdministrator,
                 "LinkedIn refuses a post as an organization from an account without the "
                 "organization scope",
                 "[integration][social]") {
    // The grant names its scopes: refused before any call.
    const auto declined = target(connect({{"scopes", {"openid", "profile", "w_member_social"}}}));
    fake.clear_calls();
    const auto p = linkedin->publish(declined, as_page("Hello", {}, page));
    REQUIRE(p.failure);
    CHECK(p.failure->kind == FailureKind::refused);
    CHECK(p.failure->field == "organization");
    CHECK(p.failure->reason.find("needs the permission w_organization_social") !=
          std::string::npos);
    CHECK(fake.calls("/linkedin/").empty());
    // The same member still posts as themself.
    CHECK_FALSE(linkedin->publish(declined, message("Hello as me", {})).failure);

    // A token that names no scopes is tried: LinkedIn's 403 names the permission.
    const auto issued = privileged({});
    const auto unnamed = linkedin->publish(issued, as_page("Hello", {}, page));
    REQUIRE(unnamed.failure);
    CHECK(unnamed.failure->kind == FailureKind::refused);
    CHECK(unnamed.failure->http_status == 403);
    CHECK(unnamed.failure->reason.find("w_organization_social") != std::string::npos);
    CHECK(posts().size() == 1);
}

TEST_CASE_METHOD(LinkedInMember,
                 "LinkedIn lists the comments under a post oldest first by page, each followed by "
                 "its replies, and answers, likes and deletes them as the member",
                 "[integration][social]") {
    fake.control_platform("linkedin", "user", {{"id", "grace-7"}, {"name", "Grace Hopper"}});
    const auto account = privileged({"r_member_social"});
    const auto p = linkedin->publish(account, message("Tell us"));
    REQUIRE_FALSE(p.failure);
    const auto comment = [&](const std::string& on, const std::string& text) {
        return fake
            .control_platform("linkedin", "comment",
                              {{"urn", on}, {"user_id", "grace-7"}, {"text", text}})["commentUrn"]
            .get<std::string>();
    };
    const auto first = comment(p.message_id, "Love it");
    const auto under = comment(first, "Same here");
    std::vector<std::string> more;
    for (int i = 0; i < 60; ++i) more.push_back(comment(p.message_id, "More " + std::to_string(i)));

    const auto page = linkedin->list_comments(account, p.message_id, "");
    REQUIRE(page);
    REQUIRE_FALSE(page->failure);
    REQUIRE(page->comments.size() == 51);
    CHECK(page->comments[0].external_id == first);
    CHECK(page->comments[0].parent_id.empty());
    CHECK(page->comments[0].author_id == "urn:li:person:grace-7");
    CHECK(page->comments[0].text == "Love it");
    CHECK(page->comments[1].external_id == under);
    CHECK(page->comments[1].parent_id == first);
    CHECK(page->comments[2].external_id == more[0]);
    REQUIRE(page->next_cursor);
    const auto rest = linkedin->list_comments(account, p.message_id, *page->next_cursor);
    REQUIRE(rest);
    REQUIRE(rest->comments.size() == 11);
    CHECK(rest->comments.back().external_id == more.back());
    CHECK_FALSE(rest->next_cursor);

    const auto answered = linkedin->reply_to_comment(account, first, message("Thank you!"));
    REQUIRE(answered);
    REQUIRE_FALSE(answered->failure);
    CHECK(answered->message_id.starts_with("urn:li:comment:(urn:li:activity:"));
    REQUIRE(answered->url);
    CHECK(answered->url->find("?commentUrn=urn%3Ali%3Acomment%3A%28") != std::string::npos);
    const auto creates = fake.calls("/comments");
    const auto sent = json::parse(creates.back()["body"].get<std::string>());
    CHECK(sent["actor"] == "urn:li:person:" + member);
    CHECK(sent["parentComment"] == first);
    CHECK(sent["message"]["text"] == "Thank you!");
    // LinkedIn nests comments one level deep.
    const auto nested = linkedin->reply_to_comment(account, under, message("And you"));
    REQUIRE(nested);
    REQUIRE(nested->failure);
    CHECK(nested->failure->kind == FailureKind::refused);
    CHECK(nested->failure->http_status == 422);
    const auto long_reply =
        linkedin->reply_to_comment(account, first, message(std::string(1251, 'a')));
    REQUIRE(long_reply);
    REQUIRE(long_reply->failure);
    CHECK(long_reply->failure->field == "text");

    const auto liked = linkedin->like_comment(account, first);
    REQUIRE(liked);
    REQUIRE_FALSE(liked->failure);
    const auto again = linkedin->like_comment(account, first);
    REQUIRE(again);
    CHECK_FALSE(again->failure);
    const auto reaction = fake.calls("/rest/reactions");
    CHECK(query_fields(reaction[0]["target"].get<std::string>()).at("actor") ==
          "urn:li:person:" + member);
    CHECK(json::parse(reaction[0]["body"].get<std::string>())["reactionType"] == "LIKE");

    CHECK_FALSE(linkedin->moderate_comment(account, first, social::Moderation::hide));
    // The member deletes their own reply and, on their own post, Grace's comment (with its
    // replies); deleting it again succeeds.
    for (const auto& urn : {answered->message_id, first, first}) {
        const auto removed = linkedin->moderate_comment(account, urn, social::Moderation::remove);
        REQUIRE(removed);
        CHECK_FALSE(removed->failure);
    }
    const auto after = linkedin->list_comments(account, p.message_id, "");
    REQUIRE(after);
    REQUIRE(after->comments.size() == 50);
    CHECK(after->comments[0].external_id == more[0]);

    const auto bad =
        linkedin->moderate_comment(account, "urn:li:share:1", social::Moderation::remove);
    REQUIRE(bad);
    REQUIRE(bad->failure);
    CHECK(bad->failure->reason == "'urn:li:share:1' is not the URN of a LinkedIn comment");
}

TEST_CASE_METHOD(LinkedInMember, "LinkedIn needs r_member_social to read a member's comments",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto p = linkedin->publish(account, message("Quiet"));
    REQUIRE_FALSE(p.failure);
    const auto listed = linkedin->list_comments(account, p.message_id, "");
    REQUIRE(listed);
    REQUIRE(listed->failure);
    CHECK(listed->failure->access == social::AccessLoss::permission_missing);
    CHECK(listed->failure->reason.find("r_member_social") != std::string::npos);
}
