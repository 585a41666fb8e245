#include "common/core/fs/work_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
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
    if (offset < 0) return std::nullopt;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    struct stat status {};
    if (::fstat(fd, &status) != 0) {
        ::close(fd);
        return std::nullopt;
    }
    // Sized by what the file holds past `offset`: `length` is an upload's chunk size, megabytes,
    // and zeroing them for a small file cost more CPU than sending the file.
    const long long available = std::max<long long>(0, status.st_size - offset);
    std::string bytes(
        static_cast<size_t>(std::min<long long>(static_cast<long long>(length), available)), '\0');
    size_t got = 0;
    while (got < bytes.size()) {
        const ssize_t n = ::pread(fd, bytes.data() + got, bytes.size() - got,
                                  static_cast<off_t>(offset + static_cast<long long>(got)));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            ::close(fd);
            return std::nullopt;
        }
        if (n == 0) break;
        got += static_cast<size_t>(n);
    }
    ::close(fd);
    bytes.resize(got);
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
