#include "common/core/storage/local_copy.hpp"

namespace squawk::storage {

LocalCopy::LocalCopy(ObjectStore& store, std::string_view key, std::filesystem::path scratch_file) {
    if (auto in_place = store.local_path(key)) {
        if (!store.exists(key))
            throw StorageError("NoSuchKey", "no object '" + std::string(key) + "'", 404, false);
        path_ = std::move(*in_place);
        return;
    }
    store.fetch_to_file(key, scratch_file);
    fetched_ = squawk::fs::OwnedFile(scratch_file);
    path_ = std::move(scratch_file);
}

}  // namespace squawk::storage
