#include "workers/generate/ffmpeg_run.hpp"

#include "common/core/process/subprocess.hpp"
#include "workers/errors.hpp"

#include <algorithm>
#include <cstdio>

namespace squawk::workers::generate {
namespace {

constexpr int kMinSeconds = 120;
constexpr int kSecondsPerMediaSecond = 6;

}  // namespace

std::string ffmpeg_decimal(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", value);
    return text;
}

std::string ffmpeg_file_url(const std::filesystem::path& path) {
    return "file:" + std::filesystem::absolute(path).string();
}

void append_mp4_output(std::vector<std::string>& argv, const std::filesystem::path& output) {
    argv.insert(argv.end(), {"-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt",
                             "yuv420p", "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart",
                             "-f", "mp4", ffmpeg_file_url(output)});
}

void run_ffmpeg(TaskContext& context, const std::vector<std::string>& argv, double media_seconds,
                JobProviderCalls& calls, std::string_view what) {
    process::SubprocessRequest run;
    run.argv = argv;
    run.timeout = std::chrono::seconds(
        std::max(kMinSeconds, static_cast<int>(media_seconds * kSecondsPerMediaSecond)));
    run.stop = &calls.stop();
    const auto result = context.executor().run([&] {
        try {
            return process::run_subprocess(run);
        } catch (const process::SubprocessStartError& e) {
            throw RetryableError(std::string("cannot start ffmpeg: ") + e.what());
        }
    });
    if (result.stopped) throw TaskCancelled();
    if (result.timed_out) throw PermanentError("ffmpeg took too long to " + std::string(what));
    if (result.exit_code != 0)
        throw PermanentError("ffmpeg could not " + std::string(what) + ": " +
                             result.stderr_text.substr(0, 500));
}

}  // namespace squawk::workers::generate
