// Where uploaded and generated files live: the local filesystem under the data directory, or an
// S3-compatible bucket. Every call blocks its thread until done and raises StorageError.
#pragma once

#include "common/core/storage/storage_error.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace squawk::storage {

// Headers a presigned download answers with instead of those stored with the object, so a file
// kept as "med_abc.png" downloads under the name its owner gave it.
struct ResponseOverrides {
    std::optional<std::string> content_type;
    std::optional<std::string> content_disposition;
};

// Keys are validated by every call (validate_object_key); a bad one raises InvalidObjectKey.
class ObjectStore {
  public:
    virtual ~ObjectStore() = default;

    // Moves the finished file `local_file` into the store under `key`, replacing what was there;
    // readers see the old object or the new one, never part of one. On success `local_file` is
    // gone; on failure it is left for the caller.
    virtual void put_file(std::string_view key, const std::filesystem::path& local_file,
                          std::string_view content_type) = 0;
    // Writes the object to `destination` (replaced whole, through a temporary file beside it).
    // A missing object raises StorageError with code "NoSuchKey".
    virtual void fetch_to_file(std::string_view key, const std::filesystem::path& destination) = 0;
    // Deletes the object; deleting one that is not there succeeds.
    virtual void remove(std::string_view key) = 0;
    // Renames the object `from` to `to`, replacing what `to` held: afterwards `from` is gone and
    // readers of `to` see the old object or the new one, never part of one. A missing `from`
    // raises StorageError with code "NoSuchKey"; moving a key onto itself does nothing.
    virtual void move(std::string_view from, std::string_view to) = 0;
    // The object's size in bytes, or nothing when there is no such object.
    virtual std::optional<std::uint64_t> size(std::string_view key) = 0;
    bool exists(std::string_view key) { return size(key).has_value(); }

    // A URL that uploads the object with a plain PUT carrying exactly `content_type`, usable for
    // `ttl`; nothing when the store cannot hand out such URLs (the API then serves its own).
    virtual std::optional<std::string> presign_put(std::string_view key,
                                                   std::string_view content_type,
                                                   std::chrono::seconds ttl) = 0;
    // A URL that downloads the object with a plain GET for `ttl`; nothing as for presign_put.
    virtual std::optional<std::string> presign_get(std::string_view key, std::chrono::seconds ttl,
                                                   const ResponseOverrides& overrides) = 0;
    // Where the object is on this machine's filesystem when the store is local, so helper
    // programs (ffmpeg) read it in place; nothing for remote stores.
    virtual std::optional<std::filesystem::path> local_path(std::string_view key) const = 0;
};

}  // namespace squawk::storage
