// How a process reaches MySQL: one server or the nodes of a Galera cluster, credentials,
// connections. Section [mysql]; the schema's rows are in mysql_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/core/config/host_port.hpp"

#include <string>
#include <vector>

namespace squawk::config {

struct MysqlSettings {
    std::string host = "127.0.0.1";
    int port = 3306;
    // When set ("host:port,host:port"): the servers of a cluster, tried in turn. Connections go to
    // the first that answers and stay with it until it fails; host and port are not used.
    std::vector<HostPort> hosts;
    // Galera's causality checks for every statement of a session (0: none; 1: reads see every
    // write committed on any node before they started). Set only when above 0.
    int wsrep_sync_wait = 0;
    std::string user = "squawk";
    std::string password;
    std::string database = "squawk";
    int pool_size = 8;
    int connect_timeout_ms = 2000;
};

SectionSchema<MysqlSettings> mysql_schema();

}  // namespace squawk::config
