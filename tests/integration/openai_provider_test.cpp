// The OpenAI-style providers against the fake service (tests/fakes/openai) on loopback: what they
// send, what they make of the answers, and which failures they say a retry may fix.
#include "common/core/http/http_client.hpp"
#include "common/domain/generation/provider_error.hpp"
#include "common/domain/generation/wav_info.hpp"
#include "common/extensions/providers/openai/image_info.hpp"
#include "common/extensions/providers/openai/openai_image_provider.hpp"
#include "common/extensions/providers/openai/openai_speech_provider.hpp"
#include "common/extensions/providers/openai/openai_text_provider.hpp"
#include "common/extensions/providers/openai/openai_transcription_provider.hpp"
#include "tests/support/fake_server.hpp"
#include "tests/support/free_port.hpp"
#include "tests/support/provider_calls.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

using namespace squawk;
using namespace squawk::providers::openai;
using generation::ProviderError;
namespace stdfs = std::filesystem;

namespace {

constexpr const char* kKey = "sk-test-key";

// The worker's calls without a worker: a client on its own loop thread, blocking work inline.
struct FakeOpenAi {
    testing::FakeServer server{"fake_openai", {"--api-key", kKey}};

    config::OpenAiSettings settings() const {
        config::OpenAiSettings s;
        s.base_url = server.url("/v1");
        s.api_key = kKey;
        s.timeout_seconds = 5;
        return s;
    }
    void next(const nlohmann::json& behaviour) {
        server.control("POST", "/_control/behaviour", behaviour);
    }
    nlohmann::json requests() { return server.control("GET", "/_control/requests"); }
};

generation::TextRequest article_request(std::string model = "") {
    generation::TextRequest request;
    request.model = std::move(model);
    request.messages = {{"system", "You write short articles."}, {"user", "urban beekeeping"}};
    request.max_tokens = 300;
    request.temperature = 0.5;
    request.idempotency_key = "job-42";
    return request;
}

class TempFile {
  public:
    explicit TempFile(const std::string& name)
        : path_(stdfs::temp_directory_path() /
                ("openai-test-" + std::to_string(::getpid()) + "-" + name)) {}
    ~TempFile() { stdfs::remove(path_); }
    const stdfs::path& path() const { return path_; }
    std::string bytes() const {
        std::ifstream in(path_, std::ios::binary);
        std::ostringstream out;
        out << in.rdbuf();
        return out.str();
    }

  private:
    stdfs::path path_;
};

}  // namespace

TEST_CASE("an openai completion returns the service's text, model and usage and sends the request",
          "[integration][openai]") {
    FakeOpenAi fake;
    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    const OpenAiTextProvider provider(fake.settings());
    const auto completion = provider.complete(article_request(), calls);

    CHECK(completion.text.starts_with("# Urban beekeeping\n"));
    CHECK(completion.text.find("the story of urban beekeeping") != std::string::npos);
    CHECK(completion.model == "gpt-4o-mini");
    CHECK(completion.prompt_tokens == 6);
    CHECK(completion.completion_tokens > 20);
    CHECK(completion.finish_reason == "stop");

    const auto sent = fake.requests();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["path"] == "/v1/chat/completions");
    CHECK(sent[0]["headers"]["authorization"] == std::string("Bearer ") + kKey);
    CHECK(sent[0]["headers"]["content-type"] == "application/json");
    CHECK(sent[0]["headers"]["idempotency-key"] == "job-42");
    const auto& body = sent[0]["body"];
    CHECK(body["model"] == "gpt-4o-mini");
    CHECK(body["messages"] ==
          nlohmann::json::parse(R"([{"role":"system","content":"You write short articles."},
                                    {"role":"user","content":"urban beekeeping"}])"));
    CHECK(body["max_tokens"] == 300);
    CHECK(body["temperature"] == 0.5);
}

TEST_CASE(
    "an openai completion uses the first configured model unless another allowed one is named",
    "[integration][openai]") {
    FakeOpenAi fake;
    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    auto settings = fake.settings();
    settings.text_models = {"gpt-4o-mini", "gpt-4o"};
    const OpenAiTextProvider provider(settings);
    CHECK(provider.models() == std::vector<std::string>{"gpt-4o-mini", "gpt-4o"});

    CHECK(provider.complete(article_request(), calls).model == "gpt-4o-mini");
    CHECK(provider.complete(article_request("gpt-4o"), calls).model == "gpt-4o");
    const auto sent = fake.requests();
    REQUIRE(sent.size() == 2);
    CHECK(sent[0]["body"]["model"] == "gpt-4o-mini");
    CHECK(sent[1]["body"]["model"] == "gpt-4o");

    // A model the deployment does not list is refused without a call.
    const auto refused =
        testing::failure_of([&] { provider.complete(article_request("o3"), calls); });
    CHECK_FALSE(refused.is_retryable());
    CHECK(refused.details()["code"] == "MODEL_NOT_AVAILABLE");
    CHECK(fake.requests().size() == 2);
}

TEST_CASE("an openai model the service does not have fails permanently as not available",
          "[integration][openai]") {
    testing::FakeServer server("fake_openai", {"--models", "gpt-4o"});
    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    config::OpenAiSettings settings;
    settings.base_url = server.url("/v1");
    const auto e = testing::failure_of(
        [&] { OpenAiTextProvider(settings).complete(article_request(), calls); });
    CHECK_FALSE(e.is_retryable());
    CHECK(e.details()["code"] == "MODEL_NOT_AVAILABLE");
}

TEST_CASE("a rate-limited openai call is retryable after the service's Retry-After",
          "[integration][openai]") {
    FakeOpenAi fake;
    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    fake.next({{"mode", "rate_limit"}, {"retry_after", 17}});
    const auto e = testing::failure_of(
        [&] { OpenAiTextProvider(fake.settings()).complete(article_request(), calls); });
    CHECK(e.is_retryable());
    CHECK(e.retry_after() == std::chrono::seconds(17));
}

TEST_CASE("an openai server error is retryable and the next call succeeds",
          "[integration][openai]") {
    FakeOpenAi fake;
    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    fake.next({{"mode", "server_error"}, {"count", 1}});
    const OpenAiTextProvider provider(fake.settings());
    CHECK(testing::failure_of([&] { provider.complete(article_request(), calls); }).is_retryable());
    CHECK(provider.complete(article_request(), calls).finish_reason == "stop");
}

TEST_CASE("an openai answer slower than the configured timeout is retryable",
          "[integration][openai]") {
    FakeOpenAi fake;
    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    fake.next({{"mode", "slow"}, {"delay_ms", 2500}});
    auto settings = fake.settings();
    settings.timeout_seconds = 1;
    const auto e = testing::failure_of(
        [&] { OpenAiTextProvider(settings).complete(article_request(), calls); });
    CHECK(e.is_retryable());
    CHECK(std::string(e.what()).find("in time") != std::string::npos);
}

TEST_CASE("an unreachable openai service is retryable", "[integration][openai]") {
    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    config::OpenAiSettings settings;
    settings.base_url = "http://127.0.0.1:" + std::to_string(testing::free_port()) + "/v1";
    CHECK(testing::failure_of([&] {
              OpenAiTextProvider(settings).complete(article_request(), calls);
          }).is_retryable());
}

TEST_CASE("a prompt the openai service refuses fails permanently as a content policy violation",
          "[integration][openai]") {
    FakeOpenAi fake;
    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    fake.next({{"mode", "refuse"}});
    const auto e = testing::failure_of(
        [&] { OpenAiTextProvider(fake.settings()).complete(article_request(), calls); });
    CHECK_FALSE(e.is_retryable());
    CHECK(e.details()["code"] == "CONTENT_POLICY_VIOLATION");
}

TEST_CASE("a key the openai service refuses fails permanently", "[integration][openai]") {
    FakeOpenAi fake;
    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    auto settings = fake.settings();
    settings.api_key = "sk-wrong";
    const auto wrong = testing::failure_of(
        [&] { OpenAiTextProvider(settings).complete(article_request(), calls); });
    CHECK_FALSE(wrong.is_retryable());
    CHECK(std::string(wrong.what()).find("refused the credentials") != std::string::npos);

    fake.next({{"mode", "bad_key"}});
    CHECK_FALSE(testing::failure_of([&] {
                    OpenAiTextProvider(fake.settings()).complete(article_request(), calls);
                }).is_retryable());
}

TEST_CASE("a malformed openai answer is retryable", "[integration][openai]") {
    FakeOpenAi fake;
    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    fake.next({{"mode", "malformed"}});
    const auto e = testing::failure_of(
        [&] { OpenAiTextProvider(fake.settings()).complete(article_request(), calls); });
    CHECK(e.is_retryable());
    CHECK(std::string(e.what()).find("malformed answer") != std::string::npos);
}

TEST_CASE("an openai image is written as a PNG or a JPEG of the requested size",
          "[integration][openai]") {
    FakeOpenAi fake;
    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    const OpenAiImageProvider provider(fake.settings());
    CHECK(provider.templates().empty());
    CHECK(provider.models() == std::vector<std::string>{"gpt-image-1"});

    generation::ImageRequest request;
    request.prompt = "a lighthouse at dawn";
    request.idempotency_key = "img-1";
    const auto [format, size, mime] =
        GENERATE(std::make_tuple(generation::ImageFormat::png, generation::ImageSize{1080, 1350},
                                 "image/png"),
                 std::make_tuple(generation::ImageFormat::jpeg, generation::ImageSize{1200, 628},
                                 "image/jpeg"));
    request.format = format;
    request.size = size;
    const TempFile output("image");
    const auto image = provider.generate(request, output.path(), calls);
    CHECK(image.width == size.width);
    CHECK(image.height == size.height);
    CHECK(image.mime_type == mime);
    CHECK(image.model == "gpt-image-1");

    const auto written = image_info(output.bytes());
    REQUIRE(written);
    CHECK(written->format == format);
    CHECK(written->width == size.width);
    CHECK(written->height == size.height);

    const auto sent = fake.requests().back();
    CHECK(sent["path"] == "/v1/images/generations");
    CHECK(sent["headers"]["idempotency-key"] == "img-1");
    CHECK(sent["body"]["prompt"] == "a lighthouse at dawn");
    CHECK(sent["body"]["size"] == std::to_string(size.width) + "x" + std::to_string(size.height));
    CHECK(sent["body"]["n"] == 1);
    CHECK(sent["body"]["response_format"] == "b64_json");
}

TEST_CASE("an openai image request names its template, empty prompt or unknown size as problems",
          "[integration][openai]") {
    const OpenAiImageProvider provider{config::OpenAiSettings{}};
    generation::ImageRequest request;
    request.template_name = "quote";
    request.size = {1024, 1024};
    std::vector<std::string> fields;
    for (const auto& problem : provider.check(request)) fields.push_back(problem.field);
    CHECK(fields == std::vector<std::string>{"template", "prompt", "size"});
}

TEST_CASE("an openai transcript has the recording's words with their times",
          "[integration][openai]") {
    FakeOpenAi fake;
    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    const OpenAiTranscriptionProvider provider(fake.settings());
    CHECK(std::find(provider.languages().begin(), provider.languages().end(), "de") !=
          provider.languages().end());
    const TempFile input("speech.wav");
    std::ofstream(input.path(), std::ios::binary) << std::string(1001, 'x');

    generation::TranscriptionRequest request;
    request.language = "de";
    request.idempotency_key = "stt-1";
    const auto transcript = provider.transcribe(input.path(), request, calls);

    // 1001 bytes: the fake's words start at its vocabulary's 1001 % 12 = 5th and run 4 + 1001 % 5.
    CHECK(transcript.text == "show today we talk about");
    REQUIRE(transcript.words.size() == 5);
    CHECK(transcript.words[0].word == "show");
    CHECK(transcript.words[4].word == "about");
    for (size_t i = 1; i < transcript.words.size(); ++i)
        CHECK(transcript.words[i].start_seconds >= transcript.words[i - 1].end_seconds);
    CHECK(transcript.words[4].end_seconds == Approx(2.4));
    CHECK(transcript.duration_seconds == Approx(2.8));
    CHECK(transcript.language == "de");
    CHECK(transcript.model == "whisper-1");

    const auto sent = fake.requests().back();
    CHECK(sent["path"] == "/v1/audio/transcriptions");
    CHECK(sent["headers"]["idempotency-key"] == "stt-1");
    CHECK(sent["fields"]["model"] == "whisper-1");
    CHECK(sent["fields"]["response_format"] == "verbose_json");
    CHECK(sent["fields"]["timestamp_granularities[]"] == "word");
    CHECK(sent["fields"]["language"] == "de");
    CHECK(sent["files"]["file"]["filename"] == input.path().filename().string());
    CHECK(sent["files"]["file"]["content_type"] == "audio/wav");
    CHECK(sent["files"]["file"]["bytes"] == 1001);
}

namespace {

generation::SpeechRequest speech_request(std::string text, std::string voice = "nova") {
    generation::SpeechRequest request;
    request.text = std::move(text);
    request.voice = std::move(voice);
    return request;
}

}  // namespace

TEST_CASE("a set stop flag ends an openai call before anything is sent", "[integration][openai]") {
    FakeOpenAi fake;
    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    calls.request_stop();
    CHECK_THROWS_AS(OpenAiTextProvider(fake.settings()).complete(article_request(), calls),
                    generation::ProviderStopped);
    generation::ImageRequest image;
    image.prompt = "a lighthouse";
    const TempFile output("stopped");
    CHECK_THROWS_AS(OpenAiImageProvider(fake.settings()).generate(image, output.path(), calls),
                    generation::ProviderStopped);
    CHECK_THROWS_AS(OpenAiSpeechProvider(fake.settings())
                        .synthesize(speech_request("Hi"), output.path(), calls),
                    generation::ProviderStopped);
    CHECK(fake.requests().empty());
}

TEST_CASE("an openai provider in a process without an HTTP client fails retryably",
          "[integration][openai]") {
    testing::DirectCalls calls;
    CHECK(testing::failure_of([&] {
              OpenAiTextProvider(config::OpenAiSettings{}).complete(article_request(), calls);
          }).is_retryable());
}

namespace {

// The fake speaks 0.05 s per character at speed 1.0 (tests/fakes/openai/speech.cpp).
constexpr double kFakeSecondsPerCharacter = 0.05;

}  // namespace

TEST_CASE("openai speech is written as the service's WAV and its length is measured",
          "[integration][openai]") {
    FakeOpenAi fake;
    const OpenAiSpeechProvider provider(fake.settings());
    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    const TempFile output("speech.wav");
    const std::string text = "Forty characters of text to be spoken!!";
    const auto speech = provider.synthesize(speech_request(text), output.path(), calls);

    const auto wav = generation::parse_wav(output.bytes());
    REQUIRE(wav);
    CHECK(wav->sample_rate == 24000);
    CHECK(speech.duration_seconds == Approx(text.size() * kFakeSecondsPerCharacter).margin(0.001));
    CHECK(wav->duration_seconds == Approx(speech.duration_seconds));

    const auto sent = fake.requests();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["path"] == "/v1/audio/speech");
    CHECK(sent[0]["headers"]["authorization"] == std::string("Bearer ") + kKey);
    CHECK(sent[0]["body"] ==
          nlohmann::json{
              {"model", "tts-1"}, {"input", text}, {"voice", "nova"}, {"response_format", "wav"}});
}

TEST_CASE("openai speech offers the configured voices and speaks the default with the first",
          "[integration][openai]") {
    FakeOpenAi fake;
    auto settings = fake.settings();
    settings.speech_voices = {"shimmer", "onyx"};
    const OpenAiSpeechProvider provider(settings);
    const auto voices = provider.voices();
    CHECK(std::vector<std::string_view>(voices.begin(), voices.end()) ==
          std::vector<std::string_view>{"shimmer", "onyx"});

    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    const TempFile output("default-voice.wav");
    auto request = speech_request("Hello there", std::string(generation::kDefaultVoice));
    request.words_per_minute = 350;
    provider.synthesize(request, output.path(), calls);
    const auto sent = fake.requests();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["body"]["voice"] == "shimmer");
    CHECK(sent[0]["body"]["speed"] == 2.0);

    const auto unknown = testing::failure_of(
        [&] { provider.synthesize(speech_request("Hi", "alloy"), output.path(), calls); });
    CHECK_FALSE(unknown.is_retryable());
    CHECK(unknown.details()["field"] == "voice");
    CHECK(fake.requests().size() == 1);
}

TEST_CASE("openai speech failures are retryable or permanent as the service's answer says",
          "[integration][openai]") {
    FakeOpenAi fake;
    const OpenAiSpeechProvider provider(fake.settings());
    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    const TempFile output("failures.wav");
    const auto attempt = [&] {
        return testing::failure_of(
            [&] { provider.synthesize(speech_request("Some words"), output.path(), calls); });
    };

    fake.next({{"mode", "rate_limit"}, {"retry_after", 9}});
    const auto limited = attempt();
    CHECK(limited.is_retryable());
    CHECK(limited.retry_after() == std::chrono::seconds(9));

    fake.next({{"mode", "server_error"}});
    CHECK(attempt().is_retryable());

    fake.next({{"mode", "malformed"}});
    CHECK(std::string(attempt().what()).find("malformed answer") != std::string::npos);

    fake.next({{"mode", "refuse"}});
    const auto refused = attempt();
    CHECK_FALSE(refused.is_retryable());
    CHECK(refused.details()["code"] == "CONTENT_POLICY_VIOLATION");

    fake.next({{"mode", "bad_key"}});
    CHECK_FALSE(attempt().is_retryable());

    const auto too_long = testing::failure_of([&] {
        provider.synthesize(speech_request(std::string(kMaxSpeechInputChars + 1, 'a')),
                            output.path(), calls);
    });
    CHECK_FALSE(too_long.is_retryable());
    CHECK(too_long.details()["field"] == "text");
}

TEST_CASE("slow openai speech is retryable after the timeout", "[integration][openai]") {
    FakeOpenAi fake;
    auto settings = fake.settings();
    settings.timeout_seconds = 1;
    const OpenAiSpeechProvider provider(settings);
    const TempFile output("slow.wav");
    testing::DirectCalls calls(testing::DirectCalls::Http::own_client);
    fake.next({{"mode", "slow"}, {"delay_ms", 2500}});
    CHECK(testing::failure_of([&] {
              provider.synthesize(speech_request("Slowly"), output.path(), calls);
          }).is_retryable());
}
