#include "common/core/daemon/worker_settings.hpp"

#include "common/core/config/section_schema.hpp"

namespace squawk::config {
namespace {

SectionSchema<PoolSettings> pool_schema() {
    using P = PoolSettings;
    return {{
                integer("threads", &P::threads, 1, 64),
                integer("fibers", &P::fibers, 1, 10000),
                integer("batch", &P::batch, 1, 100),
                integer("lead_ms", &P::lead_ms, 0, kMaxPoolLeadMs),
                integer("http_connections", &P::http_connections, 0, 100000),
            },
            {}};
}

}  // namespace

SectionSchema<WorkerSettings> workers_schema() {
    using S = WorkerSettings;
    SectionSchema<S> schema{
        {
            integer("blocking_threads", &S::blocking_threads, 1, 256),
            integer("shutdown_grace_seconds", &S::shutdown_grace_seconds, 0, 3600),
            integer("metrics_port", &S::metrics_port, 0, 65535),
        },
        [](S& workers, const std::string&) {
            for (const char* pool : kPoolNames) workers.pools.try_emplace(pool);
        }};
    for (const char* pool : kPoolNames) {
        const std::string name = pool;
        nest(
            schema, name, [name](S& w) -> PoolSettings& { return w.pools[name]; }, pool_schema());
    }
    return schema;
}

}  // namespace squawk::config
