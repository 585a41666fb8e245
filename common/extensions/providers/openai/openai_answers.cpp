#include "common/extensions/providers/openai/openai_answers.hpp"

#include "common/core/crypto/base64.hpp"
#include "common/core/text/ascii.hpp"
#include "common/domain/generation/provider_error.hpp"
#include "common/extensions/providers/openai/transcription_languages.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace squawk::providers::openai {
namespace {

using generation::ProviderError;
using nlohmann::json;

constexpr size_t kMessageLimit = 300;
constexpr long long kLongestRetryAfter = 3600;

[[noreturn]] void malformed(const std::string& what) {
    throw ProviderError::retryable("malformed answer from the provider: " + what);
}

// The member `key` of `object`, or null when `object` is no object or has no such non-null member.
const json* member(const json& object, const char* key) {
    if (!object.is_object()) return nullptr;
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::string text_member(const json& object, const char* key) {
    const json* value = member(object, key);
    if (!value) return {};
    if (value->is_string()) return value->get<std::string>();
    // Some servers put the HTTP status in "code".
    return value->is_primitive() ? value->dump() : std::string();
}

std::optional<long long> whole_number(std::string_view text) {
    long long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return value;
}

// {"error": {"message", "type", "code", "param"}}; llama.cpp and others sometimes send
// {"error": "text"} or no JSON at all.
struct ApiError {
    std::string message;
    std::string type;
    std::string code;
    std::string param;
};

ApiError api_error(const http::Response& response) {
    ApiError e;
    const auto body = json::parse(response.body, nullptr, false);
    if (const json* error = member(body, "error")) {
        if (error->is_string()) {
            e.message = error->get<std::string>();
        } else {
            e.message = text_member(*error, "message");
            e.type = text_member(*error, "type");
            e.code = text_member(*error, "code");
            e.param = text_member(*error, "param");
        }
    }
    if (e.message.empty()) e.message = "HTTP " + std::to_string(response.status);
    if (e.message.size() > kMessageLimit) e.message = e.message.substr(0, kMessageLimit) + "...";
    return e;
}

std::chrono::seconds retry_after(const http::Response& response) {
    const auto header = response.header("retry-after");
    const auto seconds = header ? whole_number(*header) : std::nullopt;
    if (!seconds || *seconds < 0) return std::chrono::seconds(0);
    return std::chrono::seconds(std::min(*seconds, kLongestRetryAfter));
}

bool names_content_policy(const ApiError& e) {
    const std::string tags = text::ascii_lowercase(e.code) + " " + text::ascii_lowercase(e.type);
    for (const char* word : {"content_policy", "moderation", "safety", "content_filter"})
        if (tags.find(word) != std::string::npos) return true;
    return false;
}

bool names_missing_model(long status, const ApiError& e) {
    return e.code == "model_not_found" ||
           (status == 404 && text::ascii_lowercase(e.message).find("model") != std::string::npos);
}

[[noreturn]] void refused_content(const std::string& message) {
    throw ProviderError::permanent("the provider refused the content: " + message,
                                   {{"code", "CONTENT_POLICY_VIOLATION"}});
}

[[noreturn]] void fail(const http::Response& response) {
    if (response.status == 0) {
        if (response.timed_out)
            throw ProviderError::retryable("the provider did not answer in time");
        throw ProviderError::retryable("could not reach the provider: " + response.error);
    }
    const long status = response.status;
    const ApiError e = api_error(response);
    if (status == 429) {
        if (e.code == "insufficient_quota")
            throw ProviderError::permanent("the provider's quota is used up: " + e.message);
        throw ProviderError::retryable("the provider is rate limiting: " + e.message,
                                       retry_after(response));
    }
    if (status >= 500 || status == 408 || status == 409)
        throw ProviderError::retryable(
            "the provider failed (HTTP " + std::to_string(status) + "): " + e.message,
            retry_after(response));
    if (status == 401 || status == 403)
        throw ProviderError::permanent("the provider refused the credentials: " + e.message);
    if (status >= 400 && names_content_policy(e)) refused_content(e.message);
    if (status >= 400 && names_missing_model(status, e))
        throw ProviderError::permanent("the provider does not offer the model: " + e.message,
                                       {{"code", "MODEL_NOT_AVAILABLE"}});
    json details{{"status", status}};
    if (!e.param.empty()) details["param"] = e.param;
    if (status >= 400)
        throw ProviderError::permanent("the provider rejected the request: " + e.message,
                                       std::move(details));
    // Redirects are not followed: base_url points somewhere else.
    throw ProviderError::permanent(
        "the provider answered HTTP " + std::to_string(status) + " (check base_url)",
        std::move(details));
}

long long token_count(const json& usage, const char* key) {
    const json* value = member(usage, key);
    if (!value) return 0;
    if (!value->is_number_integer() || value->get<long long>() < 0)
        malformed(std::string("usage.") + key + " is not a count");
    return value->get<long long>();
}

double seconds_member(const json& word, const char* key) {
    const json* value = member(word, key);
    if (!value || !value->is_number()) malformed(std::string("a word has no ") + key + " time");
    const double seconds = value->get<double>();
    if (!std::isfinite(seconds) || seconds < 0) malformed(std::string("a word's ") + key + " time");
    return seconds;
}

std::vector<generation::TranscribedWord> timed_words(const json& words) {
    if (!words.is_array()) malformed("words is not a list");
    std::vector<generation::TranscribedWord> out;
    out.reserve(words.size());
    for (const auto& word : words) {
        const json* text = member(word, "word");
        if (!text || !text->is_string()) malformed("a word has no text");
        generation::TranscribedWord w{std::string(text::trim_whitespace(text->get<std::string>())),
                                      seconds_member(word, "start"), seconds_member(word, "end")};
        if (w.end_seconds < w.start_seconds) malformed("a word ends before it starts");
        if (!w.word.empty()) out.push_back(std::move(w));
    }
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.start_seconds < b.start_seconds;
    });
    return out;
}

}  // namespace

const std::string& accepted_bytes(const http::Response& response) {
    if (response.status < 200 || response.status > 299) fail(response);
    const auto announced = response.header("content-length");
    const auto length = announced ? whole_number(*announced) : std::nullopt;
    if (length && *length > static_cast<long long>(response.body.size()))
        throw ProviderError::retryable("the provider's answer was cut short (" +
                                       std::to_string(response.body.size()) + " of " + *announced +
                                       " bytes)");
    return response.body;
}

json accepted_body(const http::Response& response) {
    auto body = json::parse(accepted_bytes(response), nullptr, false);
    if (!body.is_object()) malformed("not a JSON object");
    return body;
}

generation::TextCompletion parse_completion(const json& body) {
    const json* choices = member(body, "choices");
    if (!choices || !choices->is_array() || choices->empty()) malformed("no choices");
    const json& choice = (*choices)[0];
    generation::TextCompletion completion;
    completion.finish_reason = text_member(choice, "finish_reason");
    if (completion.finish_reason == "content_filter")
        refused_content("the completion was filtered");
    const json* message = member(choice, "message");
    if (!message || !message->is_object()) malformed("choices[0] has no message");
    const json* content = member(*message, "content");
    if (!content) {
        const std::string refusal = text_member(*message, "refusal");
        if (!refusal.empty()) refused_content(refusal.substr(0, kMessageLimit));
        malformed("choices[0].message has no content");
    }
    if (!content->is_string()) malformed("choices[0].message.content is not text");
    completion.text = content->get<std::string>();
    completion.model = text_member(body, "model");
    if (const json* usage = member(body, "usage")) {
        completion.prompt_tokens = token_count(*usage, "prompt_tokens");
        completion.completion_tokens = token_count(*usage, "completion_tokens");
    }
    return completion;
}

std::string parse_image(const json& body) {
    const json* data = member(body, "data");
    if (!data || !data->is_array() || data->empty()) malformed("no data");
    const json& image = (*data)[0];
    const json* encoded = member(image, "b64_json");
    if (!encoded && member(image, "url"))
        throw ProviderError::permanent(
            "the provider answered with an image URL; it must support response_format b64_json");
    if (!encoded || !encoded->is_string() || encoded->get_ref<const std::string&>().empty())
        malformed("data[0] has no b64_json");
    auto bytes = crypto::base64_decode(encoded->get_ref<const std::string&>());
    if (!bytes) malformed("data[0].b64_json is not base64");
    return std::move(*bytes);
}

generation::Transcript parse_transcription(const json& body, std::string_view requested_language) {
    const json* text = member(body, "text");
    if (!text || !text->is_string()) malformed("no text");
    generation::Transcript transcript;
    if (const json* words = member(body, "words"))
        transcript.words = timed_words(*words);
    else if (!text::trim_whitespace(text->get_ref<const std::string&>()).empty())
        throw ProviderError::permanent(
            "the provider gave no word timestamps; it must support timestamp_granularities word");
    for (const auto& word : transcript.words)
        transcript.text += (transcript.text.empty() ? "" : " ") + word.word;
    if (const json* duration = member(body, "duration")) {
        if (!duration->is_number() || !std::isfinite(duration->get<double>()) ||
            duration->get<double>() < 0)
            malformed("duration is not a length of time");
        transcript.duration_seconds = duration->get<double>();
    }
    for (const auto& word : transcript.words)
        transcript.duration_seconds = std::max(transcript.duration_seconds, word.end_seconds);
    transcript.language = language_code(text_member(body, "language"));
    if (transcript.language.empty()) transcript.language = std::string(requested_language);
    return transcript;
}

}  // namespace squawk::providers::openai
