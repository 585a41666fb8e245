// What a generation provider produces. Each modality has its own provider interface (speech:
// speech_provider.hpp) and its own line in the [generation] configuration section.
#pragma once

#include <array>
#include <string_view>

namespace squawk::generation {

enum class Modality { text, image, speech, transcription, video };

inline constexpr std::array<Modality, 5> kModalities{
    Modality::text, Modality::image, Modality::speech, Modality::transcription, Modality::video};

// The name configuration and messages use: "text", "image", "speech", ...
std::string_view name_of(Modality modality);

}  // namespace squawk::generation
