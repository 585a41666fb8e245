// Images from the outside: cards rendered from templates into real PNG and JPEG files of the size
// asked, read back, listed, deleted, refused with the fields named, never charged for refused
// input, refunded when deleted before their job ran; and the caption styles of shorts.
#include "tests/support/api_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace squawk::testing;

namespace {

struct Size {
    long width = 0;
    long height = 0;
};

long big_endian(const std::string& bytes, size_t at, int length) {
    long v = 0;
    for (int i = 0; i < length; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
    return v;
}

// The dimensions a PNG's IHDR or a JPEG's start-of-frame gives; zero when the bytes are neither.
Size image_size(const std::string& bytes) {
    if (bytes.size() > 24 && bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0 &&
        bytes.compare(12, 4, "IHDR") == 0)
        return {big_endian(bytes, 16, 4), big_endian(bytes, 20, 4)};
    if (bytes.size() > 4 && bytes.compare(0, 2, "\xFF\xD8") == 0) {
        for (size_t at = 2; at + 9 < bytes.size();) {
            if (static_cast<unsigned char>(bytes[at]) != 0xFF) return {};
            const auto marker = static_cast<unsigned char>(bytes[at + 1]);
            if (marker == 0xC0 || marker == 0xC2)
                return {big_endian(bytes, at + 7, 2), big_endian(bytes, at + 5, 2)};
            at += 2 + static_cast<size_t>(big_endian(bytes, at + 2, 2));
        }
    }
    return {};
}

}  // namespace

TEST_CASE("a quote card is rendered as a PNG of the size asked, read back by id and downloaded",
          "[e2e][images]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto image = completed_creation(
        stack, key, "images",
        {{"template", "quote"}, {"text", "Ship it."}, {"size", "1080x1080"}, {"format", "png"}});
    CHECK(image.value("id", "").rfind("img_", 0) == 0);
    CHECK(image.value("kind", "") == "image");
    CHECK(image.value("status", "") == "completed");
    CHECK(image.value("width", 0) == 1080);
    CHECK(image.value("height", 0) == 1080);
    CHECK(image.value("provider", "") == "cards");
    CHECK(image["request"].value("text", "") == "Ship it.");
    REQUIRE(image["media"].size() == 1);
    CHECK(image["media"][0].value("mime_type", "") == "image/png");
    const auto bytes = downloaded_media(stack, key, image.value("media_id", ""));
    const auto size = image_size(bytes);
    CHECK(size.width == 1080);
    CHECK(size.height == 1080);
}

TEST_CASE("a list card in a story size comes out as a JPEG of that size", "[e2e][images]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto image = completed_creation(stack, key, "images",
                                          {{"template", "list"},
                                           {"title", "Release notes"},
                                           {"items", {"Faster queues", "Fewer copies"}},
                                           {"size", "1080x1920"},
                                           {"format", "jpeg"},
                                           {"background", {"#0f2027", "#2c5364"}}});
    CHECK(image["media"][0].value("mime_type", "") == "image/jpeg");
    const auto size = image_size(downloaded_media(stack, key, image.value("media_id", "")));
    CHECK(size.width == 1080);
    CHECK(size.height == 1920);
}

TEST_CASE("image requests that cannot be made are refused with the fields named and not charged",
          "[e2e][images]") {
    StackOptions options = without_worker();
    options.extra_config = "[billing]\nmonthly_allowance = 0\n\n[billing.prices]\nimage = 0.5\n";
    Stack stack(options);
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "2");
    const auto& key = tenant.live_key;

    const auto missing =
        stack.request("POST", "/v1/images/generate", {{"template", "stat"}, {"value", "42%"}}, key);
    check_error_envelope(missing, 422, "VALIDATION_ERROR");
    CHECK(missing.json["error"]["details"]["fields"].contains("label"));

    const auto bad = stack.request(
        "POST", "/v1/images/generate",
        {{"template", "quote"}, {"text", "x"}, {"size", "100x100"}, {"background", "red"}}, key);
    check_error_envelope(bad, 422, "VALIDATION_ERROR");
    CHECK(bad.json["error"]["details"]["fields"].contains("size"));

    const auto unknown =
        stack.request("POST", "/v1/images/generate", {{"template", "poster"}, {"text", "x"}}, key);
    check_error_envelope(unknown, 422, "VALIDATION_ERROR");
    CHECK(unknown.json["error"]["details"]["fields"].contains("template"));

    const auto both = stack.request("POST", "/v1/images/generate",
                                    {{"template", "quote"}, {"text", "x"}, {"prompt", "y"}}, key);
    check_error_envelope(both, 422, "VALIDATION_ERROR");

    const auto extra = stack.request("POST", "/v1/images/generate",
                                     {{"template", "quote"}, {"text", "x"}, {"colour", "x"}}, key);
    check_error_envelope(extra, 422, "VALIDATION_ERROR");
    CHECK(extra.json["error"]["details"]["fields"].contains("colour"));

    const auto prompt =
        stack.request("POST", "/v1/images/generate", {{"prompt", "a lighthouse at dawn"}}, key);
    check_error_envelope(prompt, 422, "MODEL_NOT_AVAILABLE");
    CHECK(prompt.json["error"]["details"].value("setting", "") == "generation.image");

    CHECK(balance_total(stack, key) == "2.0000");
    CHECK(stack.count("SELECT COUNT(*) FROM creations") == 0);
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 0);
}

TEST_CASE("a card whose text breaks the content policy is refused and not charged",
          "[e2e][images]") {
    StackOptions options = without_worker();
    options.extra_config =
        "[billing]\nmonthly_allowance = 0\n\n[billing.prices]\nimage = 0.5\n\n"
        "[content_policy]\nblocked_words = \"casino, jackpot\"\n";
    Stack stack(options);
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "1");
    const auto refused = stack.request(
        "POST", "/v1/images/generate",
        {{"template", "list"}, {"items", {"Fine", "Win the JACKPOT"}}}, tenant.live_key);
    check_error_envelope(refused, 422, "CONTENT_POLICY_VIOLATION");
    CHECK(refused.json["error"]["details"].value("field", "") == "items[1]");
    CHECK(balance_total(stack, tenant.live_key) == "1.0000");
    CHECK(stack.count("SELECT COUNT(*) FROM jobs") == 0);
}

TEST_CASE("a live key pays for an image once and gets it back when the image is deleted unmade",
          "[e2e][images]") {
    StackOptions options = without_worker();
    options.extra_config = "[billing]\nmonthly_allowance = 0\n\n[billing.prices]\nimage = 0.5\n";
    Stack stack(options);
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "1");
    const auto r = stack.request("POST", "/v1/images/generate",
                                 {{"template", "title"}, {"title", "Launch day"}}, tenant.live_key);
    check_success_envelope(r, 202);
    CHECK(r.json["usage"]["cost"] == "0.5000");
    CHECK(balance_total(stack, tenant.live_key) == "0.5000");
    const std::string id = r.json["data"].value("id", "");
    const auto pending = stack.request("GET", "/v1/images/" + id, nullptr, tenant.live_key);
    check_success_envelope(pending, 200);
    CHECK(pending.json["data"].value("status", "") == "queued");

    check_success_envelope(stack.request("DELETE", "/v1/images/" + id, nullptr, tenant.live_key),
                           200);
    CHECK(balance_total(stack, tenant.live_key) == "1.0000");
    const auto job = stack.request("GET", "/v1/jobs/" + r.json["data"].value("job_id", ""), nullptr,
                                   tenant.live_key);
    CHECK(job.json["data"].value("status", "") == "cancelled");
    check_not_found(stack.request("GET", "/v1/images/" + id, nullptr, tenant.live_key));
}

TEST_CASE("images are listed newest first, stay in their workspace, and a delete removes the file",
          "[e2e][images]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto first =
        completed_creation(stack, key, "images", {{"template", "title"}, {"title", "One"}});
    const auto second = completed_creation(
        stack, key, "images", {{"template", "stat"}, {"value", "99%"}, {"label", "Up"}});

    const auto list = stack.request("GET", "/v1/images?per_page=1", nullptr, key);
    check_success_envelope(list, 200);
    REQUIRE(list.json["data"].size() == 1);
    CHECK(list.json["data"][0].value("id", "") == second.value("id", ""));
    CHECK(list.json["pagination"].value("total", 0) == 2);

    const auto other = stack.create_tenant("other");
    const std::string id = first.value("id", "");
    check_not_found(stack.request("GET", "/v1/images/" + id, nullptr, other.test_key));
    check_not_found(stack.request("DELETE", "/v1/images/" + id, nullptr, other.test_key));
    const auto their_list = stack.request("GET", "/v1/images", nullptr, other.test_key);
    CHECK(their_list.json["pagination"].value("total", -1) == 0);

    const auto stored = stack.db().run([&](squawk::db::Session& s) {
        return s.query_one("SELECT storage_path FROM media WHERE public_id = ?",
                           {first.value("media_id", "")});
    });
    REQUIRE(stored);
    const auto file = std::filesystem::path(stack.media_dir()) / stored->text(0);
    REQUIRE(std::filesystem::exists(file));
    check_success_envelope(stack.request("DELETE", "/v1/images/" + id, nullptr, key), 200);
    CHECK_FALSE(std::filesystem::exists(file));
    check_not_found(stack.request("GET", "/v1/images/" + id, nullptr, key));
    check_not_found(stack.request("GET", "/v1/media/" + first.value("media_id", "") + "/download",
                                  nullptr, key));
}

TEST_CASE("the caption styles of shorts list spec 2.4's fields and need videos:read",
          "[e2e][shorts]") {
    Stack stack(api_only());
    const auto r =
        stack.request("GET", "/v1/shorts/caption-styles", nullptr, stack.tenant().test_key);
    check_success_envelope(r, 200);
    const auto& data = r.json["data"];
    std::vector<std::string> ids;
    for (const auto& style : data["caption_styles"]) {
        CHECK(style["id"].is_string());
        CHECK(style["label"].is_string());
        CHECK(style["font"].is_string());
        CHECK(style["light_bold"].is_boolean());
        ids.push_back(style.value("id", ""));
    }
    for (const auto* id : {"karaoke", "beasty", "word-pop", "light-bold"})
        CHECK(std::find(ids.begin(), ids.end(), id) != ids.end());
    CHECK(data["caption_format"].size() > 0);
    CHECK(data["clip_lengths"].size() > 0);
    CHECK(data["genres"].size() > 0);

    const auto narrow = stack.create_key(stack.tenant().workspace_id, "test", "audio:read");
    const auto refused = stack.request("GET", "/v1/shorts/caption-styles", nullptr, narrow);
    check_error_envelope(refused, 403, "INSUFFICIENT_SCOPE");
    CHECK(refused.json["error"]["details"].value("required_scope", "") == "videos:read");
}
