// Videos from the outside: narrated slideshows composed into real H.264/AAC MP4 files of the size
// asked and as long as their narrations, read back, listed, deleted, refused with the fields
// named and not charged, kept in their workspace, and cancelled mid-render without leftovers.
#include "common/core/fs/work_files.hpp"
#include "common/domain/generation/wav_info.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/media_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <signal.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace squawk::testing;

namespace {

namespace stdfs = std::filesystem;

// The job's pause after each narration (workers/generate/video_composition.hpp).
constexpr double kScenePadSeconds = 0.3;

// How long espeak-ng speaks `text` in its default voice, measured from the WAV it writes.
double narration_seconds(const Stack& stack, const std::string& text) {
    const auto wav = stdfs::path(stack.dir()) / "expected-narration.wav";
    output_of("espeak-ng -w '" + wav.string() + "' '" + text + "'");
    const auto info = squawk::generation::parse_wav(squawk::fs::read_file(wav).value_or(""));
    REQUIRE(info);
    return info->duration_seconds;
}

nlohmann::json submit_video(Stack& stack, const std::string& key, const nlohmann::json& body) {
    const auto r = stack.request("POST", "/v1/videos/generate", body, key);
    check_success_envelope(r, 202);
    return r.json["data"];
}

// The media id a completed job's result names.
std::string made_media(Stack& stack, const std::string& key, const std::string& path,
                       const nlohmann::json& body) {
    const auto r = stack.request("POST", path, body, key);
    check_success_envelope(r, 202);
    const auto job = wait_for_terminal_job(stack, key, r.json["data"].value("job_id", ""));
    REQUIRE(job);
    REQUIRE(job->value("status", "") == "completed");
    return (*job)["result"].value("media_id", "");
}

std::vector<stdfs::path> work_directories_of_job(const std::string& job_id) {
    std::vector<stdfs::path> found;
    for (const auto& entry : stdfs::directory_iterator(stdfs::temp_directory_path()))
        if (entry.path().filename().string().rfind("squawk-video-" + job_id, 0) == 0)
            found.push_back(entry.path());
    return found;
}

}  // namespace

TEST_CASE(
    "a video of two narrated scenes is a story-sized H.264 and AAC MP4 as long as its narration",
    "[e2e][videos]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto video =
        completed_creation(stack, key, "videos",
                           {{"scenes", {{{"text", "First scene."}}, {{"text", "Second scene."}}}},
                            {"size", "1080x1920"}});
    CHECK(video.value("id", "").rfind("vid_", 0) == 0);
    CHECK(video.value("kind", "") == "video");
    CHECK(video.value("progress", 0) == 100);
    CHECK(video.value("width", 0) == 1080);
    CHECK(video.value("height", 0) == 1920);
    CHECK(video.value("scenes", 0) == 2);
    CHECK(video.value("provider", "") == "ffmpeg");
    CHECK(video.value("voice", "") == "en");
    REQUIRE(video["media"].size() == 1);
    CHECK(video["media"][0].value("mime_type", "") == "video/mp4");
    CHECK(video["media"][0].value("kind", "") == "video");

    const auto probed = probe_media(
        stack, downloaded_media(stack, key, video.value("media_id", "")), "downloaded.mp4");
    INFO(probed.dump());
    const auto* picture = stream_of(probed, "video");
    const auto* sound = stream_of(probed, "audio");
    REQUIRE(picture);
    REQUIRE(sound);
    CHECK(picture->value("codec_name", "") == "h264");
    CHECK(picture->value("pix_fmt", "") == "yuv420p");
    CHECK(picture->value("width", 0) == 1080);
    CHECK(picture->value("height", 0) == 1920);
    CHECK(sound->value("codec_name", "") == "aac");

    const double narrations =
        narration_seconds(stack, "First scene.") + narration_seconds(stack, "Second scene.");
    const double expected = narrations + 2 * kScenePadSeconds;
    const double duration = std::stod(probed["format"].value("duration", "0"));
    CHECK(duration == Approx(expected).epsilon(0.05));
    CHECK(video.value("duration_seconds", 0.0) == Approx(duration).epsilon(0.01));
    double planned = 0;
    for (const auto& seconds : video["scene_durations"]) planned += seconds.get<double>();
    CHECK(planned == Approx(duration).epsilon(0.05));
}

TEST_CASE("a scene shows the workspace's own image, scaled and cropped to a square video",
          "[e2e][videos]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto image =
        made_media(stack, key, "/v1/images/generate",
                   {{"template", "title"}, {"title", "Cover"}, {"size", "1600x900"}});
    const auto video = completed_creation(
        stack, key, "videos",
        {{"title", "Square"},
         {"size", "1080x1080"},
         {"scenes", {{{"text", "Our own picture."}, {"image_media_id", image}}}}});
    const auto probed = probe_media(
        stack, downloaded_media(stack, key, video.value("media_id", "")), "downloaded.mp4");
    const auto* picture = stream_of(probed, "video");
    REQUIRE(picture);
    CHECK(picture->value("width", 0) == 1080);
    CHECK(picture->value("height", 0) == 1080);
    CHECK(video["request"]["scenes"][0].value("image_media_id", "") == image);
}

TEST_CASE("video requests that cannot be made are refused with the fields named and not charged",
          "[e2e][videos]") {
    StackOptions options;
    options.extra_config = "[billing]\nmonthly_allowance = 0\n\n[billing.prices]\nvideo = 0.5\n";
    Stack stack(options);
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "2");
    const auto& key = tenant.live_key;
    const auto other = stack.create_tenant("other");
    const auto theirs = made_media(stack, other.test_key, "/v1/images/generate",
                                   {{"template", "title"}, {"title", "Theirs"}});
    const auto sound = made_media(stack, tenant.test_key, "/v1/audio/text-to-speech",
                                  {{"text", "Not a picture."}});

    const auto refused = [&](const nlohmann::json& body, const std::string& field) {
        const auto r = stack.request("POST", "/v1/videos/generate", body, key);
        check_error_envelope(r, 422, "VALIDATION_ERROR");
        INFO(r.body);
        CHECK(r.json["error"]["details"]["fields"].contains(field));
    };
    refused(nlohmann::json::object(), "scenes");
    refused({{"scenes", nlohmann::json::array()}}, "scenes");
    nlohmann::json many = nlohmann::json::array();
    for (int i = 0; i < 21; ++i) many.push_back({{"text", "Scene."}});
    refused({{"scenes", many}}, "scenes");
    refused({{"scenes", {{{"text", ""}}}}}, "scenes[0].text");
    refused({{"scenes", {{{"text", std::string(501, 'a')}}}}}, "scenes[0].text");
    refused({{"scenes", {{{"text", "x"}}}}, {"size", "1600x900"}}, "size");
    refused({{"scenes", {{{"text", "x"}}}}, {"voice", "klingon"}}, "voice");
    refused({{"scenes", {{{"text", "x"}}}}, {"music", "loud"}}, "music");
    refused({{"scenes", {{{"text", "x"}, {"duration", 3}}}}}, "scenes[0].duration");
    refused({{"scenes", {"just text"}}}, "scenes[0]");
    refused({{"scenes", {{{"text", "x"}, {"image_media_id", theirs}}}}},
            "scenes[0].image_media_id");
    refused({{"scenes", {{{"text", "x"}, {"image_media_id", sound}}}}}, "scenes[0].image_media_id");

    CHECK(balance_total(stack, key) == "2.0000");
    CHECK(stack.count("SELECT COUNT(*) FROM creations WHERE kind = 'video'") == 0);
    CHECK(stack.count("SELECT COUNT(*) FROM jobs WHERE type = 'videos.generate'") == 0);
}

TEST_CASE("videos are listed, stay in their workspace, and a delete removes the file",
          "[e2e][videos]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto video =
        completed_creation(stack, key, "videos", {{"scenes", {{{"text", "Short one."}}}}});
    const auto probed = probe_media(
        stack, downloaded_media(stack, key, video.value("media_id", "")), "downloaded.mp4");
    const auto* picture = stream_of(probed, "video");
    REQUIRE(picture);
    CHECK(picture->value("width", 0) == 1920);
    CHECK(picture->value("height", 0) == 1080);

    const auto list = stack.request("GET", "/v1/videos", nullptr, key);
    check_success_envelope(list, 200);
    REQUIRE(list.json["data"].size() == 1);
    CHECK(list.json["data"][0].value("id", "") == video.value("id", ""));

    const auto other = stack.create_tenant("other");
    const std::string id = video.value("id", "");
    check_not_found(stack.request("GET", "/v1/videos/" + id, nullptr, other.test_key));
    check_not_found(stack.request("DELETE", "/v1/videos/" + id, nullptr, other.test_key));
    CHECK(stack.request("GET", "/v1/videos", nullptr, other.test_key)
              .json["pagination"]
              .value("total", -1) == 0);

    const auto stored = stack.db().run([&](squawk::db::Session& s) {
        return s.query_one("SELECT storage_path FROM media WHERE public_id = ?",
                           {video.value("media_id", "")});
    });
    REQUIRE(stored);
    const auto file = stdfs::path(stack.media_dir()) / stored->text(0);
    REQUIRE(stdfs::exists(file));
    check_success_envelope(stack.request("DELETE", "/v1/videos/" + id, nullptr, key), 200);
    CHECK_FALSE(stdfs::exists(file));
    check_not_found(stack.request("GET", "/v1/videos/" + id, nullptr, key));
}

TEST_CASE("a worker killed mid-render makes the video once, with no partial file left",
          "[e2e][videos][crash]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    nlohmann::json scenes = nlohmann::json::array();
    for (int i = 0; i < 6; ++i)
        scenes.push_back(
            {{"text", "Scene " + std::to_string(i) +
                          " takes a few seconds to say out loud, slowly and clearly."}});
    const auto accepted = submit_video(stack, key, {{"scenes", scenes}});
    const std::string job_id = accepted.value("job_id", "");
    REQUIRE(Stack::wait_until(
        [&] {
            const auto job = stack.request("GET", "/v1/jobs/" + job_id, nullptr, key);
            return job.json["data"].value("progress", 0) >= 40;
        },
        std::chrono::seconds(60), std::chrono::milliseconds(20)));
    stack.kill(Process::worker, SIGKILL);
    stack.start(Process::worker);

    const auto job = wait_for_terminal_job(stack, key, job_id, std::chrono::seconds(120));
    REQUIRE(job);
    INFO(job->dump());
    REQUIRE(job->value("status", "") == "completed");
    CHECK(job->value("attempts", 0) == 2);
    CHECK(stack.count("SELECT COUNT(*) FROM media") == 1);
    const auto video =
        stack.request("GET", "/v1/videos/" + accepted.value("id", ""), nullptr, key).json["data"];
    const auto probed = probe_media(
        stack, downloaded_media(stack, key, video.value("media_id", "")), "downloaded.mp4");
    CHECK(std::stod(probed["format"].value("duration", "0")) > 5.0);
    // Only the finished file is left of the job: the killed attempt's partial file is gone.
    const auto files = files_of_job(stack, job_id);
    REQUIRE(files.size() == 1);
    CHECK(files[0].extension() == ".mp4");
}

TEST_CASE("cancelling a video mid-render stops it within seconds and leaves no media behind",
          "[e2e][videos]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    std::string long_text;
    while (long_text.size() < 450) long_text += "A long sentence that keeps the narrator busy. ";
    nlohmann::json scenes = nlohmann::json::array();
    for (int i = 0; i < 10; ++i) scenes.push_back({{"text", long_text}});
    const auto accepted = submit_video(stack, key, {{"scenes", scenes}});
    const std::string job_id = accepted.value("job_id", "");

    // Past the pictures (the last one drawn is 40 % too), ffmpeg is composing minutes of video.
    REQUIRE(Stack::wait_until(
        [&] {
            const auto job = stack.request("GET", "/v1/jobs/" + job_id, nullptr, key);
            // A queued job's stage is null.
            return job.json["data"]["stage"] == "composing";
        },
        std::chrono::seconds(60), std::chrono::milliseconds(100)));
    CHECK(stack.request("GET", "/v1/jobs/" + job_id, nullptr, key)
              .json["data"]
              .value("progress", 0) >= 40);
    const auto cancelled_at = std::chrono::steady_clock::now();
    const auto cancel = stack.request("POST", "/v1/jobs/" + job_id + "/cancel", nullptr, key);
    check_success_envelope(cancel, 200);
    CHECK(cancel.json["data"].value("status", "") == "cancelled");

    // ffmpeg (whose command line names the job's files) is killed and every file removed.
    CHECK(Stack::wait_until(
        [&] {
            return !process_naming(job_id) && files_of_job(stack, job_id).empty() &&
                   work_directories_of_job(job_id).empty();
        },
        std::chrono::seconds(5)));
    CHECK(std::chrono::steady_clock::now() - cancelled_at < std::chrono::seconds(5));
    const auto job = stack.request("GET", "/v1/jobs/" + job_id, nullptr, key);
    CHECK(job.json["data"].value("status", "") == "cancelled");
    CHECK(stack.count("SELECT COUNT(*) FROM media") == 0);
    CHECK(files_of_job(stack, job_id).empty());
    CHECK(work_directories_of_job(job_id).empty());
}
