// Files a piece of work makes for itself: a private scratch directory under the system's temporary
// directory, removed with everything in it however the work ends; a single file that is removed
// unless its owner keeps it; whole-file reads of what helper programs wrote; and the clearing of
// work files a killed process left behind.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace squawk::fs {

class ScratchDirectory {
  public:
    // Named `<prefix>XXXXXX` (mkdtemp: unique, mode 0700); throws std::system_error when the
    // directory cannot be made.
    explicit ScratchDirectory(std::string_view prefix);
    ~ScratchDirectory();
    ScratchDirectory(const ScratchDirectory&) = delete;
    ScratchDirectory& operator=(const ScratchDirectory&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(std::string_view name) const { return path_ / name; }

  private:
    std::filesystem::path path_;
};

// A file that exists only while someone owns it: removed when dropped, unless released once it
// has been put where it stays (an upload until it is accepted into the media library).
class OwnedFile {
  public:
    OwnedFile() = default;
    explicit OwnedFile(std::filesystem::path path) : path_(std::move(path)) {}
    OwnedFile(OwnedFile&& other) noexcept : path_(std::exchange(other.path_, {})) {}
    OwnedFile& operator=(OwnedFile&& other) noexcept;
    OwnedFile(const OwnedFile&) = delete;
    OwnedFile& operator=(const OwnedFile&) = delete;
    ~OwnedFile() { remove(); }

    const std::filesystem::path& path() const { return path_; }
    bool empty() const { return path_.empty(); }
    // Renames the file (same filesystem: no copy) and keeps owning it under the new name; throws
    // std::system_error when it cannot, the file staying where it was.
    void move_to(const std::filesystem::path& destination);
    // The file stays on disk; nobody owns it any more.
    std::filesystem::path release() { return std::exchange(path_, {}); }

  private:
    void remove() noexcept;

    std::filesystem::path path_;
};

// The file's bytes; nothing when it cannot be opened.
std::optional<std::string> read_file(const std::filesystem::path& path);
// Up to `length` bytes from `offset` (fewer at the end, none past it); nothing when the file
// cannot be opened or read.
std::optional<std::string> read_file_range(const std::filesystem::path& path, long long offset,
                                           size_t length);

// Removes the regular files directly in `directory` last written more than `age` ago: what a
// process killed mid-work left in a folder of work files. A missing folder has none.
void remove_files_older_than(const std::filesystem::path& directory,
                             std::filesystem::file_time_type::duration age);

}  // namespace squawk::fs
