// Shorts from the outside: a spoken video uploaded to the media library is transcribed, cut at a
// pause and rendered as a 1080x1920 H.264/AAC clip whose captions show while words are spoken and
// not in the pauses; refused with the fields named and not charged; cancelled mid-render without
// leftovers; made once when the worker dies mid-render.
#include "common/core/fs/work_files.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/media_checks.hpp"
#include "tests/support/process.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

#include <signal.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

using namespace squawk::testing;

namespace {

namespace stdfs = std::filesystem;

// The lower third of the 1080x1920 frame, where the captions sit.
constexpr int kRegionTop = 1280;
constexpr int kRegionHeight = 640;
// A grey level this far from another counts as a different pixel (compression noise is smaller).
constexpr int kPixelDifference = 48;

void run_ok(const std::vector<std::string>& argv) {
    const auto made = run_command(argv, std::chrono::seconds(120));
    INFO(made.err);
    REQUIRE(made.exit_code == 0);
}

// A landscape MP4 of a plain picture and espeak-ng reading `parts` numbered sentences, each
// followed by a 1.5 s pause: about 5.8 s a part.
std::string spoken_video(const Stack& stack, int parts) {
    std::string ssml = "<speak>";
    for (int i = 1; i <= parts; ++i)
        ssml += "Part " + std::to_string(i) +
                ". The quick brown fox jumps over the lazy dog near the river bank. "
                "<break time=\"1500ms\"/>";
    ssml += "</speak>";
    const std::string wav = stack.dir() + "/speech.wav";
    const std::string mp4 = stack.dir() + "/spoken.mp4";
    run_ok({"espeak-ng", "-m", "-w", wav, ssml});
    run_ok({"ffmpeg",  "-v",      "error",     "-y",
            "-f",      "lavfi",   "-i",        "color=c=0x305070:s=640x360:r=25",
            "-i",      wav,       "-shortest", "-c:v",
            "libx264", "-preset", "ultrafast", "-pix_fmt",
            "yuv420p", "-c:a",    "aac",       mp4});
    return squawk::fs::read_file(mp4).value_or("");
}

nlohmann::json submit_short(Stack& stack, const std::string& key, const nlohmann::json& body) {
    const auto r = stack.request("POST", "/v1/shorts/generate", body, key);
    INFO(r.body);
    check_success_envelope(r, 202);
    return r.json["data"];
}

// The grey levels of the caption region of the frame at `seconds`.
std::string caption_region(const Stack& stack, const stdfs::path& mp4, double seconds) {
    const auto raw = stdfs::path(stack.dir()) / "region.gray";
    run_ok({"ffmpeg", "-v", "error", "-y", "-i", mp4.string(), "-ss", std::to_string(seconds),
            "-frames:v", "1", "-vf",
            "crop=1080:" + std::to_string(kRegionHeight) + ":0:" + std::to_string(kRegionTop) +
                ",format=gray",
            "-f", "rawvideo", raw.string()});
    const auto bytes = squawk::fs::read_file(raw).value_or("");
    REQUIRE(bytes.size() == 1080u * kRegionHeight);
    return bytes;
}

long differing_pixels(const std::string& a, const std::string& b) {
    long n = 0;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::abs(static_cast<unsigned char>(a[i]) - static_cast<unsigned char>(b[i])) >
            kPixelDifference)
            ++n;
    return n;
}

// Pixels far from the region's most common grey level: text drawn on a plain picture.
long drawn_pixels(const std::string& region) {
    long counts[256] = {};
    for (const char c : region) ++counts[static_cast<unsigned char>(c)];
    const int background = static_cast<int>(std::max_element(counts, counts + 256) - counts);
    return std::count_if(region.begin(), region.end(), [&](char c) {
        return std::abs(static_cast<unsigned char>(c) - background) > kPixelDifference;
    });
}

bool no_work_directory(const std::string& job_id) {
    for (const auto& entry : stdfs::directory_iterator(stdfs::temp_directory_path()))
        if (entry.path().filename().string().rfind("squawk-short-" + job_id, 0) == 0) return false;
    return true;
}

// Waits until the job is rendering (its stage says so).
void wait_for_rendering(Stack& stack, const std::string& key, const std::string& job_id) {
    REQUIRE(Stack::wait_until(
        [&] {
            const auto job = stack.request("GET", "/v1/jobs/" + job_id, nullptr, key);
            const auto& stage = job.json["data"]["stage"];
            return stage.is_string() && stage == "rendering";
        },
        std::chrono::seconds(180), std::chrono::milliseconds(50)));
}

}  // namespace

TEST_CASE(
    "a short of a spoken video is a 30-second 1080x1920 H.264 and AAC clip with captions "
    "shown while words are spoken",
    "[e2e][shorts]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto source = uploaded_media(stack, key, spoken_video(stack, 8), "talk.mp4");
    const auto accepted = submit_short(
        stack, key, {{"media_id", source}, {"caption_style", "karaoke"}, {"clip_length", "30"}});
    const std::string id = accepted.value("id", "");
    CHECK(id.rfind("sht_", 0) == 0);
    const auto job =
        wait_for_terminal_job(stack, key, accepted.value("job_id", ""), std::chrono::seconds(300));
    REQUIRE(job);
    INFO(job->dump());
    REQUIRE(job->value("status", "") == "completed");
    CHECK((*job)["result"].value("short_id", "") == id);
    CHECK_FALSE((*job)["result"].contains("media_ids"));

    const auto made = stack.request("GET", "/v1/shorts/" + id, nullptr, key);
    check_success_envelope(made, 200);
    const auto& short_video = made.json["data"];
    INFO(short_video.dump());
    CHECK(short_video.value("kind", "") == "short");
    CHECK(short_video.value("caption_style", "") == "karaoke");
    CHECK(short_video.value("transcription_provider", "") == "pocketsphinx");
    REQUIRE(short_video["media"].size() == 1);
    const std::string media_id = (*job)["result"].value("media_id", "");
    CHECK(short_video.value("media_id", "") == media_id);
    CHECK(short_video["media"][0].value("role", "") == "main");
    const auto bytes = downloaded_media(stack, key, media_id);
    const auto probed = probe_media(stack, bytes, "short.mp4");
    const auto* picture = stream_of(probed, "video");
    const auto* sound = stream_of(probed, "audio");
    REQUIRE(picture);
    REQUIRE(sound);
    CHECK(picture->value("codec_name", "") == "h264");
    CHECK(picture->value("pix_fmt", "") == "yuv420p");
    CHECK(picture->value("width", 0) == 1080);
    CHECK(picture->value("height", 0) == 1920);
    CHECK(sound->value("codec_name", "") == "aac");
    // Cut in a pause up to 5 s before the length, from a 46-second source.
    const double duration = std::stod(probed["format"].value("duration", "0"));
    CHECK(duration > 24.5);
    CHECK(duration < 30.6);
    CHECK(short_video.value("duration_seconds", 0.0) == Approx(duration).epsilon(0.02));

    // A frame in the middle of the longest word against one in the longest pause.
    const auto& words = short_video["clips"][0]["words"];
    REQUIRE(words.size() >= 10);
    double word_at = 0, longest_word = 0, pause_at = 0, longest_pause = 0;
    for (size_t i = 0; i < words.size(); ++i) {
        const double start = words[i].value("start", 0.0), end = words[i].value("end", 0.0);
        if (end - start > longest_word) {
            longest_word = end - start;
            word_at = (start + end) / 2;
        }
        if (i + 1 < words.size()) {
            const double gap = words[i + 1].value("start", 0.0) - end;
            if (gap > longest_pause) {
                longest_pause = gap;
                pause_at = end + gap / 2;
            }
        }
    }
    REQUIRE(longest_pause >= 1.0);
    const auto file = stdfs::path(stack.dir()) / "short.mp4";
    const auto spoken = caption_region(stack, file, word_at);
    const auto silent = caption_region(stack, file, pause_at);
    CHECK(drawn_pixels(spoken) > 2000);
    CHECK(drawn_pixels(silent) < 200);
    CHECK(differing_pixels(spoken, silent) > 2000);

    const auto list = stack.request("GET", "/v1/shorts", nullptr, key);
    check_success_envelope(list, 200);
    REQUIRE(list.json["data"].size() == 1);
    const auto other = stack.create_tenant("other");
    check_not_found(stack.request("GET", "/v1/shorts/" + id, nullptr, other.test_key));
    check_success_envelope(stack.request("DELETE", "/v1/shorts/" + id, nullptr, key), 200);
    CHECK(files_of_job(stack, accepted.value("job_id", "")).empty());
}

TEST_CASE("short requests that cannot be made are refused with the fields named and not charged",
          "[e2e][shorts]") {
    StackOptions options = without_worker();
    options.extra_config = "[billing]\nmonthly_allowance = 0\n\n[billing.prices]\nshort = 0.5\n";
    Stack stack(options);
    const auto& tenant = stack.tenant();
    stack.credit(tenant.workspace_id, "100");
    const auto& key = tenant.live_key;
    const auto before = balance_total(stack, key);
    const std::string png = stack.dir() + "/red.png";
    run_ok({"ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v",
            "1", png});
    const auto picture =
        uploaded_media(stack, key, squawk::fs::read_file(png).value_or(""), "red.png");
    const auto other = stack.create_tenant("other");
    const auto theirs = uploaded_media(stack, other.test_key, spoken_video(stack, 1), "theirs.mp4");
    const auto ours = uploaded_media(stack, key, spoken_video(stack, 1), "ours.mp4");

    const auto refused = [&](const nlohmann::json& body, const std::string& field) {
        const auto r = stack.request("POST", "/v1/shorts/generate", body, key);
        INFO(r.body);
        check_error_envelope(r, 422, "VALIDATION_ERROR");
        CHECK(r.json["error"]["details"]["fields"].contains(field));
        return r.json["error"]["details"]["fields"].value(field, "");
    };
    refused(nlohmann::json::object(), "media_id");
    const auto style =
        refused({{"media_id", ours}, {"caption_style", "comic-sans"}}, "caption_style");
    for (const auto* listed : {"karaoke", "beasty", "word-pop", "light-bold"})
        CHECK(style.find(listed) != std::string::npos);
    refused({{"media_id", ours}, {"caption_format", {"bold"}}}, "caption_format");
    refused({{"media_id", ours}, {"caption_format", "italic"}}, "caption_format");
    refused({{"media_id", ours}, {"caption_style", "karaoke"}, {"caption_format", {"light_bold"}}},
            "caption_format");
    refused({{"media_id", ours}, {"clip_length", "45"}}, "clip_length");
    refused({{"media_id", ours}, {"clip_length", 30}}, "clip_length");
    refused({{"media_id", ours}, {"max_clips", 6}}, "max_clips");
    refused({{"media_id", ours}, {"max_clips", 0}}, "max_clips");
    refused({{"media_id", ours}, {"genre", "cooking"}}, "genre");
    refused({{"media_id", ours}, {"music", "loud"}}, "music");
    refused({{"media_id", picture}}, "media_id");
    refused({{"media_id", theirs}}, "media_id");
    refused({{"media_id", "med_nothing"}}, "media_id");

    CHECK(balance_total(stack, key) == before);
    CHECK(stack.count("SELECT COUNT(*) FROM creations WHERE kind = 'short'") == 0);
    CHECK(stack.count("SELECT COUNT(*) FROM jobs WHERE type = 'shorts.generate'") == 0);

    // The light weight applies to the style that has one.
    submit_short(stack, key,
                 {{"media_id", ours},
                  {"caption_style", "light-bold"},
                  {"caption_format", {"light_bold", "italic"}},
                  {"max_clips", 2},
                  {"genre", "news"}});
}

TEST_CASE("cancelling a short mid-render stops ffmpeg within a second and leaves no media",
          "[e2e][shorts]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto source = uploaded_media(stack, key, spoken_video(stack, 8), "talk.mp4");
    const auto accepted = submit_short(stack, key, {{"media_id", source}, {"clip_length", "60"}});
    const std::string job_id = accepted.value("job_id", "");
    wait_for_rendering(stack, key, job_id);
    REQUIRE(Stack::wait_until([&] { return process_naming(job_id); }, std::chrono::seconds(10),
                              std::chrono::milliseconds(20)));

    const auto cancelled_at = std::chrono::steady_clock::now();
    const auto cancel = stack.request("POST", "/v1/jobs/" + job_id + "/cancel", nullptr, key);
    check_success_envelope(cancel, 200);
    CHECK(Stack::wait_until([&] { return !process_naming(job_id); }, std::chrono::seconds(5),
                            std::chrono::milliseconds(20)));
    CHECK(std::chrono::steady_clock::now() - cancelled_at < std::chrono::milliseconds(1500));
    CHECK(Stack::wait_until(
        [&] { return files_of_job(stack, job_id).empty() && no_work_directory(job_id); },
        std::chrono::seconds(5)));
    CHECK(
        stack.request("GET", "/v1/jobs/" + job_id, nullptr, key).json["data"].value("status", "") ==
        "cancelled");
    // Only the uploaded source is left.
    CHECK(stack.count("SELECT COUNT(*) FROM media") == 1);
}

TEST_CASE("a worker killed mid-render makes the short once, with no partial file left",
          "[e2e][shorts][crash]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto source = uploaded_media(stack, key, spoken_video(stack, 8), "talk.mp4");
    const auto accepted = submit_short(stack, key, {{"media_id", source}, {"clip_length", "60"}});
    const std::string job_id = accepted.value("job_id", "");
    wait_for_rendering(stack, key, job_id);
    REQUIRE(Stack::wait_until([&] { return !files_of_job(stack, job_id).empty(); },
                              std::chrono::seconds(10), std::chrono::milliseconds(20)));
    stack.kill(Process::worker, SIGKILL);
    stack.start(Process::worker);

    const auto job = wait_for_terminal_job(stack, key, job_id, std::chrono::seconds(300));
    REQUIRE(job);
    INFO(job->dump());
    REQUIRE(job->value("status", "") == "completed");
    CHECK(job->value("attempts", 0) == 2);
    CHECK(stack.count("SELECT COUNT(*) FROM media") == 2);
    const auto files = files_of_job(stack, job_id);
    REQUIRE(files.size() == 1);
    CHECK(files[0].extension() == ".mp4");
    const auto probed = probe_media(
        stack, downloaded_media(stack, key, (*job)["result"].value("media_id", "")), "short.mp4");
    CHECK(std::stod(probed["format"].value("duration", "0")) > 40);
}

TEST_CASE("a recording without a picture makes several word-pop clips over a plain background",
          "[e2e][shorts]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const std::string wav = stack.dir() + "/talk.wav";
    std::string ssml = "<speak>";
    for (int i = 1; i <= 14; ++i)
        ssml += "Part " + std::to_string(i) + ". We keep talking for a while. <break time=\"1s\"/>";
    run_ok({"espeak-ng", "-m", "-w", wav, ssml + "</speak>"});
    const auto source =
        uploaded_media(stack, key, squawk::fs::read_file(wav).value_or(""), "talk.wav");
    const auto accepted = submit_short(stack, key,
                                       {{"media_id", source},
                                        {"caption_style", "word-pop"},
                                        {"caption_format", {"uppercase", "italic"}},
                                        {"clip_length", "30"},
                                        {"max_clips", 2}});
    const auto job =
        wait_for_terminal_job(stack, key, accepted.value("job_id", ""), std::chrono::seconds(300));
    REQUIRE(job);
    INFO(job->dump());
    REQUIRE(job->value("status", "") == "completed");
    const auto& result = (*job)["result"];
    REQUIRE(result["media_ids"].size() == 2);
    CHECK(result["media_ids"][0] == result["media_id"]);
    const auto made =
        stack.request("GET", "/v1/shorts/" + accepted.value("id", ""), nullptr, key).json["data"];
    REQUIRE(made["clips"].size() == 2);
    CHECK(made["clips"][1].value("role", "") == "clip-2");
    CHECK(made["clips"][1].value("start_seconds", 0.0) >=
          made["clips"][0].value("end_seconds", 0.0));
    for (const auto& id : result["media_ids"]) {
        const auto probed =
            probe_media(stack, downloaded_media(stack, key, id.get<std::string>()), "clip.mp4");
        const auto* picture = stream_of(probed, "video");
        REQUIRE(picture);
        CHECK(picture->value("width", 0) == 1080);
        CHECK(picture->value("height", 0) == 1920);
        CHECK(stream_of(probed, "audio"));
    }
}
