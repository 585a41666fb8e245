// How a process reaches MySQL: server, credentials, connections. Section [mysql]; the schema's
// rows are in mysql_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

#include <string>

namespace squawk::config {

struct MysqlSettings {
    std::string host = "127.0.0.1";
    int port = 3306;
    std::string user = "squawk";
    std::string password;
    std::string database = "squawk";
    int pool_size = 8;
    int connect_timeout_ms = 2000;
};

SectionSchema<MysqlSettings> mysql_schema();

}  // namespace squawk::config
