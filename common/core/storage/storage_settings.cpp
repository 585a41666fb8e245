#include "common/core/storage/storage_settings.hpp"

#include "common/core/config/section_schema.hpp"
#include "common/core/storage/s3_object_store.hpp"

namespace squawk::config {

SectionSchema<StorageSettings> storage_schema() {
    using S = StorageSettings;
    return {
        {
            text("backend", &S::backend, false),
            text("s3_endpoint", &S::s3_endpoint),
            text("s3_region", &S::s3_region, false),
            text("s3_bucket", &S::s3_bucket),
            text("s3_access_key", &S::s3_access_key),
            text("s3_secret_key", &S::s3_secret_key),
            boolean("s3_path_style", &S::s3_path_style),
            integer("s3_timeout_seconds", &S::s3_timeout_seconds, 1, 3600),
            // S3 refuses presigned URLs that live longer than a week.
            integer("presign_ttl_seconds", &S::presign_ttl_seconds, 1, 604800),
        },
        [](S& storage, const std::string& section) {
            if (storage.backend == "local") return;
            if (storage.backend != "s3")
                bad_value(section + ".backend", "expected \"local\" or \"s3\"");
            for (const auto& [key, value] : {std::pair{"s3_endpoint", &storage.s3_endpoint},
                                             std::pair{"s3_bucket", &storage.s3_bucket},
                                             std::pair{"s3_access_key", &storage.s3_access_key},
                                             std::pair{"s3_secret_key", &storage.s3_secret_key}})
                if (value->empty())
                    bad_value(section + "." + key, "must be set when backend is \"s3\"");
            try {
                storage::parse_endpoint(storage.s3_endpoint);
            } catch (const std::invalid_argument& e) {
                bad_value(section + ".s3_endpoint", e.what());
            }
        }};
}

}  // namespace squawk::config
