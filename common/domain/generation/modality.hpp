// What a generation provider produces. Each modality has its own provider interface (speech:
// speech_provider.hpp) and its own line in the [generation] configuration section.
#pragma once

#include "common/core/names/wire_names.hpp"

namespace squawk::generation {

enum class Modality { text, image, speech, transcription, video };

// The names configuration and messages use, in the enum's order.
inline std::span<const char* const> wire_names(Modality) {
    static constexpr const char* names[] = {"text", "image", "speech", "transcription", "video"};
    return names;
}

}  // namespace squawk::generation
