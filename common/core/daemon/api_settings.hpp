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
    // A request must arrive whole within this of its first byte (an upload's body: of its last
    // bytes received), else it is answered 408 and its connection closed.
    int request_timeout_ms = 60000;
    // A connection with no request under way is closed after this.
    int keepalive_timeout_ms = 300000;
};

SectionSchema<ApiSettings> api_schema();

}  // namespace squawk::config
