#include "tests/support/file_bytes.hpp"

#include <fstream>
#include <iterator>

namespace squawk::testing {

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace squawk::testing
