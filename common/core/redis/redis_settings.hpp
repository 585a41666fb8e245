// How a process reaches Redis: one server, or the primary that Sentinels name; password, key
// prefix, socket timeout. Section [redis]; the schema's rows are in redis_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/core/config/host_port.hpp"

#include <string>
#include <vector>

namespace squawk::config {

struct RedisSettings {
    std::string host = "127.0.0.1";
    int port = 6379;
    // When set ("host:port,host:port"), the primary is whichever server these Sentinels name for
    // `sentinel_master`, asked again after every lost connection; host and port are not used.
    std::vector<HostPort> sentinels;
    std::string sentinel_master = "squawk";
    std::string password;
    std::string prefix = "squawk";
    int timeout_ms = 3000;
};

SectionSchema<RedisSettings> redis_schema();

}  // namespace squawk::config
