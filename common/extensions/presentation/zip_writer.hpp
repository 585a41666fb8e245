// Writes package parts into a zip file with libzip: the container a .pptx is.
#pragma once

#include "common/extensions/presentation/pptx_package.hpp"

#include <filesystem>
#include <vector>

namespace squawk::presentation {

// Writes `parts` in their order, deflated, to `path` (replaced when it exists). Throws
// std::runtime_error naming libzip's reason when it cannot.
void write_zip(const std::vector<PackagePart>& parts, const std::filesystem::path& path);

}  // namespace squawk::presentation
