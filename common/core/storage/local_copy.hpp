// An object's bytes as a file on this machine, for programs that read files (ffprobe, ffmpeg,
// Cairo): the object itself when the store is local, otherwise a copy fetched for the purpose
// and removed with this.
#pragma once

#include "common/core/fs/work_files.hpp"
#include "common/core/storage/object_store.hpp"

#include <filesystem>
#include <string_view>

namespace squawk::storage {

class LocalCopy {
  public:
    // Blocks while a remote object is fetched to `scratch_file` (a name of the caller's, on this
    // machine); raises StorageError ("NoSuchKey" when there is no such object).
    LocalCopy(ObjectStore& store, std::string_view key, std::filesystem::path scratch_file);

    const std::filesystem::path& path() const { return path_; }

  private:
    squawk::fs::OwnedFile fetched_;
    std::filesystem::path path_;
};

}  // namespace squawk::storage
