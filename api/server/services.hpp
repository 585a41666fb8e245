// What route handlers may use: the configuration and the shared pools, owned by main().
#pragma once

#include "api/server/finished_job_cache.hpp"
#include "api/server/key_cache.hpp"
#include "api/server/workspace_cache.hpp"
#include "common/core/config/config_fwd.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/http/http_client.hpp"
#include "common/core/rate_limit/rate_limiter.hpp"
#include "common/core/rate_limit/token_leases.hpp"
#include "common/core/redis/redis_pool.hpp"
#include "common/core/storage/object_store.hpp"
#include "common/domain/generation/content_policy.hpp"
#include "common/domain/jobs/job_submitter.hpp"
#include "common/domain/request_log/request_log_writer.hpp"
#include "common/domain/social/post_service.hpp"

#include <memory>

namespace squawk::api {

struct Services {
    Services(const config::Config& c, db::MysqlPool& m, redis::RedisPool& r);

    const config::Config& config;
    db::MysqlPool& mysql;
    redis::RedisPool& redis;
    jobs::JobSubmitter submitter;
    KeyCache key_cache;
    WorkspaceCache workspaces;
    FinishedJobCache finished_jobs;
    rate_limit::RateLimiter rate_limiter;
    rate_limit::TokenLeases leases;
    request_log::RequestLogWriter request_log;  // started and stopped by main()
    generation::ContentPolicy content_policy;
    // Where media files live (storage.backend).
    std::unique_ptr<storage::ObjectStore> storage;
    // Outgoing calls the API makes itself (the synchronous webhook test).
    http::Client http{64};
    // Single posts sent at the same moment are written together, up to this many at once.
    social::PostCreations post_creations{64};
};

}  // namespace squawk::api
