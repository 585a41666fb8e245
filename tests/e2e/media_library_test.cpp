// The media library from the outside: uploads sniffed from their bytes (direct multipart, or an
// upload URL then confirm) and streamed to disk as they arrive, listing, ranged downloads,
// tenancy, expiry of unused upload URLs and deletion refused while a scheduled post uses the file.
#include "common/core/config/config.hpp"
#include "common/core/fs/work_files.hpp"
#include "common/core/storage/local_object_store.hpp"
#include "common/domain/media/media_service.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/media_checks.hpp"
#include "tests/support/process.hpp"
#include "tests/support/raw_connection.hpp"
#include "tests/support/settings_env.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <thread>

using namespace squawk::testing;
namespace stdfs = std::filesystem;

namespace {

constexpr const char* kBoundary = "squawk-test-boundary-7f3a";
constexpr const char* kMultipartType = "multipart/form-data; boundary=squawk-test-boundary-7f3a";

// Runs a tool that makes a test file under the stack's dir and returns the file's bytes.
std::string make_file(Stack& stack, const std::string& name, std::vector<std::string> argv) {
    const std::string path = stack.dir() + "/" + name;
    argv.push_back(path);
    const auto made = run_command(argv);
    INFO(made.err);
    REQUIRE(made.exit_code == 0);
    return squawk::fs::read_file(path).value_or("");
}

std::string mp4_2s(Stack& stack) {
    return make_file(stack, "clip.mp4",
                     {"ffmpeg", "-v",      "error",    "-y",
                      "-f",     "lavfi",   "-i",       "testsrc=size=320x240:rate=25",
                      "-f",     "lavfi",   "-i",       "sine=frequency=440",
                      "-t",     "2",       "-pix_fmt", "yuv420p",
                      "-c:v",   "libx264", "-c:a",     "aac"});
}

std::string wav_speech(Stack& stack) {
    const std::string path = stack.dir() + "/speech.wav";
    const auto made = run_command({"espeak-ng", "-w", path, "Hello from the media library."});
    REQUIRE(made.exit_code == 0);
    return squawk::fs::read_file(path).value_or("");
}

std::string form_with_file(const std::string& bytes, const std::string& filename,
                           const std::string& part_name = "file") {
    const std::string b = kBoundary;
    return "--" + b + "\r\nContent-Disposition: form-data; name=\"" + part_name +
           "\"; filename=\"" + filename + "\"\r\nContent-Type: application/octet-stream\r\n\r\n" +
           bytes + "\r\n--" + b + "--\r\n";
}

HttpResponse upload(Stack& stack, const std::string& key, const std::string& body) {
    return stack.request_raw("POST", "/v1/media/upload-direct", body, key,
                             {{"Content-Type", kMultipartType}});
}

HttpResponse upload_file(Stack& stack, const std::string& key, const std::string& bytes,
                         const std::string& filename) {
    return upload(stack, key, form_with_file(bytes, filename));
}

// A WAV of `seconds` of 16-bit mono 8 kHz noise: a valid audio file of any size.
std::string wav_noise(int seconds) {
    const uint32_t data_bytes = static_cast<uint32_t>(seconds) * 8000 * 2;
    const auto le32 = [](uint32_t v) {
        return std::string{char(v & 0xFF), char((v >> 8) & 0xFF), char((v >> 16) & 0xFF),
                           char((v >> 24) & 0xFF)};
    };
    std::string wav = "RIFF" + le32(36 + data_bytes) + "WAVEfmt " + le32(16);
    wav += std::string("\x01\x00\x01\x00", 4) + le32(8000) + le32(16000);
    wav += std::string("\x02\x00\x10\x00", 4) + "data" + le32(data_bytes);
    uint32_t x = 12345;
    wav.reserve(wav.size() + data_bytes);
    for (uint32_t i = 0; i < data_bytes; ++i) {
        x = x * 1103515245 + 12345;
        wav.push_back(static_cast<char>(x >> 16));
    }
    return wav;
}

// The head of a direct upload of a form of `length` bytes, as a client writes it.
std::string upload_head(const std::string& key, size_t length, const std::string& extra = "") {
    return "POST /v1/media/upload-direct HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + key +
           "\r\nContent-Type: multipart/form-data; boundary=" + kBoundary +
           "\r\nContent-Length: " + std::to_string(length) + "\r\n" + extra + "\r\n";
}

std::string get_me_request(const std::string& key) {
    return "GET /v1/me HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + key + "\r\n\r\n";
}

bool nothing_incoming(Stack& stack) {
    const stdfs::path incoming = stdfs::path(stack.media_dir()) / ".incoming";
    return !stdfs::exists(incoming) || stdfs::is_empty(incoming);
}

long long media_rows(Stack& stack) {
    return stack.count("SELECT COUNT(*) FROM media");
}

// Files under the media dir, recursively.
size_t stored_files(Stack& stack) {
    size_t n = 0;
    for (const auto& entry : stdfs::recursive_directory_iterator(stack.media_dir()))
        if (entry.is_regular_file()) ++n;
    return n;
}

}  // namespace

TEST_CASE("an uploaded PNG is sniffed from its bytes, measured and downloadable", "[e2e][media]") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const std::string png = png_64x48(stack);

    const auto created = upload_file(stack, key, png, "../../holiday.jpg");
    INFO(created.body);
    check_success_envelope(created, 201);
    const auto& m = created.json["data"];
    CHECK(m["kind"] == "image");
    CHECK(m["status"] == "ready");
    CHECK(m["mime_type"] == "image/png");
    CHECK(m["filename"] == "holiday.jpg");
    CHECK(m["width"] == 64);
    CHECK(m["height"] == 48);
    CHECK(m["size_bytes"] == static_cast<long long>(png.size()));
    CHECK(m["duration_seconds"].is_null());

    const auto got =
        stack.request("GET", "/v1/media/" + m["media_id"].get<std::string>(), nullptr, key);
    check_success_envelope(got, 200);
    CHECK(got.json["data"] == m);
    const auto file = stack.request("GET", stack.path_of(m["download_url"]), nullptr, key);
    REQUIRE(file.status == 200);
    CHECK(file.body == png);
    CHECK(file.header("accept-ranges") == "bytes");
    CHECK(file.header("content-type").rfind("image/png", 0) == 0);
}

TEST_CASE("uploaded audio and video report their duration and a video its dimensions",
          "[e2e][media]") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;

    const auto wav = upload_file(stack, key, wav_speech(stack), "speech.bin");
    INFO(wav.body);
    check_success_envelope(wav, 201);
    CHECK(wav.json["data"]["kind"] == "audio");
    CHECK(wav.json["data"]["mime_type"] == "audio/wav");
    CHECK(wav.json["data"]["duration_seconds"].get<double>() > 0.5);
    CHECK(wav.json["data"]["width"].is_null());

    const auto mp4 = upload_file(stack, key, mp4_2s(stack), "clip.mp4");
    INFO(mp4.body);
    check_success_envelope(mp4, 201);
    CHECK(mp4.json["data"]["kind"] == "video");
    CHECK(mp4.json["data"]["mime_type"] == "video/mp4");
    CHECK(mp4.json["data"]["width"] == 320);
    CHECK(mp4.json["data"]["height"] == 240);
    CHECK(mp4.json["data"]["duration_seconds"].get<double>() == Approx(2.0).margin(0.1));
}

TEST_CASE("files that are not accepted media are refused with nothing stored", "[e2e][media]") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const std::string mp4 = mp4_2s(stack);
    const size_t files_before = stored_files(stack);

    const auto text = upload_file(stack, key, "just some text, not a picture\n", "photo.png");
    check_error_envelope(text, 422, "VALIDATION_ERROR");
    CHECK(text.json["error"]["details"]["fields"]["file"].get<std::string>().find(
              "unsupported file type text/plain") != std::string::npos);

    const auto truncated = upload_file(stack, key, mp4.substr(0, mp4.size() / 2), "clip.mp4");
    check_error_envelope(truncated, 422, "VALIDATION_ERROR");
    CHECK(truncated.json["error"]["details"]["fields"].contains("file"));

    const auto no_file = upload(stack, key, form_with_file("abc", "a.png", "attachment"));
    check_error_envelope(no_file, 422, "VALIDATION_ERROR");
    CHECK(no_file.json["error"]["details"]["fields"].contains("file"));

    const auto not_a_form = stack.request_raw("POST", "/v1/media/upload-direct", "{}", key);
    check_error_envelope(not_a_form, 415, "UNSUPPORTED_MEDIA_TYPE");

    CHECK(media_rows(stack) == 0);
    CHECK(stored_files(stack) == files_before);
}

TEST_CASE("an upload over media.max_upload_bytes is refused with 413 in the envelope",
          "[e2e][media]") {
    const SettingsEnv env(
        std::map<std::string, std::string>{{"SQUAWK_MEDIA_MAX_UPLOAD_BYTES", "100000"}});
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const auto big = upload_file(stack, key, std::string(150000, 'x'), "big.png");
    check_error_envelope(big, 413, "PAYLOAD_TOO_LARGE");
    CHECK(media_rows(stack) == 0);
    // Uploads may exceed api.max_body_bytes (64 KiB here) up to their own limit.
    const auto fits = upload_file(stack, key, std::string(80000, 'x'), "text.png");
    check_error_envelope(fits, 422, "VALIDATION_ERROR");
}

TEST_CASE("the media list pages newest first and filters by type", "[e2e][media]") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const std::string png = png_64x48(stack);
    std::vector<std::string> images;
    for (int i = 0; i < 3; ++i) {
        const auto created = upload_file(stack, key, png, "p" + std::to_string(i) + ".png");
        check_success_envelope(created, 201);
        images.push_back(created.json["data"]["media_id"]);
    }
    const auto wav = upload_file(stack, key, wav_speech(stack), "s.wav");
    check_success_envelope(wav, 201);

    const auto first = stack.request("GET", "/v1/media?per_page=2", nullptr, key);
    check_success_envelope(first, 200);
    CHECK(first.json["pagination"]["total"] == 4);
    CHECK(first.json["pagination"]["total_pages"] == 2);
    REQUIRE(first.json["data"].size() == 2);
    CHECK(first.json["data"][0]["media_id"] == wav.json["data"]["media_id"]);
    CHECK(first.json["data"][1]["media_id"] == images[2]);

    const auto only_images =
        stack.request("GET", "/v1/media?type=image&page=2&per_page=2", nullptr, key);
    check_success_envelope(only_images, 200);
    CHECK(only_images.json["pagination"]["total"] == 3);
    REQUIRE(only_images.json["data"].size() == 1);
    CHECK(only_images.json["data"][0]["media_id"] == images[0]);

    const auto bad = stack.request("GET", "/v1/media?type=spreadsheet", nullptr, key);
    check_error_envelope(bad, 422, "VALIDATION_ERROR");
    CHECK(bad.json["error"]["details"]["fields"].contains("type"));
}

TEST_CASE("downloads serve byte ranges with 206 and refuse ranges past the end with 416",
          "[e2e][media]") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const std::string mp4 = mp4_2s(stack);
    const auto created = upload_file(stack, key, mp4, "clip.mp4");
    check_success_envelope(created, 201);
    const std::string path = stack.path_of(created.json["data"]["download_url"]);
    const std::string size = std::to_string(mp4.size());

    const auto middle = stack.request("GET", path, nullptr, key, {{"Range", "bytes=100-1099"}});
    REQUIRE(middle.status == 206);
    CHECK(middle.body == mp4.substr(100, 1000));
    CHECK(middle.header("content-range") == "bytes 100-1099/" + size);
    CHECK(middle.header("accept-ranges") == "bytes");

    const auto tail = stack.request("GET", path, nullptr, key, {{"Range", "bytes=-10"}});
    REQUIRE(tail.status == 206);
    CHECK(tail.body == mp4.substr(mp4.size() - 10));

    const auto rest = stack.request("GET", path, nullptr, key, {{"Range", "bytes=500-"}});
    REQUIRE(rest.status == 206);
    CHECK(rest.body == mp4.substr(500));

    const auto past = stack.request("GET", path, nullptr, key, {{"Range", "bytes=" + size + "-"}});
    check_error_envelope(past, 416, "RANGE_NOT_SATISFIABLE");
    CHECK(past.header("content-range") == "bytes */" + size);
    CHECK(past.header("accept-ranges") == "bytes");

    const auto ignored = stack.request("GET", path, nullptr, key, {{"Range", "bytes=1-2,5-6"}});
    REQUIRE(ignored.status == 200);
    CHECK(ignored.body == mp4);
}

TEST_CASE("an upload URL takes the bytes once, then confirm makes the media ready",
          "[e2e][media]") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const std::string png = png_64x48(stack);

    const auto issued = stack.request(
        "POST", "/v1/media/upload-url",
        {{"filename", "banner.png"}, {"content_type", "image/png"}, {"size_bytes", png.size()}},
        key);
    INFO(issued.body);
    check_success_envelope(issued, 201);
    const auto& data = issued.json["data"];
    const std::string id = data["media_id"];
    CHECK(data["method"] == "PUT");
    CHECK_FALSE(data["expires_at"].get<std::string>().empty());
    const std::string put_path = stack.path_of(data["upload_url"]);

    const auto early = stack.request("POST", "/v1/media/" + id + "/confirm", nullptr, key);
    check_error_envelope(early, 422, "NOT_UPLOADED");
    check_not_found(stack.request("GET", "/v1/media/" + id + "/download", nullptr, key));
    const auto pending = stack.request("GET", "/v1/media/" + id, nullptr, key);
    check_success_envelope(pending, 200);
    CHECK(pending.json["data"]["status"] == "pending");

    // No API key: the URL's token is the authorization.
    const auto put =
        stack.request_raw("PUT", put_path, png, "", {{"Content-Type", "application/octet-stream"}});
    INFO(put.body);
    check_success_envelope(put, 200);
    check_not_found(stack.request_raw("PUT", put_path, png, "",
                                      {{"Content-Type", "application/octet-stream"}}));

    const auto confirmed = stack.request("POST", "/v1/media/" + id + "/confirm", nullptr, key);
    INFO(confirmed.body);
    check_success_envelope(confirmed, 200);
    CHECK(confirmed.json["data"]["status"] == "ready");
    CHECK(confirmed.json["data"]["mime_type"] == "image/png");
    CHECK(confirmed.json["data"]["filename"] == "banner.png");
    CHECK(confirmed.json["data"]["width"] == 64);
    const auto again = stack.request("POST", "/v1/media/" + id + "/confirm", nullptr, key);
    check_success_envelope(again, 200);
    CHECK(again.json["data"] == confirmed.json["data"]);

    const auto file = stack.request("GET", "/v1/media/" + id + "/download", nullptr, key);
    REQUIRE(file.status == 200);
    CHECK(file.body == png);
}

TEST_CASE("upload URL requests are validated", "[e2e][media]") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const auto bad = stack.request("POST", "/v1/media/upload-url",
                                   {{"filename", "a/b.png"},
                                    {"content_type", "text/html"},
                                    {"size_bytes", 300LL * 1024 * 1024}},
                                   key);
    check_error_envelope(bad, 422, "VALIDATION_ERROR");
    const auto& fields = bad.json["error"]["details"]["fields"];
    CHECK(fields.contains("filename"));
    CHECK(fields.contains("content_type"));
    CHECK(fields.contains("size_bytes"));
    CHECK(media_rows(stack) == 0);
}

TEST_CASE("a corrupt upload is refused at confirm and the pending media is deleted",
          "[e2e][media]") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const auto issued = stack.request("POST", "/v1/media/upload-url",
                                      {{"filename", "a.mp4"}, {"content_type", "video/mp4"}}, key);
    check_success_envelope(issued, 201);
    const std::string id = issued.json["data"]["media_id"];
    const auto put = stack.request_raw("PUT", stack.path_of(issued.json["data"]["upload_url"]),
                                       "plain text pretending to be a video", "",
                                       {{"Content-Type", "video/mp4"}});
    check_success_envelope(put, 200);
    const auto confirmed = stack.request("POST", "/v1/media/" + id + "/confirm", nullptr, key);
    check_error_envelope(confirmed, 422, "VALIDATION_ERROR");
    CHECK(confirmed.json["error"]["details"]["fields"].contains("file"));
    CHECK(media_rows(stack) == 0);
    CHECK(stored_files(stack) == 0);
}

TEST_CASE("expired upload URLs are refused and swept with their files", "[e2e][media]") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const auto issued =
        stack.request("POST", "/v1/media/upload-url",
                      {{"filename", "late.png"}, {"content_type", "image/png"}}, key);
    check_success_envelope(issued, 201);
    const std::string id = issued.json["data"]["media_id"];
    stack.db().run([&](squawk::db::Session& s) {
        return s.execute(
            "UPDATE media SET upload_expires_at = NOW(6) - INTERVAL 1 MINUTE WHERE public_id = ?",
            {id});
    });
    check_not_found(stack.request_raw("PUT", stack.path_of(issued.json["data"]["upload_url"]),
                                      "bytes", "", {{"Content-Type", "image/png"}}));

    squawk::config::Config config;
    config.media.dir = stack.media_dir();
    squawk::storage::LocalObjectStore store(stack.media_dir());
    squawk::media::MediaService service(stack.db(), config, store);
    CHECK(service.sweep_expired_uploads(100) == 1);
    CHECK(media_rows(stack) == 0);
    check_not_found(stack.request("GET", "/v1/media/" + id, nullptr, key));
}

TEST_CASE("another workspace's media ids answer 404 on every media route", "[e2e][media]") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const auto created = upload_file(stack, key, png_64x48(stack), "mine.png");
    check_success_envelope(created, 201);
    const std::string id = created.json["data"]["media_id"];
    const auto issued = stack.request("POST", "/v1/media/upload-url",
                                      {{"filename", "p.png"}, {"content_type", "image/png"}}, key);
    const std::string pending_id = issued.json["data"]["media_id"];

    const auto other = stack.create_tenant("other").test_key;
    check_not_found(stack.request("GET", "/v1/media/" + id, nullptr, other));
    check_not_found(stack.request("GET", "/v1/media/" + id + "/download", nullptr, other));
    check_not_found(stack.request("DELETE", "/v1/media/" + id, nullptr, other));
    check_not_found(stack.request("POST", "/v1/media/" + pending_id + "/confirm", nullptr, other));
    const auto list = stack.request("GET", "/v1/media", nullptr, other);
    check_success_envelope(list, 200);
    CHECK(list.json["data"].empty());
    check_success_envelope(stack.request("GET", "/v1/media/" + id, nullptr, key), 200);
}

TEST_CASE("media used by a scheduled post cannot be deleted until the post is gone",
          "[e2e][media]") {
    Stack stack(api_only());
    const auto& tenant = stack.tenant();
    const auto created = upload_file(stack, tenant.test_key, png_64x48(stack), "post.png");
    check_success_envelope(created, 201);
    const std::string id = created.json["data"]["media_id"];
    const nlohmann::json urls = {created.json["data"]["download_url"]};
    const auto post_id = stack.db().run([&](squawk::db::Session& s) {
        return s.insert(
            "INSERT INTO social_posts (workspace_id, status, content, content_hash, media_urls,"
            " created_at, updated_at) VALUES (?, 'scheduled', 'hi', ?, ?, NOW(6), NOW(6))",
            {tenant.workspace_id, std::string(64, 'a'), urls.dump()});
    });

    const auto refused = stack.request("DELETE", "/v1/media/" + id, nullptr, tenant.test_key);
    check_error_envelope(refused, 409, "CONFLICT");
    CHECK(refused.json["error"]["details"]["post_ids"] == nlohmann::json::array({post_id}));

    stack.db().run([&](squawk::db::Session& s) {
        return s.execute("UPDATE social_posts SET status = 'published' WHERE id = ?", {post_id});
    });
    const auto deleted = stack.request("DELETE", "/v1/media/" + id, nullptr, tenant.test_key);
    check_success_envelope(deleted, 200);
    CHECK(media_rows(stack) == 0);
}

TEST_CASE("an upload many times the upload memory budget streams to disk and arrives intact",
          "[e2e][media]") {
    // Each upload holds a megabyte at most on its way to disk: 24 MB pass through a 2 MiB budget.
    const SettingsEnv env(
        std::map<std::string, std::string>{{"SQUAWK_MEDIA_UPLOAD_MEMORY_BUDGET_BYTES", "2097152"}});
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const std::string wav = wav_noise(1500);
    REQUIRE(wav.size() > 20'000'000);
    const auto stored = upload_file(stack, key, wav, "long.wav");
    REQUIRE(stored.status == 201);
    CHECK(stored.json["data"]["kind"] == "audio");
    CHECK(stored.json["data"]["size_bytes"] == wav.size());
    CHECK(stored.json["data"]["duration_seconds"].get<double>() == Approx(1500).epsilon(0.01));
    const auto downloaded = stack.request(
        "GET", stack.path_of(stored.json["data"]["download_url"].get<std::string>()), nullptr, key);
    CHECK(downloaded.body == wav);
    CHECK(nothing_incoming(stack));
}

TEST_CASE(
    "answers on one connection arrive whole and in order when one is larger than the socket "
    "takes at once",
    "[e2e][media]") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const std::string wav = wav_noise(1000);
    const auto stored = upload_file(stack, key, wav, "long.wav");
    REQUIRE(stored.status == 201);
    const std::string path = stack.path_of(stored.json["data"]["download_url"].get<std::string>());
    const auto get = [&](const std::string& extra) {
        return "GET " + path + " HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + key + "\r\n" +
               extra + "\r\n";
    };
    // A client with a small window that reads nothing until all four are asked: the first
    // answer fills the socket, and the server has to hold the rest of it, and what follows,
    // until the client reads.
    RawConnection connection(stack.base_url(), 64 * 1024);
    connection.send(get("Range: bytes=0-11999999\r\n") + get_me_request(key) + get("") +
                    get_me_request(key));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const auto body_of = [](const std::string& response) {
        return response.substr(response.find("\r\n\r\n") + 4);
    };
    const std::string slice = connection.read_response();
    CHECK(slice.starts_with("HTTP/1.1 206"));
    CHECK(body_of(slice) == wav.substr(0, 12'000'000));
    CHECK(connection.read_response().starts_with("HTTP/1.1 200"));
    const std::string whole = connection.read_response();
    CHECK(whole.starts_with("HTTP/1.1 200"));
    CHECK(body_of(whole) == wav);
    const std::string me = connection.read_response();
    CHECK(me.starts_with("HTTP/1.1 200"));
    CHECK(me.find("\"workspace\"") != std::string::npos);
}

TEST_CASE(
    "a declared body over the limit is answered before it is sent, and the connection "
    "goes on serving",
    "[e2e][media]") {
    const SettingsEnv env(
        std::map<std::string, std::string>{{"SQUAWK_MEDIA_MAX_UPLOAD_BYTES", "100000"}});
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    RawConnection connection(stack.base_url());
    connection.send(upload_head(key, 3'000'000));
    const std::string refused = connection.read_response();
    CHECK(refused.starts_with("HTTP/1.1 413"));
    CHECK(refused.find("PAYLOAD_TOO_LARGE") != std::string::npos);
    // A client that sends the body anyway has it read past; its next request is answered.
    connection.send(std::string(3'000'000, 'x') + get_me_request(key));
    CHECK(connection.read_response().starts_with("HTTP/1.1 200"));
    CHECK(media_rows(stack) == 0);
    CHECK(nothing_incoming(stack));
}

TEST_CASE("an upload whose body keeps arriving is received whole, however long it takes in all",
          "[e2e][media][connections]") {
    // A request must arrive within the timeout of its first byte; an upload's body only of its
    // last piece.
    const SettingsEnv env(
        std::map<std::string, std::string>{{"SQUAWK_API_REQUEST_TIMEOUT_MS", "1000"}});
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const std::string form = form_with_file(png_64x48(stack), "slow.png");
    RawConnection connection(stack.base_url());
    connection.send(upload_head(key, form.size()));
    const size_t piece = form.size() / 8 + 1;
    for (size_t at = 0; at < form.size(); at += piece) {
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
        connection.send(form.substr(at, piece));
    }
    const std::string stored = connection.read_response();
    CHECK(stored.starts_with("HTTP/1.1 201"));
    CHECK(stored.find("\"width\":64") != std::string::npos);
    CHECK(media_rows(stack) == 1);
}

TEST_CASE("a client that waits for 100 Continue is told to send, and chunked uploads are read",
          "[e2e][media]") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    const std::string form = form_with_file(png_64x48(stack), "red.png");

    RawConnection waiting(stack.base_url());
    waiting.send(upload_head(key, form.size(), "Expect: 100-continue\r\n"));
    CHECK(waiting.read_until("\r\n\r\n").starts_with("HTTP/1.1 100 Continue"));
    waiting.send(form);
    const std::string stored = waiting.read_response();
    CHECK(stored.starts_with("HTTP/1.1 201"));
    CHECK(stored.find("\"width\":64") != std::string::npos);

    RawConnection chunked(stack.base_url());
    std::string head = upload_head(key, 0);
    head.replace(head.find("Content-Length: 0"), 17, "Transfer-Encoding: chunked");
    std::string body;
    for (size_t at = 0; at < form.size(); at += 100) {
        const std::string piece = form.substr(at, 100);
        char size[16];
        std::snprintf(size, sizeof size, "%zx", piece.size());
        body += std::string(size) + "\r\n" + piece + "\r\n";
    }
    chunked.send(head + body + "0\r\n\r\n" + get_me_request(key));
    CHECK(chunked.read_response().starts_with("HTTP/1.1 201"));
    CHECK(chunked.read_response().starts_with("HTTP/1.1 200"));
    CHECK(media_rows(stack) == 2);
}

TEST_CASE("while the upload budget is taken a further upload is answered 503 with Retry-After",
          "[e2e][media]") {
    // Room for one upload's megabyte buffer and a hundred bytes more.
    const SettingsEnv env(std::map<std::string, std::string>{
        {"SQUAWK_MEDIA_UPLOAD_MEMORY_BUDGET_BYTES", std::to_string(1024 * 1024 + 100)}});
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    auto slow = std::make_unique<RawConnection>(stack.base_url());
    slow->send(upload_head(key, 5'000'000) + "--" + kBoundary);
    const std::string png = png_64x48(stack);
    // The slow upload's head may reach the server after a first try of this one.
    long long stored = 0;
    Stack::wait_until(
        [&] {
            const long status = upload_file(stack, key, png, "a.png").status;
            stored += status == 201;
            return status == 503;
        },
        std::chrono::seconds(5));
    const auto busy = upload_file(stack, key, png, "a.png");
    check_error_envelope(busy, 503, "SERVICE_UNAVAILABLE");
    CHECK(busy.header("retry-after") == "1");

    // The client that hung up halfway leaves no file behind and gives its room back.
    slow.reset();
    CHECK(Stack::wait_until([&] { return nothing_incoming(stack); }, std::chrono::seconds(5)));
    CHECK(Stack::wait_until([&] { return upload_file(stack, key, png, "a.png").status == 201; },
                            std::chrono::seconds(5)));
    CHECK(media_rows(stack) == stored + 1);
}

TEST_CASE("an upload from a caller without a known key is answered 401 before its body is sent",
          "[e2e][media]") {
    Stack stack(api_only());
    const auto& key = stack.tenant().test_key;
    std::string stranger = key;
    stranger.back() = stranger.back() == 'a' ? 'b' : 'a';
    for (const std::string& presented : {stranger, std::string()}) {
        RawConnection connection(stack.base_url());
        std::string head = upload_head(presented, 5'000'000);
        if (presented.empty())
            head.erase(head.find("Authorization"),
                       head.find("\r\nContent-Type") + 2 - head.find("Authorization"));
        connection.send(head);
        const std::string refused = connection.read_response();
        CHECK(refused.starts_with("HTTP/1.1 401"));
        CHECK(nothing_incoming(stack));
        // Its body is read past, not written; the connection goes on serving.
        connection.send(std::string(5'000'000, 'x') + get_me_request(key));
        CHECK(connection.read_response().starts_with("HTTP/1.1 200"));
    }
    CHECK(media_rows(stack) == 0);
}
