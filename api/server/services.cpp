#include "api/server/services.hpp"

#include "common/core/config/config.hpp"
#include "common/core/storage/object_store_factory.hpp"

namespace squawk::api {

Services::Services(const config::Config& c, db::MysqlPool& m, redis::RedisPool& r)
    : config(c),
      mysql(m),
      redis(r),
      submitter(m, r, c.jobs),
      key_cache(std::chrono::seconds(c.api.key_cache_seconds),
                std::chrono::milliseconds(c.rate_limits.lease_ms)),
      workspaces(std::chrono::seconds(c.api.key_cache_seconds)),
      rate_limiter(c.rate_limits),
      leases(std::chrono::milliseconds(c.rate_limits.lease_ms)),
      request_log(m, std::chrono::milliseconds(c.request_log.flush_interval_ms),
                  static_cast<size_t>(c.request_log.max_pending)),
      content_policy(c.content_policy),
      storage(storage::make_object_store(c.storage, c.media.dir)) {}

}  // namespace squawk::api
