// The PocketSphinx provider with the real programs: speech made at test time by espeak-ng (and
// muxed by ffmpeg) is transcribed into timed words; a file without audio fails for good; a stop
// request ends a long transcription at once; nothing is left behind in the temporary directory.
#include "common/extensions/providers/pocketsphinx/pocketsphinx_provider.hpp"
#include "common/core/fs/work_files.hpp"
#include "common/core/process/subprocess.hpp"
#include "common/domain/generation/provider_error.hpp"
#include "common/domain/generation/wav_info.hpp"
#include "tests/support/provider_calls.hpp"

#include <catch2/catch.hpp>

#include <stdlib.h>
#include <atomic>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

using namespace squawk;
namespace stdfs = std::filesystem;

namespace {

using providers::pocketsphinx::PocketsphinxProvider;

constexpr std::string_view kSpoken =
    "Hello world. This is a test of the transcription. We are going to the store to buy some "
    "food for dinner.";

void run(std::vector<std::string> argv) {
    process::SubprocessRequest request;
    request.argv = std::move(argv);
    const auto result = process::run_subprocess(request);
    INFO(request.argv[0] << ": " << result.stderr_text);
    REQUIRE(result.exit_code == 0);
}

// The test's own temporary directory, which the provider also uses (TMPDIR), so the test can see
// that the provider cleans up after itself.
class Workspace {
  public:
    Workspace() {
        std::string pattern = (stdfs::temp_directory_path() / "pocketsphinx-test-XXXXXX").string();
        REQUIRE(::mkdtemp(pattern.data()));
        root_ = pattern;
        stdfs::create_directory(root_ / "tmp");
        const char* previous = std::getenv("TMPDIR");
        if (previous) previous_tmpdir_ = previous;
        ::setenv("TMPDIR", (root_ / "tmp").c_str(), 1);
    }
    ~Workspace() {
        if (previous_tmpdir_)
            ::setenv("TMPDIR", previous_tmpdir_->c_str(), 1);
        else
            ::unsetenv("TMPDIR");
        std::error_code ignored;
        stdfs::remove_all(root_, ignored);
    }
    stdfs::path operator/(const std::string& name) const { return root_ / name; }
    bool provider_left_nothing() const { return stdfs::is_empty(root_ / "tmp"); }

    // espeak-ng's voice, slowed down, with a little noise mixed in as in any real recording:
    // PocketSphinx's noise removal misjudges the perfectly silent gaps of synthetic speech.
    stdfs::path speech(const std::string& name, std::string_view text) const {
        const auto dry = root_ / (name + ".dry.wav");
        const auto wav = root_ / (name + ".wav");
        run({"espeak-ng", "-v", "en-us+m1", "-s", "140", "-w", dry.string(), std::string(text)});
        run({"ffmpeg", "-nostdin", "-loglevel", "error", "-i", dry.string(), "-f", "lavfi", "-i",
             "anoisesrc=color=white:amplitude=0.005:sample_rate=22050:seed=1", "-filter_complex",
             "[0:a][1:a]amix=inputs=2:duration=first:normalize=0", "-y", wav.string()});
        return wav;
    }

    // The recording as the sound track of a test-pattern video.
    stdfs::path video_with(const stdfs::path& audio) const {
        const auto mp4 = root_ / "speech.mp4";
        run({"ffmpeg",    "-nostdin",     "-loglevel", "error",
             "-f",        "lavfi",        "-i",        "testsrc=size=320x240:rate=25",
             "-i",        audio.string(), "-map",      "0:v",
             "-map",      "1:a",          "-c:v",      "mpeg4",
             "-c:a",      "aac",          "-shortest", "-y",
             mp4.string()});
        return mp4;
    }

  private:
    stdfs::path root_;
    std::optional<std::string> previous_tmpdir_;
};

PocketsphinxProvider provider(int timeout_seconds = 600) {
    config::PocketsphinxSettings settings;
    settings.timeout_seconds = timeout_seconds;
    return PocketsphinxProvider(settings);
}

double duration_of(const stdfs::path& wav) {
    const auto info = generation::parse_wav(squawk::fs::read_file(wav).value_or(""));
    REQUIRE(info);
    return info->duration_seconds;
}

// The share of the distinct words spoken that the transcript has: PocketSphinx mishears some of
// espeak-ng's words, so the tests ask for most of them, not all.
double recall(std::string_view spoken, const generation::Transcript& transcript) {
    std::set<std::string> heard;
    for (const auto& w : transcript.words) heard.insert(w.word);
    std::set<std::string> said;
    std::string word;
    for (const char c : spoken) {
        if (std::isalpha(static_cast<unsigned char>(c))) {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!word.empty()) {
            said.insert(word);
            word.clear();
        }
    }
    if (!word.empty()) said.insert(word);
    size_t found = 0;
    for (const auto& w : said) found += heard.count(w);
    return static_cast<double>(found) / static_cast<double>(said.size());
}

void check_words_are_timed_within(const generation::Transcript& transcript, double duration) {
    REQUIRE_FALSE(transcript.words.empty());
    double previous_end = 0;
    std::string text;
    for (const auto& w : transcript.words) {
        INFO(w.word << " " << w.start_seconds << "-" << w.end_seconds);
        CHECK(w.start_seconds >= previous_end);
        CHECK(w.end_seconds > w.start_seconds);
        CHECK(w.end_seconds <= duration);
        previous_end = w.end_seconds;
        text += (text.empty() ? "" : " ") + w.word;
    }
    CHECK(transcript.text == text);
}

std::optional<generation::ProviderError> failure_of(const PocketsphinxProvider& pocketsphinx,
                                                    const stdfs::path& input,
                                                    generation::TranscriptionRequest request = {}) {
    testing::DirectCalls calls;
    try {
        pocketsphinx.transcribe(input, request, calls);
    } catch (const generation::ProviderError& e) {
        return e;
    }
    return std::nullopt;
}

}  // namespace

TEST_CASE("pocketsphinx transcribes spoken English into timed words",
          "[integration][providers][pocketsphinx]") {
    const Workspace workspace;
    const auto wav = workspace.speech("speech", kSpoken);
    testing::DirectCalls calls;
    const auto transcript = provider().transcribe(wav, {}, calls);
    INFO("heard: " << transcript.text);
    CHECK(recall(kSpoken, transcript) >= 0.6);
    CHECK(transcript.language == "en");
    CHECK(transcript.model == "pocketsphinx-en-us");
    CHECK(transcript.duration_seconds == Approx(duration_of(wav)).epsilon(0.05));
    check_words_are_timed_within(transcript, transcript.duration_seconds);
    CHECK(workspace.provider_left_nothing());
}

TEST_CASE("pocketsphinx transcribes the sound track of a video",
          "[integration][providers][pocketsphinx]") {
    const Workspace workspace;
    const auto wav = workspace.speech("speech", kSpoken);
    const auto mp4 = workspace.video_with(wav);
    testing::DirectCalls calls;
    const auto transcript = provider().transcribe(mp4, {}, calls);
    INFO("heard: " << transcript.text);
    CHECK(recall(kSpoken, transcript) >= 0.6);
    CHECK(transcript.duration_seconds == Approx(duration_of(wav)).epsilon(0.05));
    check_words_are_timed_within(transcript, transcript.duration_seconds);
}

TEST_CASE("pocketsphinx fails for good on a picture or a video without sound, naming the media",
          "[integration][providers][pocketsphinx]") {
    const Workspace workspace;
    const auto png = workspace / "picture.png";
    run({"ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=64x64",
         "-frames:v", "1", "-y", png.string()});
    const auto silent = workspace / "silent.mp4";
    run({"ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i",
         "testsrc=size=64x64:rate=10", "-t", "2", "-c:v", "mpeg4", "-y", silent.string()});
    for (const auto& input : {png, silent}) {
        INFO(input.filename());
        const auto error = failure_of(provider(), input);
        REQUIRE(error);
        CHECK_FALSE(error->is_retryable());
        CHECK(std::string(error->what()) == "the file has no audio that can be decoded");
        CHECK(error->details() == nlohmann::json{{"field", "media_id"}});
    }
    CHECK(workspace.provider_left_nothing());
}

TEST_CASE("pocketsphinx refuses a language other than English or another model for good",
          "[integration][providers][pocketsphinx]") {
    const Workspace workspace;
    generation::TranscriptionRequest french;
    french.language = "fr";
    const auto language = failure_of(provider(), workspace / "unused.wav", french);
    REQUIRE(language);
    CHECK_FALSE(language->is_retryable());
    CHECK(language->details() == nlohmann::json{{"field", "language"}});
    generation::TranscriptionRequest whisper;
    whisper.model = "whisper-1";
    const auto model = failure_of(provider(), workspace / "unused.wav", whisper);
    REQUIRE(model);
    CHECK_FALSE(model->is_retryable());
    CHECK(model->details() == nlohmann::json{{"field", "model"}});
    CHECK(provider().languages() == std::vector<std::string>{"en"});
}

TEST_CASE("a pocketsphinx that cannot start or outlasts its timeout fails retryably",
          "[integration][providers][pocketsphinx]") {
    const Workspace workspace;
    const auto wav = workspace.speech("speech", kSpoken);
    config::PocketsphinxSettings missing;
    missing.binary = "/nonexistent/pocketsphinx_continuous";
    const auto not_started = failure_of(PocketsphinxProvider(missing), wav);
    REQUIRE(not_started);
    CHECK(not_started->is_retryable());

    std::string minute;
    for (int i = 0; i < 9; ++i) minute.append(kSpoken).append(" ");
    const auto long_wav = workspace.speech("minute", minute);
    const auto slow = failure_of(provider(1), long_wav);
    REQUIRE(slow);
    CHECK(slow->is_retryable());
    CHECK_THAT(slow->what(), Catch::Matchers::Contains("did not finish in time"));
    CHECK(workspace.provider_left_nothing());
}

TEST_CASE("a stop request ends a long pocketsphinx transcription within moments",
          "[integration][providers][pocketsphinx]") {
    const Workspace workspace;
    std::string minute;
    for (int i = 0; i < 9; ++i) minute.append(kSpoken).append(" ");
    const auto wav = workspace.speech("minute", minute);
    REQUIRE(duration_of(wav) >= 60);

    testing::DirectCalls calls;
    using Clock = std::chrono::steady_clock;
    std::atomic<int64_t> stop_requested_at{0};
    std::thread stopper([&] {
        // Long enough for ffmpeg to be done and the recogniser well under way.
        std::this_thread::sleep_for(std::chrono::seconds(2));
        stop_requested_at = Clock::now().time_since_epoch().count();
        calls.request_stop();
    });
    CHECK_THROWS_AS(provider().transcribe(wav, {}, calls), generation::ProviderStopped);
    const auto ended = Clock::now();
    stopper.join();
    const auto stopped_after = ended - Clock::time_point(Clock::duration(stop_requested_at));
    CHECK(stopped_after < std::chrono::seconds(2));
    CHECK(workspace.provider_left_nothing());
}
