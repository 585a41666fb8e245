#include "common/core/fs/work_files.hpp"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

namespace squawk::fs {

ScratchDirectory::ScratchDirectory(std::string_view prefix) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / (std::string(prefix) + "XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
        throw std::system_error(errno, std::generic_category(), "cannot create " + pattern);
    path_ = pattern;
}

ScratchDirectory::~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

OwnedFile& OwnedFile::operator=(OwnedFile&& other) noexcept {
    if (this != &other) {
        remove();
        path_ = std::exchange(other.path_, {});
    }
    return *this;
}

void OwnedFile::move_to(const std::filesystem::path& destination) {
    std::error_code ec;
    std::filesystem::rename(path_, destination, ec);
    if (ec)
        throw std::system_error(ec,
                                "cannot move " + path_.string() + " to " + destination.string());
    path_ = destination;
}

void OwnedFile::remove() noexcept {
    if (path_.empty()) return;
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
    path_.clear();
}

std::optional<std::string> read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return std::move(bytes).str();
}

std::optional<std::string> read_file_range(const std::filesystem::path& path, long long offset,
                                           size_t length) {
    std::ifstream in(path, std::ios::binary);
    if (!in || offset < 0) return std::nullopt;
    in.seekg(offset);
    if (!in) return std::nullopt;
    std::string bytes(length, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(length));
    if (in.bad()) return std::nullopt;
    bytes.resize(static_cast<size_t>(in.gcount()));
    return bytes;
}

void remove_files_older_than(const std::filesystem::path& directory,
                             std::filesystem::file_time_type::duration age) {
    const auto cutoff = std::filesystem::file_time_type::clock::now() - age;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
        std::error_code ignored;
        if (entry.is_regular_file(ignored) && entry.last_write_time(ignored) < cutoff)
            std::filesystem::remove(entry.path(), ignored);
    }
}

}  // namespace squawk::fs
