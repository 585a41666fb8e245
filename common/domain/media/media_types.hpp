// The kinds of file the media library accepts: each type libmagic may name, the type we store
// and serve it as, its kind and its file extension.
#pragma once

#include <span>
#include <string_view>

namespace squawk::media {

struct MediaType {
    std::string_view detected;   // libmagic's MIME type
    std::string_view mime_type;  // what the record and downloads say
    std::string_view kind;       // image, audio, video, document
    std::string_view extension;
};

// Media kinds, as the list filter names them.
inline constexpr std::string_view kKinds[] = {"image", "audio", "video", "document"};

// The accepted type libmagic's `detected` type is, or nothing.
const MediaType* accepted_type(std::string_view detected);

// The MIME types clients may announce for an upload URL (the stored ones).
std::span<const std::string_view> announceable_mime_types();

}  // namespace squawk::media
