// How a process reaches Redis: server, password, key prefix, socket timeout. Section [redis]; the
// schema's rows are in redis_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <string>

namespace squawk::config {

struct RedisSettings {
    std::string host = "127.0.0.1";
    int port = 6379;
    std::string password;
    std::string prefix = "squawk";
    int timeout_ms = 3000;
};

SectionSchema<RedisSettings> redis_schema();

}  // namespace squawk::config
