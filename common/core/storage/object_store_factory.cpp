#include "common/core/storage/object_store_factory.hpp"

#include "common/core/storage/local_object_store.hpp"
#include "common/core/storage/s3_object_store.hpp"

#include <stdexcept>

namespace squawk::storage {

std::unique_ptr<ObjectStore> make_object_store(const config::StorageSettings& settings,
                                               const std::filesystem::path& local_root) {
    if (settings.backend == "local") return std::make_unique<LocalObjectStore>(local_root);
    if (settings.backend != "s3")
        throw std::invalid_argument("unknown storage backend '" + settings.backend + "'");
    S3Config s3;
    s3.endpoint = settings.s3_endpoint;
    s3.region = settings.s3_region;
    s3.bucket = settings.s3_bucket;
    s3.access_key = settings.s3_access_key;
    s3.secret_key = settings.s3_secret_key;
    s3.path_style = settings.s3_path_style;
    s3.timeout = std::chrono::seconds(settings.s3_timeout_seconds);
    return std::make_unique<S3ObjectStore>(std::move(s3));
}

}  // namespace squawk::storage
