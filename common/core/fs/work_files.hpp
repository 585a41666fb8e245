// Files a piece of work makes for itself: a private scratch directory under the system's temporary
// directory, removed with everything in it however the work ends, and whole-file reads of what
// helper programs wrote.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

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

// The file's bytes; nothing when it cannot be opened.
std::optional<std::string> read_file(const std::filesystem::path& path);

}  // namespace squawk::fs
