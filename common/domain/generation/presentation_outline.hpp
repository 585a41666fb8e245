// A deck outlined by a text provider (POST /presentations/generate with a topic): the chat that
// asks for it as JSON, and the strict reading of the answer into the slides a deck is laid out
// from. Pure functions of the text, so they are tested and fuzzed without a provider.
#pragma once

#include "common/domain/generation/presentation_request.hpp"
#include "common/domain/generation/text_provider.hpp"

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace squawk::generation {

inline constexpr size_t kMinOutlineBullets = 3;
inline constexpr size_t kMaxOutlineBullets = 5;

// An answer that is not the outline asked for; what() says what is wrong with it.
class MalformedOutline : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct PresentationOutline {
    std::string title;
    std::vector<SlideRequest> slides;  // text only: no images
};

// The chat a text provider answers with {"title": ..., "slides": [{"title", "bullets"}]} only.
std::vector<ChatMessage> outline_messages(const std::string& topic, const std::string& title,
                                          size_t slide_count);

// Reads `answer` (the JSON object, optionally inside a ```json fence): a non-empty title, exactly
// `slide_count` slides, each with a non-empty title and 3 to 5 non-empty bullets, every text
// within the bounds the API sets for given slides. Other members are ignored. Throws
// MalformedOutline.
PresentationOutline parse_outline(std::string_view answer, size_t slide_count);

}  // namespace squawk::generation
