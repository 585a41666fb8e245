#include "common/domain/media/media_types.hpp"

#include <array>

namespace squawk::media {
namespace {

// libmagic 5.44's names; an MP4 or Ogg container is audio or video by its streams (the inspector
// decides), so those rows name their video or audio reading.
constexpr std::array kTypes{
    MediaType{"image/png", "image/png", "image", "png"},
    MediaType{"image/jpeg", "image/jpeg", "image", "jpg"},
    MediaType{"image/gif", "image/gif", "image", "gif"},
    MediaType{"image/webp", "image/webp", "image", "webp"},
    MediaType{"audio/x-wav", "audio/wav", "audio", "wav"},
    MediaType{"audio/wav", "audio/wav", "audio", "wav"},
    MediaType{"audio/mpeg", "audio/mpeg", "audio", "mp3"},
    MediaType{"audio/ogg", "audio/ogg", "audio", "ogg"},
    MediaType{"application/ogg", "audio/ogg", "audio", "ogg"},
    MediaType{"audio/flac", "audio/flac", "audio", "flac"},
    MediaType{"audio/x-flac", "audio/flac", "audio", "flac"},
    MediaType{"audio/x-m4a", "audio/mp4", "audio", "m4a"},
    MediaType{"audio/mp4", "audio/mp4", "audio", "m4a"},
    MediaType{"audio/x-hx-aac-adts", "audio/aac", "audio", "aac"},
    MediaType{"audio/aac", "audio/aac", "audio", "aac"},
    MediaType{"video/mp4", "video/mp4", "video", "mp4"},
    MediaType{"video/webm", "video/webm", "video", "webm"},
    MediaType{"video/quicktime", "video/quicktime", "video", "mov"},
    MediaType{"application/pdf", "application/pdf", "document", "pdf"},
};

constexpr std::array<std::string_view, 14> kAnnounceable{
    "image/png",  "image/jpeg", "image/gif",       "image/webp",     "audio/wav",
    "audio/mpeg", "audio/ogg",  "audio/flac",      "audio/mp4",      "audio/aac",
    "video/mp4",  "video/webm", "video/quicktime", "application/pdf"};

}  // namespace

const MediaType* accepted_type(std::string_view detected) {
    for (const auto& type : kTypes)
        if (type.detected == detected) return &type;
    return nullptr;
}

std::span<const std::string_view> announceable_mime_types() {
    return kAnnounceable;
}

}  // namespace squawk::media
