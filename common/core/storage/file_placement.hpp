// Putting a file in place whole: written under a temporary name in the destination's directory,
// flushed to disk, then renamed over the destination, so a reader or a crash never leaves half a
// file under the real name.
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

namespace squawk::storage {

// Raises StorageError (code "LocalIoError") for a failed file system call: `what` and the cause.
[[noreturn]] void local_failure(const std::string& what, const std::error_code& ec);

// A fresh name beside `destination` for writing it ("." + name + random + ".part").
std::filesystem::path temporary_beside(const std::filesystem::path& destination);

// Flushes `file` to disk; raises StorageError (code "LocalIoError") when it cannot.
void flush_to_disk(const std::filesystem::path& file);

// Copies `source` to `destination` through a temporary file beside it; `source` stays.
void copy_into_place(const std::filesystem::path& source, const std::filesystem::path& destination);

// Renames `temporary` over `destination`, removing `temporary` if that fails.
void rename_into_place(const std::filesystem::path& temporary,
                       const std::filesystem::path& destination);

}  // namespace squawk::storage
