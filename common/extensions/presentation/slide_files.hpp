// The deck's pages as files: one PDF of every page, and a PNG thumbnail of one page. Both draw
// with draw_page().
#pragma once

#include "common/extensions/presentation/deck.hpp"

#include <filesystem>

namespace squawk::presentation {

inline constexpr int kThumbnailWidth = 640;
inline constexpr int kThumbnailHeight = 360;

// Throws std::runtime_error when Cairo cannot write the file, std::invalid_argument when a
// picture cannot be decoded.
void write_pdf(const Deck& deck, const std::filesystem::path& path);
void write_thumbnail(const Deck& deck, size_t page, const std::filesystem::path& path);

}  // namespace squawk::presentation
