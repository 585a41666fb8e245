// A post's video made fit for a platform by the real ffmpeg: the file it writes plays as an
// H.264 MP4 of the frame asked, the picture padded and scaled rather than cut, and a video of odd
// sides comes out with even ones, as H.264's 4:2:0 sampling needs.
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
                                         media::PaddedFrame{480, 160, 240, 80}));
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
    REQUIRE_FALSE(media::transcode_video(settings, clip(folder, "161x91"), out, std::nullopt));
    const auto made = media::inspect_media(out.string(), settings);
    CHECK(made.width == 160);
    CHECK(made.height == 90);
}
