#include "common/core/storage/file_placement.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/storage/storage_error.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace squawk::storage {

[[noreturn]] void local_failure(const std::string& what, const std::error_code& ec) {
    throw StorageError("LocalIoError", what + ": " + ec.message(), 0, false);
}

std::filesystem::path temporary_beside(const std::filesystem::path& destination) {
    return destination.parent_path() / ("." + destination.filename().string() + "." +
                                        crypto::hex(crypto::random_bytes(6)) + ".part");
}

void flush_to_disk(const std::filesystem::path& file) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        const std::error_code ec(errno, std::generic_category());
        if (fd >= 0) ::close(fd);
        local_failure("cannot flush " + file.string(), ec);
    }
    ::close(fd);
}

void copy_into_place(const std::filesystem::path& source,
                     const std::filesystem::path& destination) {
    const auto temporary = temporary_beside(destination);
    std::error_code ec;
    if (!std::filesystem::copy_file(source, temporary, ec)) {
        std::filesystem::remove(temporary, ec);
        local_failure("cannot copy " + source.string() + " to " + temporary.string(), ec);
    }
    try {
        flush_to_disk(temporary);
    } catch (...) {
        std::filesystem::remove(temporary, ec);
        throw;
    }
    rename_into_place(temporary, destination);
}

void rename_into_place(const std::filesystem::path& temporary,
                       const std::filesystem::path& destination) {
    std::error_code ec;
    std::filesystem::rename(temporary, destination, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        local_failure("cannot rename " + temporary.string() + " to " + destination.string(), ec);
    }
}

}  // namespace squawk::storage
