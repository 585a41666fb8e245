// Reading a whole file in tests: media a job made, a fixture a tool wrote.
#pragma once

#include <filesystem>
#include <string>

namespace squawk::testing {

// The bytes of `path`; empty when it cannot be read.
std::string read_file(const std::filesystem::path& path);

}  // namespace squawk::testing
