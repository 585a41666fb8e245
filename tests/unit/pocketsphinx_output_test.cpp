// What pocketsphinx_continuous -time yes prints, read into timed words: the sample below was
// captured from Debian 12's pocketsphinx 0.8 on "hello world", two seconds of silence, then
// "we are going to read it" (the recogniser missed "it").
#include "common/extensions/providers/pocketsphinx/pocketsphinx_output.hpp"

#include <catch2/catch.hpp>

using squawk::providers::pocketsphinx::parse_pocketsphinx_output;

namespace {

constexpr std::string_view kCaptured = R"(hello world
<s> 0.000 0.020 0.999900
hello 0.030 0.360 0.211955
world 0.370 0.910 0.849575
</s> 0.920 1.410 1.000000
we are going to read
<s> 3.260 3.400 0.999900
we 3.410 3.520 0.080581
are 3.530 3.640 0.311475
going 3.650 3.990 0.378775
<sil> 4.000 4.030 0.940911
to(3) 4.040 4.160 0.815769
read(2) 4.170 4.560 0.759396
</s> 4.570 5.090 1.000000
)";

std::vector<std::string> words_of(std::string_view output) {
    std::vector<std::string> words;
    for (const auto& w : parse_pocketsphinx_output(output)) words.push_back(w.word);
    return words;
}

}  // namespace

TEST_CASE("pocketsphinx output gives the words of every utterance with their times",
          "[unit][providers][transcription]") {
    const auto words = parse_pocketsphinx_output(kCaptured);
    REQUIRE(words.size() == 7);
    CHECK(words[0].word == "hello");
    CHECK(words[0].start_seconds == Approx(0.03));
    CHECK(words[0].end_seconds == Approx(0.36));
    CHECK(words[3].word == "are");
    CHECK(words[3].start_seconds == Approx(3.53));
    CHECK(words[6].word == "read");
    CHECK(words[6].end_seconds == Approx(4.56));
}

TEST_CASE("in pocketsphinx output, sentence marks, silences and noise fillers are not words",
          "[unit][providers][transcription]") {
    CHECK(words_of("<s> 0.0 0.1 1.0\n"
                   "<sil> 0.1 0.2 1.0\n"
                   "[NOISE] 0.2 0.3 0.5\n"
                   "[SPEECH] 0.3 0.4 0.5\n"
                   "[BREATH] 0.4 0.5 0.5\n"
                   "++UH++ 0.5 0.6 0.5\n"
                   "yes 0.6 0.9 0.7\n"
                   "</s> 0.9 1.0 1.0\n") == std::vector<std::string>{"yes"});
}

TEST_CASE("pocketsphinx alternate-pronunciation marks are removed from words",
          "[unit][providers][transcription]") {
    CHECK(words_of(kCaptured) ==
          std::vector<std::string>{"hello", "world", "we", "are", "going", "to", "read"});
    // Only a parenthesised number is a mark.
    CHECK(words_of("that(12) 0 1 1\nsmile(s) 1 2 1\n(2) 2 3 1\n") ==
          std::vector<std::string>{"that", "smile(s)"});
}

TEST_CASE("pocketsphinx output lines that are not well-formed word lines are ignored",
          "[unit][providers][transcription]") {
    CHECK(words_of("INFO: cmn_live.c(120): Update from < 8.00 >\n"
                   "one two three four\n"
                   "late 2.0 1.0 0.5\n"
                   "negative -1.0 0.5 0.5\n"
                   "forever 0.0 inf 0.5\n"
                   "unknown 0.0 nan 0.5\n"
                   "trailing 0.0 1.0 0.5 extra\n"
                   "short 0.0 1.0\n"
                   "glued 0.0 1.0x 0.5\n"
                   "\n"
                   "  spaced\t1.0   1.5  0.5\r\n"
                   "last 2.0 2.5 0.9") == std::vector<std::string>{"spaced", "last"});
}

TEST_CASE("pocketsphinx words come out in time order", "[unit][providers][transcription]") {
    const auto words = parse_pocketsphinx_output("second 5.0 5.5 1\nfirst 1.0 1.5 1\n");
    REQUIRE(words.size() == 2);
    CHECK(words[0].word == "first");
    CHECK(words[1].word == "second");
}

TEST_CASE("empty pocketsphinx output has no words", "[unit][providers][transcription]") {
    CHECK(parse_pocketsphinx_output("").empty());
    CHECK(parse_pocketsphinx_output("\n\n").empty());
}
