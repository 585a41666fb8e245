// Writing a rendered card to its file: PNG through Cairo's writer, JPEG through libjpeg.
#pragma once

#include "common/domain/generation/image_provider.hpp"

#include <cairo.h>

#include <filesystem>

namespace squawk::providers::cards {

// Throws generation::ProviderError (retryable) when the file cannot be written.
void write_card(cairo_surface_t* card, generation::ImageFormat format,
                const std::filesystem::path& output, int jpeg_quality);

}  // namespace squawk::providers::cards
