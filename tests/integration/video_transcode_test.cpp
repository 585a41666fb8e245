// A post's video made fit for a platform by the real ffmpeg: the file it writes plays as an
// H.264 MP4 of the frame asked, the picture padded and scaled rather than cut, a video of odd
// sides comes out with even ones, as H.264's 4:2:0 sampling needs, and a bitrate asked sets the
// size even for a picture of noise, the hardest to compress.
#include "common/domain/media/video_transcode.hpp"
#include "common/core/fs/work_files.hpp"
#include "common/domain/media/media_inspector.hpp"
#include "tests/support/media_checks.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace squawk;

namespace {

// A one-second `size` (WxH) test pattern with sound as a WebM file in `folder`.
std::filesystem::path clip(const fs::ScratchDirectory& folder, const std::string& size) {
    const auto path = folder / ("clip-" + size + ".webm");
    std::ofstream(path, std::ios::binary) << testing::test_clip("webm", 1, size);
    return path;
}

}  // namespace

TEST_CASE("a video is padded and scaled to the frame asked and comes out an H.264 MP4 of it",
          "[integration][media]") {
    fs::ScratchDirectory folder("squawk-transcode-");
    const config::MediaSettings settings;
    const auto out = folder / "fitted";
    REQUIRE_FALSE(media::transcode_video(settings, clip(folder, "480x90"), out,
                                         {media::PaddedFrame{480, 160, 240, 80}}));
    const auto made = media::inspect_media(out.string(), settings);
    CHECK(made.mime_type == "video/mp4");
    CHECK(made.width == 240);
    CHECK(made.height == 80);
    REQUIRE(made.duration_seconds);
    CHECK(*made.duration_seconds == Approx(1.0).margin(0.2));
}

TEST_CASE("a video of odd sides transcoded with no frame comes out with even sides",
          "[integration][media]") {
    fs::ScratchDirectory folder("squawk-transcode-");
    const config::MediaSettings settings;
    const auto out = folder / "even";
    REQUIRE_FALSE(media::transcode_video(settings, clip(folder, "161x91"), out, {}));
    const auto made = media::inspect_media(out.string(), settings);
    CHECK(made.width == 160);
    CHECK(made.height == 90);
}

TEST_CASE("a video re-encoded at a bitrate comes out within 10 % of rate x duration",
          "[integration][media]") {
    fs::ScratchDirectory folder("squawk-transcode-");
    const config::MediaSettings settings;
    const auto noise = folder / "noise.mp4";
    std::ofstream(noise, std::ios::binary) << testing::noise_clip(4, "640x360");
    const auto out = folder / "fitted";
    const long long picture = 4'000'000;
    REQUIRE_FALSE(media::transcode_video(settings, noise, out, {{}, picture}));
    const auto made = media::inspect_media(out.string(), settings);
    CHECK(made.mime_type == "video/mp4");
    REQUIRE(made.duration_seconds);
    const double expected =
        (picture + media::kTranscodeAudioBitsPerSecond) / 8.0 * *made.duration_seconds;
    const auto bytes = static_cast<double>(std::filesystem::file_size(out));
    // The fit aims at 90 % of a platform's limit: this 10 % is its margin.
    CHECK(bytes <= expected * 1.1);
    CHECK(bytes >= expected * 0.9);
    CHECK(std::filesystem::file_size(noise) > 2 * bytes);
}
