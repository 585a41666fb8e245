// The Telegram connector against the fake Bot API: verification with the platform's answers,
// publishing with the message id and link, uploads, and every failure class the publish worker
// relies on.
#include "tests/support/connector_fixture.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::testing;
using social::FailureKind;

namespace {

using Fixture = ConnectorFixture;

social::Target telegram_target(const std::string& token) {
    social::Target t;
    t.identity.external_id = "-1001234567890";
    t.identity.handle = "squawk_news";
    t.credentials = {{"bot_token", token}, {"chat", "@squawk_news"}};
    return t;
}

// A bot administering the channel @squawk_news, which the tests publish to.
struct NewsChannel : ConnectorFixture {
    NewsChannel() {
        fake.add_telegram_chat({{"id", -1001234567890LL},
                                {"type", "channel"},
                                {"title", "Squawk News"},
                                {"username", "squawk_news"}});
    }
    const std::string token = fake.add_telegram_bot(780, "news_bot");
    const social::Target target = telegram_target(token);
    std::unique_ptr<social::Connector> telegram = connector("telegram");
};

}  // namespace

TEST_CASE_METHOD(NewsChannel,
                 "the Telegram connector verifies a bot and its channel and names the chat",
                 "[integration][social]") {
    social::Credentials credentials{{"bot_token", token}, {"chat", "https://t.me/squawk_news"}};
    REQUIRE(telegram->check(credentials).empty());
    CHECK(credentials["chat"] == "@squawk_news");
    const auto v = telegram->verify(credentials);
    REQUIRE(v.identity);
    CHECK(v.identity->external_id == "-1001234567890");
    CHECK(v.identity->display_name == "Squawk News");
    CHECK(fake.calls("/getMe").size() == 1);
}

TEST_CASE("the Telegram connector refuses a bad token and an unknown chat naming the field",
          "[integration][social]") {
    Fixture f;
    const auto token = f.fake.add_telegram_bot(778, "other_bot");
    auto telegram = f.connector("telegram");
    auto bad =
        telegram->verify({{"bot_token", random_telegram_token(1)}, {"chat", "@nobody_here"}});
    REQUIRE(bad.failure);
    CHECK(bad.failure->kind == FailureKind::refused);
    CHECK(bad.failure->field == "bot_token");
    CHECK(bad.failure->reason == "Unauthorized");
    auto missing = telegram->verify({{"bot_token", token}, {"chat", "@nobody_here"}});
    REQUIRE(missing.failure);
    CHECK(missing.failure->field == "chat");
    CHECK(missing.failure->reason == "Bad Request: chat not found");
}

TEST_CASE("a Telegram bot that is not a channel administrator is refused",
          "[integration][social]") {
    Fixture f;
    const auto token = f.fake.add_telegram_bot(779, "member_bot");
    f.fake.add_telegram_chat({{"id", -1002222222222LL},
                              {"type", "channel"},
                              {"title", "Quiet"},
                              {"bot_status", "member"}});
    const auto v =
        f.connector("telegram")->verify({{"bot_token", token}, {"chat", "-1002222222222"}});
    REQUIRE(v.failure);
    CHECK(v.failure->kind == FailureKind::refused);
    CHECK(v.failure->field == "chat");
}

TEST_CASE_METHOD(NewsChannel,
                 "Telegram publishes text, a photo and an album with the message id and link",
                 "[integration][social]") {
    const auto text = telegram->publish(target, message("hello", {}));
    REQUIRE_FALSE(text.failure);
    CHECK(text.url == "https://t.me/squawk_news/" + text.message_id);
    const auto photo = telegram->publish(target, message("look", {"https://img.example/a.png"}));
    REQUIRE_FALSE(photo.failure);
    const auto album = telegram->publish(
        target, message("album", {"https://img.example/a.png", "https://img.example/b.png"}));
    REQUIRE_FALSE(album.failure);
    CHECK(fake.calls("/sendMessage").size() == 1);
    CHECK(fake.calls("/sendPhoto").size() == 1);
    const auto group = fake.calls("/sendMediaGroup");
    REQUIRE(group.size() == 1);
    const auto sent = nlohmann::json::parse(group[0]["body"].get<std::string>());
    CHECK(sent["media"].size() == 2);
    CHECK(sent["media"][0]["caption"] == "album");
}

TEST_CASE_METHOD(
    NewsChannel,
    "Telegram sends images as documents when the message says so, alone or as an album",
    "[integration][social]") {
    auto one = message("moving", {"https://img.example/cat.gif"});
    one.images_as_documents = true;
    const auto single = telegram->publish(target, one);
    REQUIRE_FALSE(single.failure);
    auto two = message("files", {"https://img.example/a.gif", "https://img.example/b.gif"});
    two.images_as_documents = true;
    const auto album = telegram->publish(target, two);
    REQUIRE_FALSE(album.failure);
    CHECK(album.message_id.find(',') != std::string::npos);

    CHECK(fake.calls("/sendPhoto").empty());
    const auto document = fake.calls("/sendDocument");
    REQUIRE(document.size() == 1);
    const auto sent = nlohmann::json::parse(document[0]["body"].get<std::string>());
    CHECK(sent["document"] == "https://img.example/cat.gif");
    CHECK(sent["caption"] == "moving");
    CHECK_FALSE(sent.contains("photo"));
    const auto group = fake.calls("/sendMediaGroup");
    REQUIRE(group.size() == 1);
    const auto media = nlohmann::json::parse(group[0]["body"].get<std::string>())["media"];
    REQUIRE(media.size() == 2);
    CHECK(media[0]["type"] == "document");
    CHECK(media[1]["type"] == "document");
    CHECK(media[0]["caption"] == "files");

    // A document's text is its caption: editing goes through editMessageCaption.
    const auto edited = telegram->edit(target, single.message_id,
                                       message("still moving", {"https://img.example/cat.gif"}));
    CHECK_FALSE(edited.failure);
    CHECK(fake.calls("/editMessageCaption").size() == 1);
}

TEST_CASE_METHOD(
    NewsChannel,
    "Telegram uploads images as multipart/form-data: a photo in its own part, an album's files "
    "attached by name next to images by URL",
    "[integration][social]") {
    auto photo = message("Big poster", {"https://img.example/poster.png"});
    photo.uploads.push_back(social::Upload{"poster.png", "image/png", std::string(7'000'000, 'p')});
    const auto single = telegram->publish(target, photo);
    REQUIRE_FALSE(single.failure);
    const auto photos = fake.calls("/sendPhoto");
    REQUIRE(photos.size() == 1);
    CHECK(photos[0]["headers"]["content-type"].get<std::string>().starts_with(
        "multipart/form-data; boundary="));
    const auto form = photos[0]["form"];
    CHECK(form["fields"]["chat_id"] == "-1001234567890");
    CHECK(form["fields"]["caption"] == "Big poster");
    CHECK_FALSE(form["fields"].contains("photo"));
    CHECK(form["files"]["photo"]["filename"] == "poster.png");
    CHECK(form["files"]["photo"]["content_type"] == "image/png");
    CHECK(form["files"]["photo"]["bytes"] == 7'000'000);

    auto album = message("Album", {"https://img.example/a.jpg", "https://img.example/b.png"});
    album.uploads = {std::nullopt,
                     social::Upload{"b.png", "image/png", std::string(8'000'000, 'b')}};
    const auto sent = telegram->publish(target, album);
    REQUIRE_FALSE(sent.failure);
    CHECK(sent.message_id.find(',') != std::string::npos);
    const auto groups = fake.calls("/sendMediaGroup");
    REQUIRE(groups.size() == 1);
    const auto media =
        nlohmann::json::parse(groups[0]["form"]["fields"]["media"].get<std::string>());
    REQUIRE(media.size() == 2);
    CHECK(media[0]["media"] == "https://img.example/a.jpg");
    CHECK(media[0]["caption"] == "Album");
    CHECK(media[1]["type"] == "photo");
    CHECK(media[1]["media"] == "attach://file1");
    CHECK(groups[0]["form"]["files"]["file1"]["bytes"] == 8'000'000);
    CHECK(groups[0]["form"]["files"].size() == 1);
}

TEST_CASE_METHOD(
    NewsChannel,
    "the fake Telegram holds the Bot API's file limits: photos by URL to 5 MB, uploaded to 10 "
    "MB, documents by URL only GIF, PDF or ZIP",
    "[integration][social]") {
    const auto by_url =
        telegram->publish(target, message("", {fake.media_url("big.png", "image/png", 7'000'000)}));
    REQUIRE(by_url.failure);
    CHECK(by_url.failure->kind == FailureKind::refused);
    CHECK(by_url.failure->reason == "Bad Request: wrong file identifier/HTTP URL specified");

    auto too_big = message("", {"https://img.example/huge.png"});
    too_big.uploads.push_back(
        social::Upload{"huge.png", "image/png", std::string(10'000'001, 'h')});
    const auto upload = telegram->publish(target, too_big);
    REQUIRE(upload.failure);
    CHECK(upload.failure->kind == FailureKind::refused);

    auto png_document = message("", {"https://img.example/a.png"});
    png_document.images_as_documents = true;
    const auto document = telegram->publish(target, png_document);
    REQUIRE(document.failure);
    CHECK(document.failure->reason == "Bad Request: wrong type of the web page content");

    too_big.images_as_documents = true;
    CHECK_FALSE(telegram->publish(target, too_big).failure);
}

TEST_CASE_METHOD(
    NewsChannel,
    "Telegram failures are classified: 429 with retry_after and 5xx are not accepted, a "
    "timeout after sending is unknown, a refusal is permanent, a closed port is not accepted",
    "[integration][social]") {
    fake.program("/sendMessage",
                 {{{"status", 429},
                   {"body",
                    {{"ok", false},
                     {"error_code", 429},
                     {"description", "Too Many Requests: retry after 7"},
                     {"parameters", {{"retry_after", 7}}}}}},
                  {{"status", 502},
                   {"body", {{"ok", false}, {"error_code", 502}, {"description", "Bad Gateway"}}}},
                  {{"delay_ms", 2000}},
                  {{"status", 400},
                   {"body",
                    {{"ok", false},
                     {"error_code", 400},
                     {"description", "Bad Request: message is too long"}}}}});
    const auto limited = telegram->publish(target, message("a", {}));
    REQUIRE(limited.failure);
    CHECK(limited.failure->kind == FailureKind::not_accepted);
    CHECK(limited.failure->retry_after == std::chrono::seconds(7));
    const auto upstream = telegram->publish(target, message("b", {}));
    REQUIRE(upstream.failure);
    CHECK(upstream.failure->kind == FailureKind::not_accepted);
    const auto slow = telegram->publish(target, message("c", {}));
    REQUIRE(slow.failure);
    CHECK(slow.failure->kind == FailureKind::unknown_outcome);
    const auto refused = telegram->publish(target, message("d", {}));
    REQUIRE(refused.failure);
    CHECK(refused.failure->kind == FailureKind::refused);

    config::SocialSettings closed = settings;
    closed.platforms["telegram"].api_base_url = "http://127.0.0.1:1/telegram";
    const auto down =
        social::make_connector("telegram", closed, http)->publish(target, message("e", {}));
    REQUIRE(down.failure);
    CHECK(down.failure->kind == FailureKind::not_accepted);
}
