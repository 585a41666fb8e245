// The format and pixel size of PNG or JPEG bytes, read from their headers (PNG IHDR, JPEG SOF) so
// that an image a service returned can be checked against what was asked before it is stored.
#pragma once

#include "common/domain/generation/image_provider.hpp"

#include <optional>
#include <string_view>

namespace squawk::providers::openai {

struct ImageInfo {
    generation::ImageFormat format = generation::ImageFormat::png;
    int width = 0;
    int height = 0;
};

// Null unless `bytes` start as a PNG or a baseline/progressive JPEG with a positive size.
std::optional<ImageInfo> image_info(std::string_view bytes);

}  // namespace squawk::providers::openai
