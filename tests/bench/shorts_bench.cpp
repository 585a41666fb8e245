// Shorts (issue 21): a 60-second 1080x1920 short with karaoke captions rendered by Squawk from a
// 60-second spoken 1920x1080 source, beside the bare ffmpeg command that performs the same encode
// with the same ASS file. The bare command is the very argv the worker ran, read from /proc while
// it rendered (its ASS file copied then); only its output path differs. Transcription is measured
// on its own, as a speech-to-text job of the same source.
#include "common/core/fs/work_files.hpp"
#include "tests/bench/support/bench.hpp"
#include "tests/support/process.hpp"
#include "tests/support/stack.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <thread>

using namespace squawk;
using namespace squawk::testing;
using namespace std::chrono_literals;

namespace {

namespace stdfs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int kSourceSeconds = 60;
constexpr const char* kBoundary = "squawk-bench-boundary-2f81";
constexpr const char* kCaptionsFilter = "ass=filename=";

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

void run_or_throw(const std::vector<std::string>& argv) {
    const auto done = run_command(argv, std::chrono::seconds(600));
    if (done.exit_code != 0) throw std::runtime_error(argv.front() + " failed: " + done.err);
}

// A 60-second 1920x1080 MP4: a moving test pattern and espeak-ng reading numbered sentences with
// pauses between them.
std::string spoken_source(const std::string& dir) {
    std::string ssml = "<speak>";
    for (int i = 1; i <= 11; ++i)
        ssml += "Part " + std::to_string(i) +
                ". The quick brown fox jumps over the lazy dog near the river bank. "
                "<break time=\"1200ms\"/>";
    ssml += "</speak>";
    const std::string wav = dir + "/bench-speech.wav";
    const std::string mp4 = dir + "/bench-source.mp4";
    run_or_throw({"espeak-ng", "-m", "-w", wav, ssml});
    run_or_throw({"ffmpeg",   "-v",
                  "error",    "-y",
                  "-f",       "lavfi",
                  "-i",       "testsrc2=s=1920x1080:r=30",
                  "-i",       wav,
                  "-af",      "apad",
                  "-t",       std::to_string(kSourceSeconds),
                  "-c:v",     "libx264",
                  "-preset",  "veryfast",
                  "-crf",     "28",
                  "-pix_fmt", "yuv420p",
                  "-c:a",     "aac",
                  mp4});
    return squawk::fs::read_file(mp4).value_or("");
}

std::string upload(Stack& stack, const std::string& key, const std::string& bytes) {
    const std::string b = kBoundary;
    const std::string form =
        "--" + b + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"talk.mp4\"\r\n" +
        "Content-Type: application/octet-stream\r\n\r\n" + bytes + "\r\n--" + b + "--\r\n";
    const auto r = stack.request_raw("POST", "/v1/media/upload-direct", form, key,
                                     {{"Content-Type", "multipart/form-data; boundary=" + b}});
    if (r.status != 201) throw std::runtime_error("upload failed: " + r.body);
    return r.json["data"].value("media_id", "");
}

std::string submit(Stack& stack, const std::string& key, const std::string& path,
                   const nlohmann::json& body) {
    const auto r = stack.request("POST", path, body, key);
    if (r.status != 202) throw std::runtime_error(path + " refused: " + r.body);
    return r.json["data"].value("job_id", "");
}

nlohmann::json job_data(Stack& stack, const std::string& key, const std::string& job_id) {
    return stack.request("GET", "/v1/jobs/" + job_id, nullptr, key).json["data"];
}

// started_at to finished_at of a job, from its row.
double run_seconds(Stack& stack, const std::string& job_id) {
    const auto row = stack.db().run([&](db::Session& s) {
        return s.query_one(
            "SELECT TIMESTAMPDIFF(MICROSECOND, started_at, finished_at) FROM jobs "
            "WHERE public_id = ?",
            {job_id});
    });
    if (!row) throw std::runtime_error("no job " + job_id);
    return static_cast<double>(row->integer(0)) / 1e6;
}

void wait_completed(Stack& stack, const std::string& key, const std::string& job_id) {
    if (!Stack::wait_until(
            [&] { return job_data(stack, key, job_id).value("status", "") == "completed"; }, 900s,
            100ms))
        throw std::runtime_error("job " + job_id + " did not complete\n" + stack.post_mortem());
}

struct RunningRender {
    stdfs::path proc;  // /proc/<pid>
    std::vector<std::string> argv;
};

// The running ffmpeg that burns captions for `job_id`, or nothing yet.
std::optional<RunningRender> running_render(const std::string& job_id) {
    std::error_code ignored;
    for (const auto& entry : stdfs::directory_iterator("/proc", ignored)) {
        const std::string raw = squawk::fs::read_file(entry.path() / "cmdline").value_or("");
        if (raw.find(job_id) == std::string::npos || raw.find(kCaptionsFilter) == std::string::npos)
            continue;
        std::vector<std::string> argv;
        for (size_t start = 0; start < raw.size();) {
            const size_t end = raw.find('\0', start);
            argv.push_back(raw.substr(start, end - start));
            start = end == std::string::npos ? raw.size() : end + 1;
        }
        return RunningRender{entry.path(), std::move(argv)};
    }
    return std::nullopt;
}

struct ShortRound {
    double job_seconds = 0;           // the job's row: started to finished
    double transcribing_seconds = 0;  // stage transcribing until planning, as polled
    double after_transcription = 0;   // stage planning until completed, as polled
    double ffmpeg_seen = 0;           // its ffmpeg first seen running until gone, as polled
    std::vector<std::string> bare;    // the worker's argv with a kept ASS copy and our output
};

// The worker's ffmpeg argv, its ASS file copied to `dir` and its output moved there too.
std::vector<std::string> bare_command(std::vector<std::string> argv, const std::string& dir) {
    const auto filter = std::find_if(argv.begin(), argv.end(), [](const auto& a) {
        return a.find(kCaptionsFilter) != std::string::npos;
    });
    const size_t from = filter->find(kCaptionsFilter) + std::strlen(kCaptionsFilter);
    const std::string ass = filter->substr(from, filter->find(',', from) - from);
    const std::string kept = dir + "/bench-captions.ass";
    stdfs::copy_file(ass, kept, stdfs::copy_options::overwrite_existing);
    filter->replace(from, ass.size(), kept);
    argv.back() = "file:" + dir + "/bench-bare.mp4";
    return argv;
}

ShortRound short_round(Stack& stack, const std::string& key, const std::string& media_id,
                       const std::string& dir) {
    const std::string job_id =
        submit(stack, key, "/v1/shorts/generate",
               {{"media_id", media_id}, {"caption_style", "karaoke"}, {"clip_length", "60"}});
    ShortRound round;
    std::optional<Clock::time_point> transcribing, planned, rendering, rendered;
    stdfs::path render_proc;
    while (true) {
        const auto data = job_data(stack, key, job_id);
        const auto& stage = data["stage"];
        if (!transcribing && stage.is_string()) transcribing = Clock::now();
        if (!planned && stage.is_string() && stage != "transcribing") planned = Clock::now();
        if (planned && !rendering) {
            if (auto running = running_render(job_id)) {
                rendering = Clock::now();
                render_proc = running->proc;
                round.bare = bare_command(std::move(running->argv), dir);
            }
        }
        if (rendering && !rendered && !stdfs::exists(render_proc)) rendered = Clock::now();
        const std::string status = data.value("status", "");
        if (status == "completed") break;
        if (status == "failed" || status == "cancelled")
            throw std::runtime_error("short job " + status + ": " + data.dump());
        // Quick until the render is found, then seldom: polling takes CPU time from the render.
        std::this_thread::sleep_for(planned && !rendering ? 2ms : 20ms);
    }
    const auto done = Clock::now();
    if (!transcribing || !planned || !rendering)
        throw std::runtime_error("did not see the short's stages or its ffmpeg run");
    round.transcribing_seconds = std::chrono::duration<double>(*planned - *transcribing).count();
    round.after_transcription = std::chrono::duration<double>(done - *planned).count();
    round.ffmpeg_seen = std::chrono::duration<double>(rendered.value_or(done) - *rendering).count();
    round.job_seconds = run_seconds(stack, job_id);
    return round;
}

double bare_seconds(const std::vector<std::string>& argv) {
    const auto start = Clock::now();
    run_or_throw(argv);
    return seconds_since(start);
}

std::string command_line(const std::vector<std::string>& argv) {
    std::string out;
    for (const auto& a : argv) out += (out.empty() ? "" : " ") + ("'" + a + "'");
    return out;
}

}  // namespace

int main() {
    try {
        StackOptions options;
        options.time_scale = 1.0;
        options.lease_seconds = 60;
        options.start_scheduler = false;
        options.max_body_bytes = 64LL << 20;
        options.worker_arguments = {"--pools", "generate", "--threads", "2", "--fibers", "8"};
        Stack stack(options);
        const std::string key = bench::unlimited_test_key(stack);
        const std::string dir = bench::scratch_dir();
        const std::string media_id = upload(stack, key, spoken_source(dir));

        bench::Series render{
            "shorts: 60 s 1080x1920 karaoke short of a 60 s 1920x1080 source, "
            "job wall time after transcription",
            "s",
            false,
            {},
            "bare ffmpeg, same argv and ASS file",
            {},
            "<= 1.15x the bare command"};
        bench::Series transcription{
            "shorts: transcription of the 60 s source (speech-to-text job "
            "run time, pocketsphinx)",
            "s",
            false,
            {},
            "",
            {},
            "reported"};
        bench::Series whole{"shorts: short job run time, transcription included",
                            "s",
                            false,
                            {},
                            "",
                            {},
                            "reported"};
        std::vector<std::string> last_bare;
        for (int r = 0; r < bench::repeats(); ++r) {
            const std::string stt =
                submit(stack, key, "/v1/audio/speech-to-text", {{"media_id", media_id}});
            wait_completed(stack, key, stt);
            transcription.squawk.push_back(run_seconds(stack, stt));
            const auto round = short_round(stack, key, media_id, dir);
            render.squawk.push_back(round.after_transcription);
            whole.squawk.push_back(round.job_seconds);
            render.peer.push_back(bare_seconds(round.bare));
            last_bare = round.bare;
            std::cerr << "shorts round " << r + 1 << ": transcription job "
                      << transcription.squawk.back() << " s (in the short job "
                      << round.transcribing_seconds << " s), after transcription "
                      << render.squawk.back() << " s, bare ffmpeg " << render.peer.back()
                      << " s (its ffmpeg seen for " << round.ffmpeg_seen << " s), ratio "
                      << render.squawk.back() / render.peer.back() << ", short job "
                      << whole.squawk.back() << " s\n";
        }
        bench::Report report;
        report.add(render);
        report.add(transcription);
        report.add(whole);
        report.note("The bare command, as the worker ran it: " + command_line(last_bare));
        report.write();
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "shorts bench: " << e.what() << "\n";
        return 1;
    }
}
