// Turns a presented key into the stored ApiKey and checks a route's access rule against it.
#pragma once

#include "api/server/key_cache.hpp"
#include "api/server/route.hpp"
#include "common/auth/api_key.hpp"
#include "common/db/mysql_pool.hpp"

#include <string_view>

namespace squawk::api {

// Unknown and revoked keys are both INVALID_API_KEY, so a caller learns nothing about either.
auth::ApiKey authenticate(KeyCache& cache, db::MysqlPool& mysql, redis::RedisPool& redis,
                          std::string_view key);

// Throws INSUFFICIENT_SCOPE (details.required_scope) when the key lacks the route's scope.
void authorize(const Access& access, const auth::ApiKey& key);

}  // namespace squawk::api
