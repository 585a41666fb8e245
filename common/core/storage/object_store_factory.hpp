// The object store the configuration names: files under the data directory, or a bucket.
#pragma once

#include "common/core/storage/object_store.hpp"
#include "common/core/storage/storage_settings.hpp"

#include <filesystem>
#include <memory>

namespace squawk::storage {

// `local_root` is where the local backend keeps objects (the media directory); unused for S3.
// Throws std::invalid_argument for settings that storage_schema() would have refused.
std::unique_ptr<ObjectStore> make_object_store(const config::StorageSettings& settings,
                                               const std::filesystem::path& local_root);

}  // namespace squawk::storage
