// What the end-to-end tests of media-making jobs look at: files made with local tools and
// uploaded, ffprobe's view of a download, the job's files under the media directory and the
// helper processes still running for it.
#pragma once

#include "tests/support/stack.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace squawk::testing {

// What a shell command printed on its standard output; the commands are the tests' own.
std::string output_of(const std::string& command);

// Uploads `bytes` through POST /v1/media/upload-direct as `filename` (checked 201); its media id.
std::string uploaded_media(Stack& stack, const std::string& key, const std::string& bytes,
                           const std::string& filename);

// A real `seconds`-long test pattern of `size` (WxH) with sound, encoded by ffmpeg in `format`
// (mp4, webm): its bytes.
std::string test_clip(const std::string& format, int seconds, const std::string& size = "160x90");

// A `seconds`-long MP4 of grey pixels of `size` in heavy noise at 30 frames a second, lossless and
// silent: about as large as a video of that frame gets (11 MB a second at 640x360), the same
// bytes each time.
std::string noise_clip(int seconds, const std::string& size);

// A red 64x48 PNG made by ffmpeg in the stack's directory: its bytes.
std::string png_64x48(const Stack& stack);

// ffprobe's -show_streams -show_format of `bytes` written to a file named `name` in the stack's
// directory.
nlohmann::json probe_media(const Stack& stack, const std::string& bytes, const std::string& name);
// The first stream of `type` ("video", "audio"), or nullptr.
const nlohmann::json* stream_of(const nlohmann::json& probed, const std::string& type);

// Files under the media directory whose name starts with the job's id (finished or temporary).
std::vector<std::filesystem::path> files_of_job(const Stack& stack, const std::string& job_id);
// Whether a running process has `text` on its command line (ffmpeg names the job's files).
bool process_naming(const std::string& text);

}  // namespace squawk::testing
