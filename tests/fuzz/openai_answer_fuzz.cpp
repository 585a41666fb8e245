// OpenAI-style answers as any service (or anything posing as one) may send them: the first byte
// picks the HTTP status and a Retry-After, the rest is the body. Every answer either reads as a
// completion, image, transcript or image header, or raises ProviderError; nothing else escapes.
#include "common/domain/generation/provider_error.hpp"
#include "common/extensions/providers/openai/image_info.hpp"
#include "common/extensions/providers/openai/openai_answers.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

template <class Read>
void expect_only_provider_errors(Read read) {
    try {
        read();
    } catch (const squawk::generation::ProviderError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    namespace openai = squawk::providers::openai;
    static constexpr long kStatuses[] = {200, 200, 200, 0, 302, 400, 401, 404, 408, 429, 500, 503};
    static constexpr const char* kRetryAfter[] = {"", "7", "-1", "99999999999999999999"};
    if (size < 1) return 0;
    squawk::http::Response response;
    response.status = kStatuses[data[0] % 12];
    if (const char* wait = kRetryAfter[(data[0] / 12) % 4]; *wait)
        response.headers.emplace_back("retry-after", wait);
    response.body.assign(reinterpret_cast<const char*>(data + 1), size - 1);

    openai::image_info(response.body);
    expect_only_provider_errors([&] {
        const auto body = openai::accepted_body(response);
        expect_only_provider_errors([&] { openai::parse_completion(body); });
        expect_only_provider_errors([&] { openai::image_info(openai::parse_image(body)); });
        expect_only_provider_errors([&] {
            const auto transcript = openai::parse_transcription(body, "en");
            for (const auto& word : transcript.words)
                if (word.end_seconds < word.start_seconds) __builtin_trap();
        });
    });
    return 0;
}
