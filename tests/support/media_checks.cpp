#include "tests/support/media_checks.hpp"
#include "common/core/fs/work_files.hpp"
#include "common/core/process/subprocess.hpp"

#include "tests/support/api_checks.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>

namespace squawk::testing {
namespace {

namespace stdfs = std::filesystem;

constexpr const char* kBoundary = "squawk-media-checks-boundary-51c2";

}  // namespace

std::string output_of(const std::string& command) {
    std::string out;
    FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe);
    char buffer[4096];
    while (const size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
    ::pclose(pipe);
    return out;
}

std::string uploaded_media(Stack& stack, const std::string& key, const std::string& bytes,
                           const std::string& filename) {
    const std::string b = kBoundary;
    const std::string form =
        "--" + b + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + filename +
        "\"\r\nContent-Type: application/octet-stream\r\n\r\n" + bytes + "\r\n--" + b + "--\r\n";
    const auto r = stack.request_raw("POST", "/v1/media/upload-direct", form, key,
                                     {{"Content-Type", "multipart/form-data; boundary=" + b}});
    INFO(r.body);
    check_success_envelope(r, 201);
    return r.json["data"].value("media_id", "");
}

std::string png_64x48(const Stack& stack) {
    const std::string path = stack.dir() + "/red.png";
    const auto made = run_command({"ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                                   "color=c=red:s=64x48", "-frames:v", "1", path});
    REQUIRE(made.exit_code == 0);
    return squawk::fs::read_file(path).value_or("");
}

nlohmann::json probe_media(const Stack& stack, const std::string& bytes, const std::string& name) {
    const auto file = stdfs::path(stack.dir()) / name;
    std::ofstream(file, std::ios::binary) << bytes;
    return nlohmann::json::parse(output_of(
        "ffprobe -v error -print_format json -show_streams -show_format '" + file.string() + "'"));
}

const nlohmann::json* stream_of(const nlohmann::json& probed, const std::string& type) {
    for (const auto& stream : probed["streams"])
        if (stream.value("codec_type", "") == type) return &stream;
    return nullptr;
}

std::vector<stdfs::path> files_of_job(const Stack& stack, const std::string& job_id) {
    std::vector<stdfs::path> found;
    std::error_code ignored;
    for (const auto& entry : stdfs::recursive_directory_iterator(stack.media_dir(), ignored))
        if (entry.path().filename().string().rfind(job_id, 0) == 0) found.push_back(entry.path());
    return found;
}

bool process_naming(const std::string& text) {
    std::error_code ignored;
    for (const auto& entry : stdfs::directory_iterator("/proc", ignored)) {
        std::string command = squawk::fs::read_file(entry.path() / "cmdline").value_or("");
        std::replace(command.begin(), command.end(), '\0', ' ');
        if (command.find(text) != std::string::npos) return true;
    }
    return false;
}

namespace {

// What ffmpeg writes to a file named `file_name` from `inputs` (the arguments before the output).
std::string ffmpeg_made(const std::vector<std::string>& inputs, const std::string& file_name) {
    fs::ScratchDirectory folder("squawk-clip-");
    const auto path = (folder / file_name).string();
    process::SubprocessRequest request;
    request.argv = {"ffmpeg", "-nostdin", "-v", "error", "-y"};
    request.argv.insert(request.argv.end(), inputs.begin(), inputs.end());
    request.argv.push_back(path);
    REQUIRE(process::run_subprocess(request).exit_code == 0);
    return *fs::read_file(path);
}

}  // namespace

std::string test_clip(const std::string& format, int seconds, const std::string& size) {
    const auto duration = std::to_string(seconds);
    return ffmpeg_made(
        {"-f", "lavfi", "-i", "testsrc=size=" + size + ":rate=10:duration=" + duration, "-f",
         "lavfi", "-i", "sine=frequency=440:duration=" + duration, "-shortest"},
        "clip." + format);
}

std::string noise_clip(int seconds, const std::string& size) {
    // The noise filter's own generator, seeded the same each time: the same bytes every run, made
    // faster than frames read from /dev/urandom.
    return ffmpeg_made(
        {"-f", "lavfi", "-i",
         "color=c=gray:s=" + size + ":r=30:d=" + std::to_string(seconds) +
             ",format=gray,noise=alls=100:allf=t+u",
         "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", "yuv420p"},
        "noise.mp4");
}

}  // namespace squawk::testing
