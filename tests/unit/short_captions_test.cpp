// The pure parts of shorts: clips cut at pauses, words grouped into caption lines, the ASS
// document each caption style writes (escaped words, H:MM:SS.cc times) and the ffmpeg command.
#include "common/domain/generation/ass_captions.hpp"
#include "common/domain/generation/caption_styles.hpp"
#include "common/domain/generation/clip_plan.hpp"
#include "common/domain/generation/short_request.hpp"
#include "workers/generate/short_render.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

using namespace squawk::generation;

namespace {

// Words of 0.4 s spoken back to back with 0.1 s between them from `from`, `count` of them.
void speak(std::vector<TranscribedWord>& words, double from, int count) {
    for (int i = 0; i < count; ++i)
        words.push_back({"w" + std::to_string(words.size()), from + i * 0.5, from + i * 0.5 + 0.4});
}

const CaptionStyle& style(std::string_view id) {
    const auto* found = find_caption_style(id);
    REQUIRE(found);
    return *found;
}

std::vector<std::string> dialogues(const std::string& document) {
    std::vector<std::string> out;
    std::istringstream lines(document);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("Dialogue: ", 0) == 0) out.push_back(line);
    return out;
}

std::string style_line(const std::string& document) {
    std::istringstream lines(document);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("Style: ", 0) == 0) return line;
    return {};
}

std::vector<TranscribedWord> hello_world() {
    return {{"hello", 0.5, 0.9}, {"big", 1.0, 1.3}, {"world", 1.4, 1.9}};
}

}  // namespace

TEST_CASE("a fixed-length clip ends in the last pause before its length", "[unit][shorts]") {
    std::vector<TranscribedWord> words;
    speak(words, 1.0, 40);   // 1.0 .. 20.9
    speak(words, 22.0, 40);  // a 1.1 s pause at 20.9 .. 22.0; then 22.0 .. 41.9
    speak(words, 43.0, 40);  // a 1.1 s pause at 41.9 .. 43.0
    const auto clips = plan_clips(words, 70, 30, 2);
    REQUIRE(clips.size() == 2);
    CHECK(clips[0].start_seconds == Approx(0.5));
    // No pause of 0.3 s between 25.5 and 30.5: the cut falls between two words before the limit.
    CHECK(clips[0].end_seconds <= 30.5);
    CHECK(clips[0].end_seconds > 29.5);
    CHECK(clips[1].start_seconds >= clips[0].end_seconds);
    CHECK(clips[1].duration_seconds() <= 30.0 + 1e-9);

    // A pause inside the tolerance wins over a cut between words.
    std::vector<TranscribedWord> paused;
    speak(paused, 0.0, 54);  // 0 .. 26.9
    speak(paused, 28.0, 40);
    const auto cut = plan_clips(paused, 60, 30, 1);
    REQUIRE(cut.size() == 1);
    CHECK(cut[0].end_seconds == Approx((26.9 + 28.0) / 2));
}

TEST_CASE("a source shorter than the clip length is one clip to its end", "[unit][shorts]") {
    std::vector<TranscribedWord> words;
    speak(words, 2.0, 10);
    const auto clips = plan_clips(words, 12.5, 60, 3);
    REQUIRE(clips.size() == 1);
    CHECK(clips[0].start_seconds == Approx(1.5));
    CHECK(clips[0].end_seconds == Approx(12.5));
    const auto silent = plan_clips({}, 100, std::nullopt, 2);
    REQUIRE(silent.size() == 1);
    CHECK(silent[0].start_seconds == 0);
    CHECK(silent[0].end_seconds == Approx(kAutoMaxClipSeconds));
}

TEST_CASE("auto clips end at the longest pause between 15 and 60 seconds", "[unit][shorts]") {
    std::vector<TranscribedWord> words;
    speak(words, 0.0, 20);   // 0 .. 9.9
    speak(words, 10.5, 30);  // pause 0.6 s before 15 s: too early to end
    speak(words, 27.0, 20);  // pause 1.6 s at 25.4 .. 27.0: the longest in the window
    speak(words, 37.5, 60);  // pause 0.6 s at 36.9 .. 37.5
    const auto clips = plan_clips(words, 120, std::nullopt, 5);
    REQUIRE(clips.size() >= 2);
    CHECK(clips[0].end_seconds == Approx((25.4 + 27.0) / 2));
    for (const auto& c : clips) {
        CHECK(c.duration_seconds() <= kAutoMaxClipSeconds + 1e-9);
    }
    CHECK(clips[1].start_seconds == Approx(26.5));
    // The rest of the speech fits in one clip: it ends after the last word, not before it.
    REQUIRE(clips.size() == 2);
    CHECK(clips[1].end_seconds == Approx(67.4 + kClipLeadSeconds));
}

TEST_CASE("a clip's words are timed from its start and cut at its end", "[unit][shorts]") {
    const std::vector<TranscribedWord> words{{"a", 1, 2}, {"b", 10, 12}, {"c", 19, 21}};
    const auto in = clip_words(words, {9, 20});
    REQUIRE(in.size() == 2);
    CHECK(in[0].start_seconds == Approx(1));
    CHECK(in[1].start_seconds == Approx(10));
    CHECK(in[1].end_seconds == Approx(11));
}

TEST_CASE("caption lines hold a few words and break at pauses", "[unit][shorts]") {
    std::vector<TranscribedWord> words;
    speak(words, 0, 6);
    words.push_back({"later", 5.0, 5.5});
    const auto lines = group_lines(words, 4);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0].words.size() == 4);
    CHECK(lines[1].words.size() == 2);
    CHECK(lines[2].words.front().word == "later");
    const std::vector<TranscribedWord> long_words{
        {"extraordinarily", 0, 0.5}, {"uncomfortable", 0.5, 1}, {"x", 1, 1.2}};
    CHECK(group_lines(long_words, 4).size() == 2);
}

TEST_CASE("ASS times are H:MM:SS.cc", "[unit][shorts]") {
    CHECK(ass_time(0) == "0:00:00.00");
    CHECK(ass_time(1.234) == "0:00:01.23");
    CHECK(ass_time(61.996) == "0:01:02.00");
    CHECK(ass_time(3723.5) == "1:02:03.50");
    CHECK(ass_time(-1) == "0:00:00.00");
}

TEST_CASE("words from a transcript cannot inject ASS overrides or line breaks", "[unit][shorts]") {
    CHECK(ass_text("{\\fs200}hi", false) == "\\{\\\u2060fs200\\}hi");
    CHECK(ass_text("a\\Nb", false) == "a\\\u2060Nb");
    CHECK(ass_text("line\nbreak\r\t", false) == "line break  ");
    CHECK(ass_text("caf\xC3\xA9", true) == "CAF\xC3\xA9");
    const std::vector<TranscribedWord> words{{"{\\pos(0,0)}evil", 0, 1}};
    const auto doc = ass_document(style("karaoke"), {}, words, 1080, 1920);
    const auto events = dialogues(doc);
    REQUIRE(events.size() == 1);
    CHECK(events[0].find("\\{\\\u2060pos(0,0)\\}evil") != std::string::npos);
    CHECK(events[0].find("{\\pos") == std::string::npos);
}

TEST_CASE("the document is sized for 1080x1920 with the style's font and look", "[unit][shorts]") {
    const auto doc = ass_document(style("karaoke"), {}, hello_world(), 1080, 1920);
    CHECK(doc.find("[Script Info]") == 0);
    CHECK(doc.find("PlayResX: 1080\n") != std::string::npos);
    CHECK(doc.find("PlayResY: 1920\n") != std::string::npos);
    CHECK(doc.find("[V4+ Styles]") != std::string::npos);
    CHECK(doc.find("[Events]") != std::string::npos);
    CHECK(style_line(doc).rfind("Style: Caption,Noto Sans,84,&H00FFFFFF,", 0) == 0);
    // Bold, not italic, underlined or struck out.
    CHECK(style_line(doc).find(",-1,0,0,0,100,100,") != std::string::npos);
}

TEST_CASE("karaoke highlights each word while it is spoken", "[unit][shorts]") {
    const auto events = dialogues(ass_document(style("karaoke"), {}, hello_world(), 1080, 1920));
    REQUIRE(events.size() == 3);
    CHECK(events[0] ==
          "Dialogue: 0,0:00:00.50,0:00:01.00,Caption,,0,0,0,,{\\1c&H00E1FF&}hello{\\1c&HFFFFFF&} "
          "big world");
    CHECK(events[1].find(",0:00:01.00,0:00:01.40,") != std::string::npos);
    CHECK(events[1].find("hello {\\1c&H00E1FF&}big{\\1c&HFFFFFF&} world") != std::string::npos);
    // The last word stays for the hold after it is said.
    CHECK(events[2].find(",0:00:01.40,0:00:02.20,") != std::string::npos);
}

TEST_CASE("beasty is bold upper case with the spoken word coloured and popping", "[unit][shorts]") {
    const auto doc = ass_document(style("beasty"), {}, hello_world(), 1080, 1920);
    const auto events = dialogues(doc);
    REQUIRE(events.size() == 3);
    CHECK(events[0].find("{\\1c&H00FF5A&\\fscx118\\fscy118\\t(0,150,\\fscx100\\fscy100)}HELLO") !=
          std::string::npos);
    CHECK(events[0].find("BIG") != std::string::npos);
    CHECK(style_line(doc).find(",-1,0,0,0,") != std::string::npos);
}

TEST_CASE("word-pop shows one word at a time, scaling in", "[unit][shorts]") {
    const auto events = dialogues(ass_document(style("word-pop"), {}, hello_world(), 1080, 1920));
    REQUIRE(events.size() == 3);
    CHECK(events[0].find(",0:00:00.50,0:00:01.00,") != std::string::npos);
    CHECK(events[0].find("\\fscx60\\fscy60\\t(0,90,\\fscx112\\fscy112)") != std::string::npos);
    CHECK(events[0].find("}hello") != std::string::npos);
    CHECK(events[0].find("big") == std::string::npos);
    CHECK(events[2].find(",0:00:01.40,0:00:02.20,") != std::string::npos);
}

TEST_CASE("light-bold draws the line light with the spoken word bold", "[unit][shorts]") {
    const auto doc = ass_document(style("light-bold"), {}, hello_world(), 1080, 1920);
    CHECK(style_line(doc).rfind("Style: Caption,DejaVu Sans Light,", 0) == 0);
    const auto events = dialogues(doc);
    REQUIRE(events.size() == 3);
    CHECK(events[1].find("hello {\\fnDejaVu Sans\\b1}big{\\fnDejaVu Sans Light\\b0} world") !=
          std::string::npos);
}

TEST_CASE("caption formats set italic, underline, strike-out and upper case", "[unit][shorts]") {
    const std::vector<std::string> formats{"italic", "underline", "strikethrough", "uppercase"};
    const auto doc = ass_document(style("karaoke"), formats, hello_world(), 1080, 1920);
    CHECK(style_line(doc).find(",-1,-1,-1,-1,100,100,") != std::string::npos);
    CHECK(dialogues(doc)[0].find("HELLO") != std::string::npos);
}

TEST_CASE("every listed caption style renders events for spoken words", "[unit][shorts]") {
    for (const auto& s : caption_styles()) {
        INFO(s.id);
        CHECK_FALSE(dialogues(ass_document(s, {}, hello_world(), 1080, 1920)).empty());
        CHECK_FALSE(s.font.empty());
    }
}

TEST_CASE("a short request round-trips through its payload", "[unit][shorts]") {
    ShortRequest r;
    r.media_id = "med_1";
    r.caption_style = "beasty";
    r.caption_format = {"italic"};
    r.clip_length = "30";
    r.max_clips = 2;
    r.genre = "news";
    const auto back = ShortRequest::from_json(r.to_json());
    CHECK(back.media_id == "med_1");
    CHECK(back.caption_style == "beasty");
    CHECK(back.has_format("italic"));
    CHECK(fixed_clip_seconds(back.clip_length) == 30);
    CHECK(back.max_clips == 2);
    CHECK(back.genre == "news");
    CHECK_FALSE(fixed_clip_seconds("auto"));
    auto bad = r.to_json();
    bad["caption_style"] = "comic-sans";
    CHECK_THROWS_AS(ShortRequest::from_json(bad), std::invalid_argument);
}

TEST_CASE("a clip renders in one ffmpeg run reframed to 9:16 with its captions", "[unit][shorts]") {
    using namespace squawk::workers::generate;
    ShortClipRender clip{"/media/1/in.mp4",        true, 12.5, 30, "/tmp/s/clip-1.ass", "0x101010",
                         "/media/1/out.mp4.part-1"};
    const auto argv = short_clip_arguments("ffmpeg", clip);
    const auto at = [&](const std::string& flag) {
        const auto found = std::find(argv.begin(), argv.end(), flag);
        REQUIRE(found + 1 < argv.end());
        return *(found + 1);
    };
    CHECK(at("-ss") == "12.500");
    CHECK(at("-i") == "file:/media/1/in.mp4");
    CHECK(at("-filter_complex") ==
          "[0:v]scale=1080:1920:force_original_aspect_ratio=increase,crop=1080:1920,setsar=1,"
          "fps=30,ass=filename=/tmp/s/clip-1.ass,format=yuv420p[v]");
    CHECK(at("-c:v") == "libx264");
    CHECK(at("-c:a") == "aac");
    CHECK(at("-pix_fmt") == "yuv420p");
    CHECK(at("-movflags") == "+faststart");
    CHECK(argv.back() == "file:/media/1/out.mp4.part-1");

    clip.source_has_picture = false;
    const auto audio = short_clip_arguments("ffmpeg", clip);
    CHECK(std::find(audio.begin(), audio.end(), "color=c=0x101010:s=1080x1920:r=30") !=
          audio.end());
    CHECK(std::find(audio.begin(), audio.end(), "1:a:0") != audio.end());
    CHECK(filter_graph_path("/tmp/a:b'c,d") == "/tmp/a\\\\:b\\\\\\'c\\,d");
}
