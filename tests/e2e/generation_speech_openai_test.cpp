// Text to speech spoken by the OpenAI-compatible provider against its fake: the API offers the
// provider's voices, the job stores the WAV the service sent, and its length is the service's.
#include "common/domain/generation/wav_info.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/fake_server.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;

namespace {

constexpr const char* kSpeechProviderKey = "sk-test-speech";
// The fake speaks 0.05 s per character at speed 1.0 (tests/fakes/openai/speech.cpp).
constexpr double kFakeSecondsPerCharacter = 0.05;

struct SpeechStack {
    SpeechStack()
        : stack([&] {
              StackOptions options;
              options.extra_config =
                  "[generation]\nspeech = \"openai\"\n\n[providers.openai]\n"
                  "base_url = \"" +
                  openai.url("/v1") + "\"\napi_key = \"" + kSpeechProviderKey +
                  "\"\nspeech_voices = \"nova, onyx\"\ntimeout_seconds = 5\n";
              return options;
          }()) {}

    nlohmann::json speech_calls() {
        nlohmann::json calls = nlohmann::json::array();
        for (const auto& r : openai.control("GET", "/_control/requests"))
            if (r.value("path", "") == "/v1/audio/speech") calls.push_back(r);
        return calls;
    }

    FakeServer openai{"fake_openai", {"--api-key", kSpeechProviderKey}};
    Stack stack;
};

}  // namespace

TEST_CASE("text to speech with the openai provider stores the service's WAV and its duration",
          "[e2e][speech][openai]") {
    SpeechStack s;
    auto& stack = s.stack;
    const auto& key = stack.tenant().test_key;
    const std::string text = "Squawk speaks through an OpenAI-style service.";
    const auto accepted =
        stack.request("POST", "/v1/audio/text-to-speech", {{"text", text}, {"voice", "onyx"}}, key);
    check_success_envelope(accepted, 202);
    const auto job = wait_for_terminal_job(stack, key, accepted.json["data"].value("job_id", ""));
    REQUIRE(job);
    INFO(job->dump());
    REQUIRE(job->value("status", "") == "completed");
    const auto& result = (*job)["result"];
    const double expected = static_cast<double>(text.size()) * kFakeSecondsPerCharacter;
    CHECK(result.value("duration_seconds", 0.0) == Approx(expected).margin(0.001));

    const auto wav =
        squawk::generation::parse_wav(downloaded_media(stack, key, result.value("media_id", "")));
    REQUIRE(wav);
    CHECK(wav->duration_seconds == Approx(expected).margin(0.001));

    const auto calls = s.speech_calls();
    REQUIRE(calls.size() == 1);
    CHECK(calls[0]["body"].value("voice", "") == "onyx");
    CHECK(calls[0]["body"].value("input", "") == text);
    CHECK(calls[0]["body"].value("response_format", "") == "wav");
}

TEST_CASE(
    "text to speech with the openai provider offers only its voices and defaults to the first",
    "[e2e][speech][openai]") {
    SpeechStack s;
    auto& stack = s.stack;
    const auto& key = stack.tenant().test_key;
    const auto refused =
        stack.request("POST", "/v1/audio/text-to-speech", {{"text", "Hi"}, {"voice", "en"}}, key);
    check_error_envelope(refused, 422, "VALIDATION_ERROR");
    CHECK(refused.json["error"]["details"]["fields"].contains("voice"));

    const auto job = wait_for_terminal_job(stack, key, submit_speech(stack, key, "Hello"));
    REQUIRE(job);
    CHECK(job->value("status", "") == "completed");
    const auto calls = s.speech_calls();
    REQUIRE(calls.size() == 1);
    CHECK(calls[0]["body"].value("voice", "") == "nova");
}

TEST_CASE("an openai speech refusal fails the job permanently", "[e2e][speech][openai]") {
    SpeechStack s;
    auto& stack = s.stack;
    const auto& key = stack.tenant().test_key;
    s.openai.control("POST", "/_control/behaviour", {{"mode", "refuse"}, {"count", 5}});
    const auto job = wait_for_terminal_job(stack, key, submit_speech(stack, key, "Anything"));
    REQUIRE(job);
    INFO(job->dump());
    CHECK(job->value("status", "") == "failed");
    CHECK((*job)["error"]["details"].value("code", "") == "CONTENT_POLICY_VIOLATION");
    CHECK(s.speech_calls().size() == 1);
}
