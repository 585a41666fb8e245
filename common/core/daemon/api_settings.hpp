// Settings of squawk-api's HTTP front: where it listens, its threads and its request limits.
// Section [api]; the schema's rows are in api_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <string>

namespace squawk::config {

struct ApiSettings {
    std::string listen_host = "127.0.0.1";
    int listen_port = 8080;
    int threads = 16;
    long long max_body_bytes = 1048576;
    std::string public_base_url = "http://127.0.0.1:8080/v1";
    int key_cache_seconds = 30;  // keys and workspace records; 0 reads them from MySQL each time
};

SectionSchema<ApiSettings> api_schema();

}  // namespace squawk::config
