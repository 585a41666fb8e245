// Where objects (uploads, generated media) are kept: the local filesystem or an S3-compatible
// bucket. Section [storage]; the rows are in storage_settings.cpp. The secret key comes from the
// environment like other secrets: SQUAWK_STORAGE_S3_SECRET_KEY.
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <string>

namespace squawk::config {

struct StorageSettings {
    std::string backend = "local";  // "local" or "s3"
    // Scheme and authority only: "https://s3.eu-west-1.amazonaws.com", "http://127.0.0.1:9000".
    std::string s3_endpoint;
    std::string s3_region = "us-east-1";
    std::string s3_bucket;
    std::string s3_access_key;
    std::string s3_secret_key;
    bool s3_path_style = true;
    // Connect, and wait with no bytes moving, at most this long.
    int s3_timeout_seconds = 30;
    // How long presigned download URLs stay usable (upload URLs: media.upload_url_ttl_seconds).
    int presign_ttl_seconds = 3600;
};

SectionSchema<StorageSettings> storage_schema();

}  // namespace squawk::config
