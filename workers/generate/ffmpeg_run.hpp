// How the generate tasks run ffmpeg: the argument spellings they share, and one run of it on the
// blocking executor that a cancel stops within the stop flag's poll and whose failures map to the
// job's errors.
#pragma once

#include "workers/generate/job_provider_calls.hpp"
#include "workers/tasks/task_context.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::workers::generate {

// The ffmpeg on the worker's PATH.
inline constexpr const char* kFfmpeg = "ffmpeg";

// A number as ffmpeg options and filters take it: three decimals.
std::string ffmpeg_decimal(double value);
// ffmpeg reads "name:rest" as a protocol; the file: protocol takes any path as it is.
std::string ffmpeg_file_url(const std::filesystem::path& path);

// Ends an ffmpeg command line with the one encoding every generated video uses (H.264 at CRF 23,
// yuv420p for every player, AAC at 128 kb/s, the index first for progressive playback) into the
// MP4 file `output`.
void append_mp4_output(std::vector<std::string>& argv, const std::filesystem::path& output);

// Runs `argv` for a piece of media `media_seconds` long, given six times that (two minutes at
// least); `what` names the work in errors ("compose the video"). TaskCancelled when stopped,
// PermanentError when ffmpeg fails or takes too long, RetryableError when it cannot start.
void run_ffmpeg(TaskContext& context, const std::vector<std::string>& argv, double media_seconds,
                JobProviderCalls& calls, std::string_view what);

}  // namespace squawk::workers::generate
