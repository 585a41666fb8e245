// Speech to text from the outside: a recording made by the speech job is transcribed offline into
// words with times, read back by id within its workspace; media that cannot be heard is refused.
#include "tests/support/api_checks.hpp"
#include "tests/support/stack.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;

namespace {

std::string spoken_media(Stack& stack, const std::string& key, const std::string& text) {
    const auto job = wait_for_terminal_job(stack, key, submit_speech(stack, key, text));
    REQUIRE(job);
    REQUIRE(job->value("status", "") == "completed");
    return (*job)["result"].value("media_id", "");
}

}  // namespace

TEST_CASE("a spoken recording is transcribed into words with times and read back by id",
          "[e2e][transcripts]") {
    Stack stack;
    const auto& key = stack.tenant().test_key;
    const auto media_id =
        spoken_media(stack, key, "Hello world. This is a test of the transcription.");

    const auto accepted =
        stack.request("POST", "/v1/audio/speech-to-text", {{"media_id", media_id}}, key);
    check_success_envelope(accepted, 202);
    const std::string id = accepted.json["data"].value("id", "");
    CHECK(id.rfind("trn_", 0) == 0);
    const auto job = wait_for_terminal_job(stack, key, accepted.json["data"].value("job_id", ""),
                                           std::chrono::seconds(90));
    REQUIRE(job);
    INFO(job->dump());
    REQUIRE(job->value("status", "") == "completed");
    CHECK((*job)["result"].value("audio_id", "") == id);

    const auto transcript = stack.request("GET", "/v1/audio/" + id, nullptr, key);
    check_success_envelope(transcript, 200);
    const auto& data = transcript.json["data"];
    CHECK(data.value("language", "") == "en");
    CHECK(data.value("provider", "") == "pocketsphinx");
    CHECK(data.value("source_media_id", "") == media_id);
    const double duration = data.value("duration_seconds", 0.0);
    CHECK(duration > 1.0);
    const auto& words = data["words"];
    REQUIRE(words.size() >= 3);
    double last_end = 0;
    for (const auto& w : words) {
        CHECK(w.value("start", -1.0) >= last_end - 1e-6);
        CHECK(w.value("end", -1.0) >= w.value("start", 0.0));
        CHECK(w.value("end", 0.0) <= duration + 0.05);
        last_end = w.value("end", 0.0);
    }
    CHECK_FALSE(data.value("text", "").empty());

    const auto other = stack.create_tenant("other");
    check_not_found(stack.request("GET", "/v1/audio/" + id, nullptr, other.test_key));
}

TEST_CASE("speech to text refuses media it cannot hear, with the field named",
          "[e2e][transcripts]") {
    Stack stack(without_worker());
    const auto& key = stack.tenant().test_key;
    const auto missing =
        stack.request("POST", "/v1/audio/speech-to-text", {{"media_id", "med_nothing"}}, key);
    check_error_envelope(missing, 422, "VALIDATION_ERROR");
    CHECK(missing.json["error"]["details"]["fields"].contains("media_id"));

    const auto no_body =
        stack.request("POST", "/v1/audio/speech-to-text", nlohmann::json::object(), key);
    check_error_envelope(no_body, 422, "VALIDATION_ERROR");

    const auto language = stack.request("POST", "/v1/audio/speech-to-text",
                                        {{"media_id", "med_x"}, {"language", "xx"}, {"x", 1}}, key);
    check_error_envelope(language, 422, "VALIDATION_ERROR");
    CHECK(language.json["error"]["details"]["fields"].contains("x"));
    CHECK(stack.count("SELECT COUNT(*) FROM creations") == 0);
}
