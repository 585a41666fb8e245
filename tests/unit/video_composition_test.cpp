// The ffmpeg run a video job makes: scene lengths in whole frames, one input per picture and per
// narration, a graph that zooms, fades and joins them, and card sizes and titles that fit.
#include "workers/generate/video_composition.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace squawk::workers::generate;
using squawk::generation::ImageSize;

namespace {

std::string after(const std::vector<std::string>& argv, const std::string& flag) {
    const auto found = std::find(argv.begin(), argv.end(), flag);
    REQUIRE(found != argv.end());
    REQUIRE(found + 1 != argv.end());
    return *(found + 1);
}

size_t occurrences(const std::string& text, const std::string& part) {
    size_t count = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
    return count;
}

}  // namespace

TEST_CASE("a video scene lasts its narration and the pause, rounded up to whole frames",
          "[unit][videos]") {
    CHECK(scene_frames(1.0) == 33);  // 1.3 s at 25 fps = 32.5 frames
    CHECK(scene_frames(0.7) == 25);
    CHECK(scene_seconds(0.7) == Approx(1.0));
    CHECK(scene_frames(0) == 8);
    CHECK(scene_frames(-1) == 8);
}

TEST_CASE("the video ffmpeg arguments take each scene's picture and narration and write one MP4",
          "[unit][videos]") {
    const std::vector<SceneClip> scenes{{"/job-scratch/card-0.png", "/job-scratch/narration-0.wav", 1.0},
                                        {"/media/1/photo.jpg", "/job-scratch/narration-1.wav", 2.2}};
    const auto argv = compose_arguments("ffmpeg", scenes, ImageSize{1080, 1920}, "/media/1/out");
    CHECK(argv.front() == "ffmpeg");
    CHECK(std::count(argv.begin(), argv.end(), std::string("-i")) == 4);
    const auto first_input = std::find(argv.begin(), argv.end(), std::string("-i"));
    CHECK(*(first_input + 1) == "file:/job-scratch/card-0.png");
    CHECK(*(first_input + 3) == "file:/job-scratch/narration-0.wav");
    CHECK(*(first_input + 5) == "file:/media/1/photo.jpg");
    CHECK(after(argv, "-c:v") == "libx264");
    CHECK(after(argv, "-pix_fmt") == "yuv420p");
    CHECK(after(argv, "-c:a") == "aac");
    CHECK(after(argv, "-movflags") == "+faststart");
    CHECK(after(argv, "-f") == "mp4");
    CHECK(argv.back() == "file:/media/1/out");
    CHECK(std::find(argv.begin(), argv.end(), std::string("-nostdin")) != argv.end());

    const auto graph = after(argv, "-filter_complex");
    INFO(graph);
    CHECK(occurrences(graph, "zoompan=") == 2);
    CHECK(graph.find("[0:v]") != std::string::npos);
    CHECK(graph.find("[1:a]") != std::string::npos);
    CHECK(graph.find("[2:v]") != std::string::npos);
    CHECK(graph.find("[3:a]") != std::string::npos);
    CHECK(graph.find("d=33:s=1080x1920") != std::string::npos);
    CHECK(graph.find("d=63:s=1080x1920") != std::string::npos);  // 2.5 s
    CHECK(graph.find("fade=t=out:st=1.020:d=0.300") != std::string::npos);
    CHECK(graph.find("apad=whole_dur=2.520,atrim=end=2.520") != std::string::npos);
    CHECK(graph.find("crop=1080:1920") != std::string::npos);
    CHECK(graph.find("[v0][a0][v1][a1]concat=n=2:v=1:a=1[v][a]") != std::string::npos);
}

TEST_CASE("a short video scene fades over a quarter of its length each way", "[unit][videos]") {
    const auto argv =
        compose_arguments("ffmpeg", {{"/p.png", "/n.wav", 0.1}}, ImageSize{1080, 1080}, "/out.mp4");
    const auto graph = after(argv, "-filter_complex");
    INFO(graph);
    // 0.1 s + 0.3 s = 10 frames = 0.4 s: fades of 0.1 s.
    CHECK(graph.find("fade=t=in:st=0:d=0.100") != std::string::npos);
    CHECK(graph.find("fade=t=out:st=0.300:d=0.100") != std::string::npos);
}

TEST_CASE("cards are rendered at a card size of the video's shape", "[unit][videos]") {
    CHECK(card_size_for({1920, 1080}).width == 1600);
    CHECK(card_size_for({1920, 1080}).height == 900);
    CHECK(card_size_for({1080, 1920}).height == 1920);
    CHECK(card_size_for({1080, 1080}).width == 1080);
}

TEST_CASE("a video card title is cut at a space with an ellipsis, counting characters",
          "[unit][videos]") {
    CHECK(shortened("Short enough.", 120) == "Short enough.");
    CHECK(shortened("one two three", 10) == "one two\u2026");
    CHECK(shortened("abcdefghijkl", 5) == "abcd\u2026");
    const std::string accented = "\u00e9\u00e9\u00e9 \u00e9\u00e9\u00e9";  // 7 characters
    CHECK(shortened(accented, 7) == accented);
    CHECK(shortened(accented, 6) == "\u00e9\u00e9\u00e9\u2026");
}
