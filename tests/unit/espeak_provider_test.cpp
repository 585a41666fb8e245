// The espeak-ng provider against a stand-in program (tests/fakes/espeak/fake-espeak-ng): it
// reports the WAV it had written, and says which failures are worth retrying.
#include "common/extensions/providers/espeak/espeak_provider.hpp"
#include "common/domain/generation/provider_error.hpp"

#include "tests/support/provider_calls.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <optional>

using namespace squawk;
namespace stdfs = std::filesystem;

namespace {

std::string fake_espeak() {
    const char* source_dir = std::getenv("SQUAWK_SOURCE_DIR");
    return std::string(source_dir && *source_dir ? source_dir : SQUAWK_SOURCE_DIR_DEFAULT) +
           "/tests/fakes/espeak/fake-espeak-ng";
}

providers::espeak::EspeakProvider provider(std::string binary = fake_espeak()) {
    config::EspeakSettings settings;
    settings.binary = std::move(binary);
    settings.timeout_seconds = 1;
    return providers::espeak::EspeakProvider(settings);
}

class OutputFile {
  public:
    OutputFile()
        : path_(stdfs::temp_directory_path() /
                ("espeak-provider-test-" + std::to_string(::getpid()) + ".wav")) {}
    ~OutputFile() { stdfs::remove(path_); }
    const stdfs::path& path() const { return path_; }

  private:
    stdfs::path path_;
};

generation::SpeechRequest spoken(std::string voice) {
    generation::SpeechRequest request;
    request.text = "Hello.";
    request.voice = std::move(voice);
    return request;
}

// The ProviderError synthesize() throws, if any.
std::optional<generation::ProviderError> failure_of(const providers::espeak::EspeakProvider& espeak,
                                                    const generation::SpeechRequest& request) {
    const OutputFile output;
    testing::DirectCalls calls;
    try {
        espeak.synthesize(request, output.path(), calls);
    } catch (const generation::ProviderError& e) {
        return e;
    }
    return std::nullopt;
}

}  // namespace

TEST_CASE("espeak writes the WAV file and reports its duration", "[unit][providers][speech]") {
    const OutputFile output;
    testing::DirectCalls calls;
    const auto speech = provider().synthesize(spoken("en"), output.path(), calls);
    CHECK(speech.duration_seconds == Approx(1.0));
    CHECK(stdfs::file_size(output.path()) == 44 + 44100);
}

TEST_CASE("a voice espeak-ng does not know fails for good, naming the voice",
          "[unit][providers][speech]") {
    const auto error = failure_of(provider(), spoken("missing"));
    REQUIRE(error);
    CHECK_FALSE(error->is_retryable());
    CHECK(error->details() == nlohmann::json{{"voice", "missing"}});
}

TEST_CASE("a voice that could pass for an option never reaches the command line",
          "[unit][providers][speech]") {
    // /bin/false would fail retryably had it been run.
    const auto error = failure_of(provider("/bin/false"), spoken("--help"));
    REQUIRE(error);
    CHECK_FALSE(error->is_retryable());
    CHECK(error->details() == nlohmann::json{{"field", "voice"}});
}

TEST_CASE("a missing program, a failed run, a garbled file and a timeout are retryable",
          "[unit][providers][speech]") {
    const auto missing = failure_of(provider("/nonexistent/espeak-ng"), spoken("en"));
    REQUIRE(missing);
    CHECK(missing->is_retryable());
    const auto failed = failure_of(provider("/bin/false"), spoken("en"));
    REQUIRE(failed);
    CHECK(failed->is_retryable());
    CHECK_THAT(failed->what(), Catch::Matchers::Contains("exited with status 1"));
    const auto garbled = failure_of(provider(), spoken("garbled"));
    REQUIRE(garbled);
    CHECK(garbled->is_retryable());
    const auto slow = failure_of(provider(), spoken("slow"));
    REQUIRE(slow);
    CHECK(slow->is_retryable());
    CHECK_THAT(slow->what(), Catch::Matchers::Contains("did not finish in time"));
}

TEST_CASE("espeak stops when its caller asks", "[unit][providers][speech]") {
    const OutputFile output;
    testing::DirectCalls calls;
    calls.request_stop();
    CHECK_THROWS_AS(provider().synthesize(spoken("slow"), output.path(), calls),
                    generation::ProviderStopped);
}
