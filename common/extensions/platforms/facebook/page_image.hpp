// The image a Page's picture or cover is set from, looked at before Facebook is asked: fetched
// through the target check, it must be a JPG, PNG, GIF, BMP or TIFF file (by its bytes, not its
// name) of at most 10 MB, and a cover at least 400x150 pixels.
#pragma once

#include "common/core/http/http_client.hpp"
#include "common/domain/social/connector.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace squawk::social::facebook {

inline constexpr long long kMaxPageImageBytes = 10LL * 1024 * 1024;
inline constexpr int kMinCoverWidth = 400;
inline constexpr int kMinCoverHeight = 150;

struct ImageFacts {
    std::string type;  // image/jpeg, image/png, image/gif, image/bmp or image/tiff
    int width = 0;     // 0 when the file does not say
    int height = 0;
};

// The type and size the file's bytes declare; nothing when it is none of the five formats.
std::optional<ImageFacts> image_facts(std::string_view bytes);

// Why the image at `url` cannot be a Page image (`cover`: a cover); nothing when it can.
std::optional<std::string> page_image_problem(http::Client& http, const std::string& url,
                                              const TargetCheck& check,
                                              std::chrono::milliseconds timeout, bool cover);

}  // namespace squawk::social::facebook
