// What route handlers may use: the configuration and the shared pools, owned by main().
#pragma once

#include "common/config/config.hpp"
#include "common/db/mysql_pool.hpp"
#include "common/http/http_client.hpp"
#include "common/jobs/job_submitter.hpp"
#include "common/redis/redis_pool.hpp"

namespace squawk::api {

struct Services {
    Services(const config::Config& c, db::MysqlPool& m, redis::RedisPool& r)
        : config(c), mysql(m), redis(r), submitter(m, r, c.jobs) {}

    const config::Config& config;
    db::MysqlPool& mysql;
    redis::RedisPool& redis;
    jobs::JobSubmitter submitter;
    // Outgoing calls the API makes itself (the synchronous webhook test).
    http::Client http{64};
};

}  // namespace squawk::api
