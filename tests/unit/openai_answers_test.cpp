// How the OpenAI providers read answers, without a network: each error status and body the API
// documents (and some it does not) becomes the right retryable or permanent failure, and success
// bodies are checked field by field before anything is believed.
#include "common/extensions/providers/openai/openai_answers.hpp"
#include "common/core/config/config_error.hpp"
#include "common/core/config/section_schema.hpp"
#include "common/core/crypto/base64.hpp"
#include "common/domain/generation/provider_error.hpp"
#include "common/extensions/providers/openai/image_info.hpp"
#include "common/extensions/providers/openai/openai_settings.hpp"
#include "tests/support/provider_calls.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::providers::openai;
using generation::ProviderError;
using nlohmann::json;

namespace {

http::Response answer(long status, std::string body, http::HeaderList headers = {}) {
    http::Response r;
    r.status = status;
    r.body = std::move(body);
    r.headers = std::move(headers);
    return r;
}

std::string api_error(const std::string& message, const std::string& type,
                      const json& code = nullptr, const json& param = nullptr) {
    return json{{"error", {{"message", message}, {"type", type}, {"code", code}, {"param", param}}}}
        .dump();
}

ProviderError failure_of_answer(const http::Response& response) {
    return testing::failure_of([&] { accepted_body(response); });
}

json completion(const json& message, const json& finish_reason = "stop") {
    return {{"model", "gpt-4o-mini-2024-07-18"},
            {"choices", {{{"index", 0}, {"message", message}, {"finish_reason", finish_reason}}}},
            {"usage", {{"prompt_tokens", 12}, {"completion_tokens", 34}}}};
}

}  // namespace

TEST_CASE("an openai success answer is its JSON object", "[unit][openai]") {
    CHECK(accepted_body(answer(200, R"({"a":1})")) == json{{"a", 1}});
}

TEST_CASE("an openai success answer that is no JSON object, or cut short, is retryable",
          "[unit][openai]") {
    for (const char* body : {"", "not json", "[1,2]", "\"text\"", R"({"choices":[)"}) {
        const auto e = failure_of_answer(answer(200, body));
        CHECK(e.is_retryable());
        CHECK(std::string(e.what()).find("malformed answer") != std::string::npos);
    }
    const auto cut = failure_of_answer(answer(200, R"({"a":1})", {{"content-length", "900"}}));
    CHECK(cut.is_retryable());
    CHECK(std::string(cut.what()).find("cut short") != std::string::npos);
}

TEST_CASE("an openai call with no answer is retryable", "[unit][openai]") {
    auto timed_out = answer(0, "");
    timed_out.timed_out = true;
    timed_out.error = "Timeout was reached";
    CHECK(failure_of_answer(timed_out).is_retryable());
    auto refused = answer(0, "");
    refused.error = "Couldn't connect to server";
    const auto e = failure_of_answer(refused);
    CHECK(e.is_retryable());
    CHECK(std::string(e.what()).find("Couldn't connect") != std::string::npos);
}

TEST_CASE("an openai 429 is retryable after its Retry-After seconds", "[unit][openai]") {
    const auto body = api_error("Rate limit reached", "requests", "rate_limit_exceeded");
    const auto e = failure_of_answer(answer(429, body, {{"retry-after", "12"}}));
    CHECK(e.is_retryable());
    CHECK(e.retry_after() == std::chrono::seconds(12));
    CHECK(std::string(e.what()).find("Rate limit reached") != std::string::npos);
    // An HTTP date or nonsense is no number of seconds; an absurd wait is capped.
    CHECK(failure_of_answer(answer(429, body, {{"retry-after", "Wed, 21 Oct 2015 07:28:00 GMT"}}))
              .retry_after() == std::chrono::seconds(0));
    CHECK(failure_of_answer(answer(429, body, {{"retry-after", "-5"}})).retry_after() ==
          std::chrono::seconds(0));
    CHECK(failure_of_answer(answer(429, body, {{"retry-after", "99999999999"}})).retry_after() ==
          std::chrono::hours(1));
}

TEST_CASE("an openai 429 for a used-up quota is permanent", "[unit][openai]") {
    const auto e =
        failure_of_answer(answer(429, api_error("You exceeded your current quota",
                                                "insufficient_quota", "insufficient_quota")));
    CHECK_FALSE(e.is_retryable());
}

TEST_CASE("openai 5xx, 408 and 409 answers are retryable", "[unit][openai]") {
    for (long status : {500L, 502L, 503L, 504L, 408L, 409L}) {
        const auto e = failure_of_answer(answer(status, "<html>busy</html>"));
        CHECK(e.is_retryable());
        CHECK(std::string(e.what()).find(std::to_string(status)) != std::string::npos);
    }
    CHECK(failure_of_answer(answer(503, "", {{"retry-after", "3"}})).retry_after() ==
          std::chrono::seconds(3));
}

TEST_CASE("an openai refusal on content grounds is a permanent content policy violation",
          "[unit][openai]") {
    for (const auto& body : {api_error("rejected by our safety system", "invalid_request_error",
                                       "content_policy_violation", "prompt"),
                             api_error("Your request was rejected", "image_generation_user_error",
                                       "moderation_blocked"),
                             api_error("filtered", "content_filter")}) {
        const auto e = failure_of_answer(answer(400, body));
        CHECK_FALSE(e.is_retryable());
        CHECK(e.details()["code"] == "CONTENT_POLICY_VIOLATION");
    }
}

TEST_CASE("openai 401 and 403 are permanent credential refusals", "[unit][openai]") {
    for (long status : {401L, 403L}) {
        const auto e = failure_of_answer(answer(
            status,
            api_error("Incorrect API key provided", "invalid_request_error", "invalid_api_key")));
        CHECK_FALSE(e.is_retryable());
        CHECK(std::string(e.what()) ==
              "the provider refused the credentials: Incorrect API key provided");
    }
}

TEST_CASE("an openai unknown model is permanent and not available, in OpenAI's and Ollama's words",
          "[unit][openai]") {
    for (const auto& body :
         {api_error("The model `gpt-9` does not exist", "invalid_request_error", "model_not_found"),
          json{{"error", "model \"llama9\" not found, try pulling it first"}}.dump()}) {
        const auto e = failure_of_answer(answer(404, body));
        CHECK_FALSE(e.is_retryable());
        CHECK(e.details()["code"] == "MODEL_NOT_AVAILABLE");
    }
}

TEST_CASE("other openai 4xx are permanent with the service's message and parameter",
          "[unit][openai]") {
    const auto e = failure_of_answer(
        answer(400, api_error("Invalid size", "invalid_request_error", nullptr, "size")));
    CHECK_FALSE(e.is_retryable());
    CHECK(std::string(e.what()) == "the provider rejected the request: Invalid size");
    CHECK(e.details() == json{{"status", 400}, {"param", "size"}});
    // A redirect means base_url points elsewhere.
    CHECK_FALSE(failure_of_answer(answer(302, "")).is_retryable());
}

TEST_CASE("hostile openai error bodies still give a bounded reason", "[unit][openai]") {
    const auto long_message = api_error(std::string(100000, 'x'), "server_error");
    CHECK(std::string(failure_of_answer(answer(500, long_message)).what()).size() < 500);
    for (const char* body : {R"({"error":[1,2]})", R"({"error":{"message":{"deep":1}}})",
                             R"({"error":{"code":123,"type":null}})", "\xff\xfe", "{\"error\":"}) {
        const auto e = failure_of_answer(answer(400, body));
        CHECK_FALSE(e.is_retryable());
        CHECK(std::string(e.what()).find("HTTP 400") != std::string::npos);
    }
}

TEST_CASE("an openai completion gives its text, model, token counts and finish reason",
          "[unit][openai]") {
    const auto c = parse_completion(completion({{"role", "assistant"}, {"content", "# Hi"}}));
    CHECK(c.text == "# Hi");
    CHECK(c.model == "gpt-4o-mini-2024-07-18");
    CHECK(c.prompt_tokens == 12);
    CHECK(c.completion_tokens == 34);
    CHECK(c.finish_reason == "stop");

    auto without_usage = completion({{"content", "x"}});
    without_usage.erase("usage");
    CHECK(parse_completion(without_usage).completion_tokens == 0);
}

TEST_CASE("an openai completion without usable content is retryable", "[unit][openai]") {
    auto negative = completion({{"content", "x"}});
    negative["usage"]["prompt_tokens"] = -1;
    for (const auto& body :
         {json::object(), json{{"choices", json::array()}}, json{{"choices", {1}}},
          completion(nullptr), completion({{"content", 42}}), completion({{"role", "assistant"}}),
          negative}) {
        const auto e = testing::failure_of([&] { parse_completion(body); });
        CHECK(e.is_retryable());
    }
}

TEST_CASE("a filtered or refused openai completion is a content policy violation",
          "[unit][openai]") {
    for (const auto& body : {completion({{"content", "partial"}}, "content_filter"),
                             completion({{"content", nullptr}, {"refusal", "I can't help"}})}) {
        const auto e = testing::failure_of([&] { parse_completion(body); });
        CHECK_FALSE(e.is_retryable());
        CHECK(e.details()["code"] == "CONTENT_POLICY_VIOLATION");
    }
}

TEST_CASE("an openai image answer gives the decoded bytes of b64_json", "[unit][openai]") {
    CHECK(parse_image({{"data", {{{"b64_json", "aGVsbG8="}}}}}) == "hello");
    CHECK(testing::failure_of([] {
              parse_image({{"data", {{{"b64_json", "aGV$bG8="}}}}});
          }).is_retryable());
    CHECK(testing::failure_of([] { parse_image({{"data", json::array()}}); }).is_retryable());
    CHECK(testing::failure_of([] { parse_image({{"data", {{{"b64_json", 5}}}}}); }).is_retryable());
    // A service that hands out URLs instead will do so every time.
    CHECK_FALSE(testing::failure_of([] {
                    parse_image({{"data", {{{"url", "https://x/y.png"}}}}});
                }).is_retryable());
}

TEST_CASE("base64 decoding for openai images takes padded and unpadded text only",
          "[unit][openai]") {
    CHECK(crypto::base64_decode("") == "");
    CHECK(crypto::base64_decode("Zg==") == "f");
    CHECK(crypto::base64_decode("Zg") == "f");
    CHECK(crypto::base64_decode("Zm8=") == "fo");
    CHECK(crypto::base64_decode("Zm9v") == "foo");
    CHECK(crypto::base64_decode("+/+/") == std::string("\xfb\xff\xbf", 3));
    for (const char* bad : {"Z", "Zg=", "Z===", "Zm9v\n", "-_8", "Zg==Zg=="})
        CHECK_FALSE(crypto::base64_decode(bad));
}

TEST_CASE("openai image bytes are recognised as PNG or JPEG with their size", "[unit][openai]") {
    std::string png("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\x04\x38\0\0\x05\x46", 24);
    const auto p = image_info(png);
    REQUIRE(p);
    CHECK(p->format == generation::ImageFormat::png);
    CHECK(p->width == 1080);
    CHECK(p->height == 1350);

    // SOI, an APP0 segment, then a baseline SOF0: precision, height 628, width 1200.
    const std::string jpeg(
        "\xFF\xD8\xFF\xE0\x00\x04\x00\x00\xFF\xC0\x00\x0B\x08\x02\x74\x04\xB0"
        "\x01\x01\x11\x00",
        21);
    const auto j = image_info(jpeg);
    REQUIRE(j);
    CHECK(j->format == generation::ImageFormat::jpeg);
    CHECK(j->width == 1200);
    CHECK(j->height == 628);

    for (size_t cut = 0; cut < jpeg.size() - 4; ++cut) CHECK_FALSE(image_info(jpeg.substr(0, cut)));
    CHECK_FALSE(image_info(png.substr(0, 20)));
    CHECK_FALSE(image_info("GIF89a......................"));
    // A segment length running past the end, and a zero width.
    CHECK_FALSE(image_info(std::string("\xFF\xD8\xFF\xE0\xFF\xFF\x00", 7)));
    png[19] = 0;
    png[18] = 0;
    CHECK_FALSE(image_info(png));
}

TEST_CASE("an openai transcript gives its words in time order with the language's code",
          "[unit][openai]") {
    const auto t = parse_transcription(
        json::parse(R"({"text":" Hello, world.","language":"english","duration":2.0,
                        "words":[{"word":" world","start":0.6,"end":1.0},
                                 {"word":"Hello","start":0.0,"end":0.5},
                                 {"word":" ","start":1.0,"end":1.0}]})"),
        "de");
    CHECK(t.text == "Hello world");
    REQUIRE(t.words.size() == 2);
    CHECK(t.words[0].word == "Hello");
    CHECK(t.words[1].start_seconds == 0.6);
    CHECK(t.language == "en");
    CHECK(t.duration_seconds == 2.0);
}

TEST_CASE("an openai transcript's duration covers its words and an unknown language falls back",
          "[unit][openai]") {
    const auto t = parse_transcription(
        json::parse(
            R"({"text":"a","language":"klingon","words":[{"word":"a","start":1,"end":3}]})"),
        "fr");
    CHECK(t.duration_seconds == 3.0);
    CHECK(t.language == "fr");
    CHECK(parse_transcription(json{{"text", ""}}, "en").words.empty());
}

TEST_CASE("an openai transcript with impossible words is retryable, one without timings permanent",
          "[unit][openai]") {
    for (const char* body : {R"({})", R"({"text":1})", R"({"text":"a","words":{}})",
                             R"({"text":"a","words":[{"word":"a","start":-1,"end":1}]})",
                             R"({"text":"a","words":[{"word":"a","start":2,"end":1}]})",
                             R"({"text":"a","words":[{"word":"a","start":"0","end":1}]})",
                             R"({"text":"a","words":[{"start":0,"end":1}]})",
                             R"({"text":"a","duration":-3,"words":[]})"}) {
        INFO(body);
        CHECK(testing::failure_of([&] {
                  parse_transcription(json::parse(body), "en");
              }).is_retryable());
    }
    CHECK_FALSE(testing::failure_of([] {
                    parse_transcription(json{{"text", "words but no times"}}, "en");
                }).is_retryable());
}

TEST_CASE("openai settings read comma-separated model lists and an http base URL",
          "[unit][openai]") {
    const auto schema = config::openai_schema();
    const auto set = [&](config::OpenAiSettings& s, const std::string& key,
                         const config::Scalar& value) {
        for (const auto& row : schema.rows)
            if (row.key == key) return row.assign(s, value, "providers.openai." + key);
        FAIL("no key " << key);
    };
    config::OpenAiSettings s;
    set(s, "text_models", std::string(" llama3.1:8b , qwen2.5,mistral "));
    CHECK(s.text_models == std::vector<std::string>{"llama3.1:8b", "qwen2.5", "mistral"});
    set(s, "base_url", std::string("http://127.0.0.1:11434/v1/"));
    CHECK(s.base_url == "http://127.0.0.1:11434/v1");
    for (const char* bad : {"", "a,,b", "a,", " , "})
        CHECK_THROWS_AS(set(s, "image_models", std::string(bad)), config::ConfigError);
    CHECK_THROWS_AS(set(s, "base_url", std::string("ftp://example.com")), config::ConfigError);
}
