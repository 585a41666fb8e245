#include "common/domain/generation/modality.hpp"

namespace squawk::generation {

std::string_view name_of(Modality modality) {
    switch (modality) {
        case Modality::text:
            return "text";
        case Modality::image:
            return "image";
        case Modality::speech:
            return "speech";
        case Modality::transcription:
            return "transcription";
        case Modality::video:
            return "video";
    }
    return "unknown";
}

}  // namespace squawk::generation
