// The Pinterest connector against the fake Pinterest API v5: the OAuth round trip (consent page,
// Basic-authenticated token endpoint, continuous refresh tokens), verify, pins of one image, a
// carousel or a video uploaded through media registration to the board the options name, the
// options' checks, edits, deletion, listing, counts, and each failure classified as the publish
// worker relies on.
#include "common/core/crypto/crypto.hpp"
#include "common/core/fs/work_files.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/domain/social/post_validation.hpp"
#include "common/extensions/platforms/pinterest/factory.hpp"
#include "tests/support/connector_fixture.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace squawk;
using namespace squawk::testing;
using nlohmann::json;
using social::FailureKind;

namespace {

const std::string kPinterestScopes = "boards:read,pins:read,pins:write,user_accounts:read";

// The Pinterest user squawkapp with a board of their own, who consents when the tests connect.
struct PinterestAccount : ConnectorFixture {
    PinterestAccount() {
        fake.control_platform("pinterest", "user",
                              {{"id", user_id},
                               {"username", "squawkapp"},
                               {"business_name", "Squawk"},
                               {"follower_count", 1234},
                               {"following_count", 56}});
        board_id = fake.control_platform("pinterest", "board",
                                         {{"user_id", user_id}, {"name", "Recipes"}})["id"];
    }

    const std::string user_id = "2783136121146311751";
    std::string board_id;
    std::unique_ptr<social::Connector> pinterest = connector("pinterest");
    const social::OAuthClient client = oauth_client("pinterest");

    // The consent page's redirect, the user choosing as `choice` says (scopes, deny; by default
    // granting all that was asked).
    Fields authorize(json choice = json::object()) {
        choice["user_id"] = user_id;
        fake.control_platform("pinterest", "next_consent", choice);
        return consent(pinterest->authorize_url(client, "state-7", "unused-challenge"));
    }

    social::Credentials connect(json choice = json::object()) {
        const auto redirect = authorize(std::move(choice));
        REQUIRE(redirect.contains("code"));
        auto grant = pinterest->exchange_code(client, redirect.at("code"), "unused-verifier");
        REQUIRE_FALSE(grant.failure);
        return grant.credentials;
    }

    social::Target target(social::Credentials credentials) const {
        return {{user_id, "Squawk", "squawkapp"}, std::move(credentials)};
    }

    // A pin message for the account's board with `images`.
    social::Message pin(std::string text, std::vector<std::string> images) const {
        auto m = message(std::move(text), std::move(images));
        m.post_type = "pin";
        m.options = {{"board_id", board_id}};
        return m;
    }

    // The account's pins on the fake, oldest first.
    json pins() { return fake.messages()["pinterest"]; }
    // The body of the `index`th call creating a pin.
    json posted(size_t index) {
        const auto calls = fake.calls("/pinterest/v5/pins");
        json creates = json::array();
        for (const auto& call : calls)
            if (call["method"] == "POST") creates.push_back(call);
        REQUIRE(creates.size() > index);
        return json::parse(creates[index]["body"].get<std::string>());
    }
};

}  // namespace

TEST_CASE("Pinterest is registered as an OAuth platform whose one post type is a pin",
          "[integration][social]") {
    ConnectorFixture f;
    const auto* pinterest = social::find_platform("pinterest");
    REQUIRE(pinterest);
    CHECK(pinterest->display_name == "Pinterest");
    CHECK(pinterest->connect_style == social::ConnectStyle::oauth);
    CHECK(pinterest->default_base_url == "https://api.pinterest.com");
    CHECK(pinterest->default_authorize_url == "https://www.pinterest.com/oauth/");
    CHECK(pinterest->default_token_url.empty());
    CHECK(social::default_post_type(*pinterest) == "pin");
    CHECK_FALSE(social::takes_post_type(*pinterest, "story"));
    const auto& limits = pinterest->limits;
    CHECK(limits.requires_media);
    CHECK(limits.max_text_chars == 500);
    CHECK(limits.min_album_items == 2);
    CHECK(limits.max_album_items == 5);
    CHECK(limits.can_edit);
    CHECK(limits.can_remove);
    CHECK(limits.media.max_video_bytes == 2LL * 1024 * 1024 * 1024);
    CHECK(f.connector("pinterest")->platform() == "pinterest");
}

TEST_CASE("Pinterest posts without an image or a video are refused by the posts validator",
          "[integration][social]") {
    social::PostInput input;
    input.content = "Only words";
    input.platform_options = {{"pinterest", {{"board_id", "123"}}}};
    const auto review = social::review_for_platforms(input, {"pinterest"}, social::known_limits());
    REQUIRE(review.problems.contains("media_urls"));
    CHECK(review.problems.at("media_urls").find("need an image or a video") != std::string::npos);

    input.media_urls = {"https://img.example/a.png"};
    CHECK(social::review_for_platforms(input, {"pinterest"}, social::known_limits())
              .problems.empty());
}

TEST_CASE(
    "Pinterest options need a board_id of digits and take only title link alt_text and "
    "board_section_id",
    "[integration][social]") {
    using social::pinterest::check_options;
    const auto fields = [](const social::OptionProblems& problems) {
        std::map<std::string, std::string> out;
        for (const auto& p : problems) out[p.field] = p.reason;
        return out;
    };
    CHECK(check_options({{"board_id", "123"}}, "pin").empty());
    CHECK(check_options({{"board_id", "123"},
                         {"board_section_id", "456"},
                         {"title", std::string(100, 't')},
                         {"alt_text", std::string(500, 'a')},
                         {"link", "https://squawk.example/recipe"}},
                        "pin")
              .empty());

    const auto missing = fields(check_options(json::object(), "pin"));
    REQUIRE(missing.size() == 1);
    CHECK(missing.at("board_id").find("required") != std::string::npos);

    const auto bad = fields(check_options({{"board_id", "my-board"},
                                           {"board_section_id", 7},
                                           {"title", std::string(101, 't')},
                                           {"alt_text", std::string(501, 'a')},
                                           {"link", "ftp://squawk.example"},
                                           {"privacy", "SECRET"}},
                                          "pin"));
    CHECK(bad.size() == 6);
    CHECK(bad.at("board_id").find("digits") != std::string::npos);
    CHECK(bad.at("board_section_id").find("digits") != std::string::npos);
    CHECK(bad.at("title").find("100 characters") != std::string::npos);
    CHECK(bad.at("alt_text").find("500 characters") != std::string::npos);
    CHECK(bad.at("link").find("http(s)") != std::string::npos);
    CHECK(bad.at("privacy") == "is not an option of pinterest");
    CHECK(fields(check_options({{"board_id", ""}}, "pin")).contains("board_id"));
    // Characters are counted, not bytes.
    std::string accented;
    for (int i = 0; i < 100; ++i) accented += "é";
    CHECK(check_options({{"board_id", "1"}, {"title", accented}}, "pin").empty());
}

TEST_CASE_METHOD(PinterestAccount,
                 "Pinterest consent URL asks every scope joined by commas with the state",
                 "[integration][social]") {
    const auto url = pinterest->authorize_url(client, "state-7", "challenge");
    REQUIRE(url.starts_with(fake.authorize_url("pinterest") + "?"));
    const auto query = query_fields(url);
    CHECK(query.at("response_type") == "code");
    CHECK(query.at("client_id") == fake.oauth_client_id());
    CHECK(query.at("redirect_uri") == client.redirect_uri);
    CHECK(query.at("scope") == kPinterestScopes);
    CHECK(query.at("state") == "state-7");

    const auto denied = authorize({{"deny", true}});
    CHECK(denied.at("error") == "access_denied");
    CHECK(denied.at("state") == "state-7");
    CHECK_FALSE(denied.contains("code"));
}

TEST_CASE_METHOD(PinterestAccount,
                 "Pinterest trades a consent code once with Basic client credentials for "
                 "continuous refresh tokens",
                 "[integration][social]") {
    const auto redirect = authorize();
    CHECK(redirect.at("state") == "state-7");
    const long long before = time::to_unix_ms(time::now()) / 1000;
    const auto grant = pinterest->exchange_code(client, redirect.at("code"), "unused-verifier");
    REQUIRE_FALSE(grant.failure);
    const auto& tokens = grant.credentials;
    CHECK(tokens.at("access_token").starts_with("pina_"));
    CHECK(tokens.at("refresh_token").starts_with("pinr_"));
    CHECK(tokens.at("scope") == kPinterestScopes);
    CHECK(social::missing_scopes(tokens, social::pinterest::kFactory.oauth_scopes).empty());
    const long long thirty_days = 30LL * 24 * 3600;
    CHECK(std::stoll(tokens.at("expires_at")) >= before + thirty_days);
    CHECK(std::stoll(tokens.at("expires_at")) <= before + thirty_days + 2);

    const auto calls = fake.calls("/pinterest/v5/oauth/token");
    REQUIRE(calls.size() == 1);
    CHECK(calls[0]["headers"]["authorization"] ==
          "Basic " + crypto::base64(fake.oauth_client_id() + ":" + fake.oauth_client_secret()));
    const auto form = form_fields(calls[0]["body"].get<std::string>());
    CHECK(form.at("grant_type") == "authorization_code");
    CHECK(form.at("code") == redirect.at("code"));
    CHECK(form.at("redirect_uri") == client.redirect_uri);
    CHECK(form.at("continuous_refresh") == "true");
    CHECK_FALSE(form.contains("client_secret"));

    const auto reused = pinterest->exchange_code(client, redirect.at("code"), "");
    REQUIRE(reused.failure);
    CHECK(reused.failure->kind == FailureKind::refused);
    CHECK(reused.failure->http_status == 400);
    CHECK(reused.failure->reason == "Invalid authorization code.");

    auto stranger = client;
    stranger.client_secret = "not-the-secret";
    const auto unknown = pinterest->exchange_code(stranger, authorize().at("code"), "");
    REQUIRE(unknown.failure);
    CHECK(unknown.failure->kind == FailureKind::refused);
    CHECK(unknown.failure->http_status == 401);
    CHECK(unknown.failure->reason == "Authentication failed.");
}

TEST_CASE_METHOD(PinterestAccount,
                 "Pinterest refresh replaces the continuous refresh token and refuses the old one",
                 "[integration][social]") {
    const auto first = connect();
    fake.control_platform("pinterest", "expire", {{"user_id", user_id}});
    CHECK(pinterest->verify(first).failure);

    const auto renewed = pinterest->refresh(client, first);
    REQUIRE_FALSE(renewed.failure);
    CHECK(renewed.credentials.at("access_token") != first.at("access_token"));
    CHECK(renewed.credentials.at("refresh_token") != first.at("refresh_token"));
    CHECK(renewed.credentials.at("scope") == kPinterestScopes);
    const auto form =
        form_fields(fake.calls("/pinterest/v5/oauth/token")[1]["body"].get<std::string>());
    CHECK(form.at("grant_type") == "refresh_token");
    CHECK(form.at("refresh_token") == first.at("refresh_token"));
    CHECK(pinterest->verify(renewed.credentials).identity);

    const auto again = pinterest->refresh(client, first);
    REQUIRE(again.failure);
    CHECK(again.failure->kind == FailureKind::refused);
    CHECK(again.failure->reason == "Invalid refresh token.");
    CHECK_FALSE(pinterest->refresh(client, renewed.credentials).failure);
}

TEST_CASE_METHOD(PinterestAccount,
                 "Pinterest verify names the account by id and business name and username",
                 "[integration][social]") {
    auto credentials = connect();
    CHECK(pinterest->check(credentials).empty());
    const auto v = pinterest->verify(credentials);
    REQUIRE(v.identity);
    CHECK(v.identity->external_id == user_id);
    CHECK(v.identity->display_name == "Squawk");
    CHECK(v.identity->handle == "squawkapp");
    const auto calls = fake.calls("/pinterest/v5/user_account");
    REQUIRE(calls.size() == 1);
    CHECK(calls[0]["headers"]["authorization"] == "Bearer " + credentials.at("access_token"));

    social::Credentials typed;
    const auto problems = pinterest->check(typed);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].field == "access_token");
    CHECK(problems[0].reason.find("/v1/social/connect/pinterest/authorize") != std::string::npos);

    fake.revoke(credentials.at("access_token"));
    const auto revoked = pinterest->verify(credentials);
    REQUIRE(revoked.failure);
    CHECK(revoked.failure->kind == FailureKind::refused);
    CHECK(revoked.failure->http_status == 401);
    CHECK(revoked.failure->field == "access_token");
    CHECK(revoked.failure->reason == "Authentication failed.");
}

TEST_CASE_METHOD(PinterestAccount,
                 "Pinterest finds a scope the user did not grant missing and refuses what it is "
                 "for",
                 "[integration][social]") {
    const auto credentials =
        connect({{"scopes", {"boards:read", "pins:read", "user_accounts:read"}}});
    CHECK(social::missing_scopes(credentials, social::pinterest::kFactory.oauth_scopes) ==
          std::vector<std::string>{"pins:write"});
    const auto p =
        pinterest->publish(target(credentials), pin("A photo", {"https://img.example/a.png"}));
    REQUIRE(p.failure);
    CHECK(p.failure->kind == FailureKind::refused);
    CHECK(p.failure->http_status == 403);
    CHECK(p.failure->reason.find("pins:write") != std::string::npos);
    // Pinterest's 403 for a scope is not taken for a refusal of the board.
    CHECK(p.failure->field != "board_id");
    CHECK(pins().empty());
}

TEST_CASE_METHOD(PinterestAccount,
                 "Pinterest publishes an image pin to the board its options name with the text "
                 "as description and its link",
                 "[integration][social]") {
    const auto account = target(connect());
    auto m = pin("Lemon tart, step by step: https://squawk.example/tart.",
                 {"https://img.example/tart.jpg"});
    m.options["title"] = "Lemon tart";
    m.options["alt_text"] = "A lemon tart on a plate";
    const auto p = pinterest->publish(account, m);
    REQUIRE_FALSE(p.failure);
    CHECK(p.url == "https://www.pinterest.com/pin/" + p.message_id + "/");

    // An image pin is one call, with the account's token: its board is not read first.
    CHECK(fake.calls("/pinterest/v5/boards/").empty());
    const auto made = fake.calls("/pinterest/v5/pins");
    REQUIRE(made.size() == 1);
    CHECK(made[0]["headers"]["authorization"] ==
          "Bearer " + account.credentials.at("access_token"));
    CHECK(posted(0) ==
          json{{"board_id", board_id},
               {"description", "Lemon tart, step by step: https://squawk.example/tart."},
               {"link", "https://squawk.example/tart"},
               {"title", "Lemon tart"},
               {"alt_text", "A lemon tart on a plate"},
               {"media_source",
                {{"source_type", "image_url"}, {"url", "https://img.example/tart.jpg"}}}});
    const auto stored = pins();
    REQUIRE(stored.size() == 1);
    CHECK(stored[0]["id"] == p.message_id);
    CHECK(stored[0]["board_id"] == board_id);
    CHECK(stored[0]["media"]["media_type"] == "image");

    // The link option wins over the text's address.
    auto linked = pin("See https://squawk.example/a", {"https://img.example/b.jpg"});
    linked.options["link"] = "https://shop.example/b";
    REQUIRE_FALSE(pinterest->publish(account, linked).failure);
    CHECK(posted(1)["link"] == "https://shop.example/b");
}

TEST_CASE_METHOD(PinterestAccount, "Pinterest publishes two to five images as a carousel pin",
                 "[integration][social]") {
    const auto account = target(connect());
    const std::vector<std::string> images = {
        "https://img.example/1.jpg", "https://img.example/2.jpg", "https://img.example/3.jpg"};
    const auto p = pinterest->publish(account, pin("Three steps", images));
    REQUIRE_FALSE(p.failure);
    CHECK(posted(0)["media_source"] ==
          json{{"source_type", "multiple_image_urls"},
               {"items", {{{"url", images[0]}}, {{"url", images[1]}}, {{"url", images[2]}}}}});
    CHECK(pins()[0]["media"]["media_type"] == "multiple_images");

    // Six are more than a carousel holds; an image to be uploaded Pinterest does not take.
    auto six = pin("Six", {"a", "b", "c", "d", "e", "f"});
    const auto too_many = pinterest->publish(account, six);
    REQUIRE(too_many.failure);
    CHECK(too_many.failure->kind == FailureKind::refused);
    CHECK(too_many.failure->reason.find("at most 5") != std::string::npos);
    auto uploaded = pin("Uploaded", {"https://img.example/big.png"});
    uploaded.uploads = {social::Upload{"big.png", "image/png", "png-bytes"}};
    const auto upload_refused = pinterest->publish(account, uploaded);
    REQUIRE(upload_refused.failure);
    CHECK(upload_refused.failure->reason.find("only by public URL") != std::string::npos);
    CHECK(pins().size() == 1);
}

TEST_CASE_METHOD(PinterestAccount,
                 "Pinterest publishes a video pin through media registration upload and "
                 "processing",
                 "[integration][social]") {
    const auto account = target(connect());
    fs::ScratchDirectory folder("squawk-pinterest-video-");
    auto m = pin("A clip", {});
    m.video = video_file(folder, 300'000);
    const auto p = pinterest->publish(account, m);
    REQUIRE_FALSE(p.failure);

    const auto registrations = fake.calls("/pinterest/v5/media");
    REQUIRE(registrations.size() >= 3);
    CHECK(registrations[0]["method"] == "POST");
    CHECK(json::parse(registrations[0]["body"].get<std::string>()) ==
          json{{"media_type", "video"}});
    const auto media_id = pins()[0]["media"]["media_id"].get<std::string>();
    // Read until processed: registered, then processing, then succeeded.
    const auto status_reads = fake.calls("/pinterest/v5/media/" + media_id);
    CHECK(status_reads.size() == 2);

    // The upload host gets every signed parameter and the file, without the API's token.
    const auto uploads = fake.calls("/pinterest/upload/");
    REQUIRE(uploads.size() == 1);
    CHECK_FALSE(uploads[0]["headers"].contains("authorization"));
    const auto& form = uploads[0]["form"];
    for (const char* name :
         {"key", "policy", "x-amz-signature", "x-amz-credential", "x-amz-algorithm", "x-amz-date",
          "x-amz-security-token", "Content-Type"})
        CHECK(form["fields"].contains(name));
    CHECK(form["files"]["file"]["bytes"] == 300'000);
    CHECK(form["files"]["file"]["content_type"] == "video/mp4");
    CHECK(form["files"]["file"]["filename"] == "clip.mp4");

    CHECK(posted(0)["media_source"] == json{{"source_type", "video_id"},
                                            {"media_id", media_id},
                                            {"cover_image_key_frame_time", 0}});
    CHECK(pins()[0]["media"]["media_type"] == "video");

    // A cover image goes with the video when the message has one.
    auto covered = pin("With a cover", {"https://img.example/cover.jpg"});
    covered.video = video_file(folder, 200'000);
    REQUIRE_FALSE(pinterest->publish(account, covered).failure);
    CHECK(posted(1)["media_source"]["cover_image_url"] == "https://img.example/cover.jpg");
}

TEST_CASE_METHOD(PinterestAccount,
                 "Pinterest streams a video larger than 32 MB to the upload host and it arrives "
                 "intact",
                 "[integration][social]") {
    const auto account = target(connect());
    fs::ScratchDirectory folder("squawk-pinterest-video-");
    // 40 MB of varied bytes, so that a part lost, repeated or moved changes the hash.
    std::string bytes(40 * 1024 * 1024, '\0');
    unsigned state = 7;
    for (char& byte : bytes) {
        state = state * 1103515245u + 12345u;
        byte = static_cast<char>(state >> 24);
    }
    auto m = pin("A long clip", {});
    m.video = video_file(folder, 1);
    m.video->bytes = static_cast<long long>(bytes.size());
    std::ofstream(m.video->path, std::ios::binary | std::ios::trunc) << bytes;

    const auto p = pinterest->publish(account, m);
    REQUIRE_FALSE(p.failure);
    const auto media_id = pins()[0]["media"]["media_id"].get<std::string>();
    const auto media = fake.control_platform("pinterest", "media", {{"media_id", media_id}});
    CHECK(media["bytes"] == bytes.size());
    CHECK(media["sha256"] == crypto::sha256_hex(bytes));
    // The signed parameters went with the file, which came last.
    const auto uploads = fake.calls("/pinterest/upload/");
    REQUIRE(uploads.size() == 1);
    CHECK(uploads[0]["form"]["fields"].contains("x-amz-signature"));
    CHECK(uploads[0]["form"]["files"]["file"]["bytes"] == bytes.size());
}

TEST_CASE_METHOD(PinterestAccount,
                 "Pinterest refuses a video its processing failed or over 2 GB and creates no pin",
                 "[integration][social]") {
    const auto account = target(connect());
    fs::ScratchDirectory folder("squawk-pinterest-video-");
    fake.control_platform("pinterest", "fail_processing", json::object());
    auto m = pin("A broken clip", {});
    m.video = video_file(folder, 100'000);
    const auto failed = pinterest->publish(account, m);
    REQUIRE(failed.failure);
    CHECK(failed.failure->kind == FailureKind::refused);
    CHECK(failed.failure->reason == "Pinterest could not process the video");

    // Larger than Pinterest takes: refused before anything is registered.
    fake.clear_calls();
    auto large = pin("A long clip", {});
    large.video = social::Video{"https://cdn.example/long.mp4", (folder / "none.mp4").string(),
                                "video/mp4", 2LL * 1024 * 1024 * 1024 + 1};
    const auto refused = pinterest->publish(account, large);
    REQUIRE(refused.failure);
    CHECK(refused.failure->kind == FailureKind::refused);
    CHECK(refused.failure->reason.find("at most 2048 MB") != std::string::npos);
    CHECK(fake.calls("/pinterest/v5/media").empty());
    CHECK(pins().empty());
}

TEST_CASE_METHOD(PinterestAccount, "Pinterest refuses a text-only pin before any call",
                 "[integration][social]") {
    const auto account = target(connect());
    fake.clear_calls();
    const auto p = pinterest->publish(account, pin("Just words", {}));
    REQUIRE(p.failure);
    CHECK(p.failure->kind == FailureKind::refused);
    CHECK(p.failure->reason.find("needs an image or a video") != std::string::npos);
    CHECK(fake.calls("/pinterest/").empty());
}

TEST_CASE_METHOD(PinterestAccount,
                 "Pinterest refuses a board that does not exist or is not the account's naming "
                 "board_id",
                 "[integration][social]") {
    const auto account = target(connect());
    fake.control_platform("pinterest", "user", {{"id", "42"}, {"username", "someone"}});
    const auto theirs =
        fake.control_platform("pinterest", "board", {{"user_id", "42"}, {"name", "Theirs"}});

    // A refusal of the pin's board, with Pinterest's status when given, saying `says`.
    const auto refuses_board = [](const social::Publication& p, long status,
                                  const std::string& says) {
        REQUIRE(p.failure);
        CHECK(p.failure->kind == FailureKind::refused);
        if (status != 0) CHECK(p.failure->http_status == status);
        CHECK(p.failure->field == "board_id");
        CHECK(p.failure->reason.find(says) != std::string::npos);
    };

    // A video pin reads its board before uploading anything.
    fs::ScratchDirectory folder("squawk-pinterest-video-");
    auto missing = pin("Nowhere", {});
    missing.video = video_file(folder, 1'000);
    missing.options["board_id"] = "999";
    const auto unknown = pinterest->publish(account, missing);
    refuses_board(unknown, 404, "board 999 (board_id)");
    CHECK(unknown.failure->reason.find("Board not found.") != std::string::npos);
    auto foreign_video = pin("Elsewhere", {});
    foreign_video.video = video_file(folder, 1'000);
    foreign_video.options["board_id"] = theirs["id"];
    refuses_board(pinterest->publish(account, foreign_video), 0, "belongs to someone");
    CHECK(fake.calls("/pinterest/v5/media").empty());
    CHECK(fake.calls("/pinterest/v5/pins").empty());

    // An image pin learns the same from Pinterest's refusal of the pin.
    auto nowhere = pin("Nowhere", {"https://img.example/a.jpg"});
    nowhere.options["board_id"] = "999";
    refuses_board(pinterest->publish(account, nowhere), 404, "board 999 (board_id)");
    auto other = pin("Elsewhere", {"https://img.example/a.jpg"});
    other.options["board_id"] = theirs["id"];
    refuses_board(pinterest->publish(account, other), 403, "is not the account's to pin on");

    auto none = pin("No board", {"https://img.example/a.jpg"});
    none.options = json::object();
    const auto unnamed = pinterest->publish(account, none);
    REQUIRE(unnamed.failure);
    CHECK(unnamed.failure->field == "board_id");
    CHECK(fake.calls("/pinterest/v5/pins").size() == 2);
    CHECK(pins().empty());
}

TEST_CASE_METHOD(PinterestAccount,
                 "Pinterest edits a pin's description and link and title and editing again "
                 "succeeds",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto p = pinterest->publish(account, pin("Before", {"https://img.example/a.jpg"}));
    REQUIRE_FALSE(p.failure);
    auto changed = pin("After: https://squawk.example/after", {"https://img.example/a.jpg"});
    changed.options["title"] = "Changed";
    CHECK_FALSE(pinterest->edit(account, p.message_id, changed).failure);
    CHECK_FALSE(pinterest->edit(account, p.message_id, changed).failure);
    const auto patches = fake.calls("/pinterest/v5/pins/" + p.message_id);
    REQUIRE(patches.size() == 2);
    CHECK(patches[0]["method"] == "PATCH");
    CHECK(json::parse(patches[0]["body"].get<std::string>()) ==
          json{{"description", "After: https://squawk.example/after"},
               {"link", "https://squawk.example/after"},
               {"title", "Changed"}});
    const auto stored = pins()[0];
    CHECK(stored["description"] == "After: https://squawk.example/after");
    CHECK(stored["title"] == "Changed");
    CHECK(stored["board_id"] == board_id);

    const auto gone = pinterest->edit(account, "12345", changed);
    REQUIRE(gone.failure);
    CHECK(gone.failure->kind == FailureKind::refused);
    CHECK(gone.failure->http_status == 404);
    CHECK(gone.failure->reason == "Pin not found.");
    CHECK(pinterest->edit(account, "../user_account", changed).failure);
}

TEST_CASE_METHOD(PinterestAccount, "Pinterest deletes a pin and deleting it again succeeds",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto p = pinterest->publish(account, pin("short-lived", {"https://img.example/a.jpg"}));
    REQUIRE_FALSE(p.failure);
    CHECK_FALSE(pinterest->remove(account, p.message_id).failure);
    CHECK(pins().empty());
    CHECK_FALSE(pinterest->remove(account, p.message_id).failure);
    const auto deletes = fake.calls("/pinterest/v5/pins/" + p.message_id);
    REQUIRE(deletes.size() == 2);
    CHECK(deletes[1]["method"] == "DELETE");

    fake.control_platform("pinterest", "user", {{"id", "42"}, {"username", "someone"}});
    const auto theirs_board =
        fake.control_platform("pinterest", "board", {{"user_id", "42"}, {"name", "Theirs"}});
    const auto theirs = fake.control_platform(
        "pinterest", "pin",
        {{"user_id", "42"}, {"board_id", theirs_board["id"]}, {"description", "mine"}});
    const auto forbidden = pinterest->remove(account, theirs["id"].get<std::string>());
    REQUIRE(forbidden.failure);
    CHECK(forbidden.failure->kind == FailureKind::refused);
    CHECK(forbidden.failure->http_status == 403);

    const auto bad = pinterest->remove(account, "../boards");
    REQUIRE(bad.failure);
    CHECK(bad.failure->kind == FailureKind::refused);
}

TEST_CASE_METHOD(PinterestAccount,
                 "Pinterest lists the account's recent pins newest first with those made in the "
                 "app",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto ours =
        pinterest->publish(account, pin("from Squawk", {"https://img.example/a.jpg"}));
    REQUIRE_FALSE(ours.failure);
    const auto native = fake.control_platform(
        "pinterest", "pin",
        {{"user_id", user_id}, {"board_id", board_id}, {"description", "from the app"}});
    fake.control_platform("pinterest", "user", {{"id", "42"}, {"username", "someone"}});
    const auto theirs_board =
        fake.control_platform("pinterest", "board", {{"user_id", "42"}, {"name", "Theirs"}});
    fake.control_platform(
        "pinterest", "pin",
        {{"user_id", "42"}, {"board_id", theirs_board["id"]}, {"description", "not ours"}});

    const auto listing = pinterest->list_recent(account);
    REQUIRE(listing);
    REQUIRE_FALSE(listing->failure);
    REQUIRE(listing->posts.size() == 2);
    CHECK(listing->posts[0].external_id == native["id"]);
    CHECK(listing->posts[0].text == "from the app");
    CHECK(listing->posts[0].url ==
          "https://www.pinterest.com/pin/" + native["id"].get<std::string>() + "/");
    CHECK(listing->posts[1].external_id == ours.message_id);
    CHECK(listing->posts[1].text == "from Squawk");
    CHECK(listing->posts[1].published_at.time_since_epoch().count() > 0);
    CHECK(listing->posts[0].published_at >= listing->posts[1].published_at);
    const auto calls = fake.calls("/pinterest/v5/pins");
    CHECK(query_fields(calls.back()["target"].get<std::string>()).at("page_size") == "100");
}

TEST_CASE_METHOD(PinterestAccount,
                 "Pinterest reads the account's followers and a pin's impressions and saves",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto counts = pinterest->account_metrics(account);
    REQUIRE(counts);
    REQUIRE_FALSE(counts->failure);
    CHECK(counts->metrics.followers == 1234);
    CHECK(counts->metrics.following == 56);

    const auto p = pinterest->publish(account, pin("counted", {"https://img.example/a.jpg"}));
    REQUIRE_FALSE(p.failure);
    fake.control_platform(
        "pinterest", "analytics",
        {{"pin_id", p.message_id},
         {"metrics",
          {{"IMPRESSION", 240}, {"SAVE", 20}, {"PIN_CLICK", 37}, {"OUTBOUND_CLICK", 12}}}});
    const auto reading = pinterest->post_metrics(account, p.message_id);
    REQUIRE(reading);
    REQUIRE_FALSE(reading->failure);
    CHECK(reading->metrics.impressions == 240);
    CHECK(reading->metrics.saves == 20);
    CHECK_FALSE(reading->metrics.likes);
    const auto calls = fake.calls("/pinterest/v5/pins/" + p.message_id + "/analytics");
    REQUIRE(calls.size() == 1);
    const auto query = query_fields(calls[0]["target"].get<std::string>());
    CHECK(query.at("metric_types") == "IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK");
    CHECK(query.at("end_date") == time::format_iso8601(time::now()).substr(0, 10));
    CHECK(query.at("start_date") ==
          time::format_iso8601(time::now() - std::chrono::days(89)).substr(0, 10));

    const auto missing = pinterest->post_metrics(account, "12345");
    REQUIRE(missing);
    REQUIRE(missing->failure);
    CHECK(missing->failure->http_status == 404);
}

TEST_CASE_METHOD(PinterestAccount,
                 "Pinterest failures are classified as the publish worker relies on",
                 "[integration][social]") {
    const auto account = target(connect());
    const auto photo = [&](const std::string& text) {
        return pin(text, {"https://img.example/a.jpg"});
    };

    // 429 with the window's reset in x-ratelimit-reset, or with Retry-After.
    fake.control_platform("pinterest", "rate_limit",
                          {{"method", "POST"}, {"path", "/v5/pins"}, {"reset_in", 40}});
    const auto limited = pinterest->publish(account, photo("a"));
    REQUIRE(limited.failure);
    CHECK(limited.failure->kind == FailureKind::not_accepted);
    CHECK(limited.failure->http_status == 429);
    CHECK(limited.failure->reason == "You have exceeded your rate limit. Try again later.");
    CHECK(limited.failure->retry_after == std::chrono::seconds(40));
    fake.program("/pinterest/v5/pins",
                 {{{"status", 429},
                   {"retry_after", "7"},
                   {"body", {{"code", 8}, {"message", "Too many requests"}}}}});
    const auto told = pinterest->publish(account, photo("b"));
    REQUIRE(told.failure);
    CHECK(told.failure->retry_after == std::chrono::seconds(7));

    fake.program("/pinterest/v5/pins",
                 {{{"status", 503}, {"body", {{"code", 0}, {"message", "Service unavailable"}}}},
                  {{"delay_ms", 2000}}});
    const auto unavailable = pinterest->publish(account, photo("c"));
    REQUIRE(unavailable.failure);
    CHECK(unavailable.failure->kind == FailureKind::not_accepted);
    CHECK(unavailable.failure->reason == "Service unavailable");
    // The pin went out and no answer came: it is there, and must not be sent again blindly.
    const auto slow = pinterest->publish(account, photo("d"));
    REQUIRE(slow.failure);
    CHECK(slow.failure->kind == FailureKind::unknown_outcome);
    REQUIRE(pins().size() == 1);
    CHECK(pins()[0]["description"] == "d");

    // Reading a video pin's board or registering its video publishes nothing: no answer is safe
    // to retry.
    fs::ScratchDirectory folder("squawk-pinterest-video-");
    auto boarded = pin("e", {});
    boarded.video = video_file(folder, 1'000);
    fake.program("/pinterest/v5/boards/", {{{"delay_ms", 2000}}});
    const auto board_lost = pinterest->publish(account, boarded);
    REQUIRE(board_lost.failure);
    CHECK(board_lost.failure->kind == FailureKind::not_accepted);
    auto clip = pin("f", {});
    clip.video = video_file(folder, 1'000);
    fake.program("/pinterest/v5/media", {{{"delay_ms", 2000}}});
    const auto media_lost = pinterest->publish(account, clip);
    REQUIRE(media_lost.failure);
    CHECK(media_lost.failure->kind == FailureKind::not_accepted);

    // A request Pinterest cannot take is refused in its words.
    fake.program(
        "/pinterest/v5/pins",
        {{{"status", 400}, {"body", {{"code", 1}, {"message", "Invalid media_source."}}}}});
    const auto invalid = pinterest->publish(account, photo("g"));
    REQUIRE(invalid.failure);
    CHECK(invalid.failure->kind == FailureKind::refused);
    CHECK(invalid.failure->reason == "Invalid media_source.");
    CHECK(pins().size() == 1);

    fake.revoke(account.credentials.at("access_token"));
    const auto revoked = pinterest->publish(account, photo("h"));
    REQUIRE(revoked.failure);
    CHECK(revoked.failure->kind == FailureKind::refused);
    CHECK(revoked.failure->http_status == 401);
    CHECK(revoked.failure->field == "access_token");
}
