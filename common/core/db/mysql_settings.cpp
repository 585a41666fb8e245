#include "common/core/db/mysql_settings.hpp"

#include "common/core/config/section_schema.hpp"

namespace squawk::config {

SectionSchema<MysqlSettings> mysql_schema() {
    using S = MysqlSettings;
    return {{
                text("host", &S::host, false),
                integer("port", &S::port, 1, 65535),
                host_port_list("hosts", &S::hosts),
                integer("wsrep_sync_wait", &S::wsrep_sync_wait, 0, 15),
                text("user", &S::user, false),
                text("password", &S::password),
                text("database", &S::database, false),
                integer("pool_size", &S::pool_size, 1, 512),
                integer("connect_timeout_ms", &S::connect_timeout_ms, 100, 60000),
            },
            {}};
}

}  // namespace squawk::config
