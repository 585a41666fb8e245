#include "api/server/authenticator.hpp"

#include "common/error/api_error.hpp"

namespace squawk::api {

auth::ApiKey authenticate(KeyCache& cache, db::MysqlPool& mysql, redis::RedisPool& redis,
                          std::string_view key) {
    auto found = cache.find(mysql, redis, key);
    if (!found || found->revoked) throw ApiError(ErrorCode::InvalidApiKey);
    return *found;
}

void authorize(const Access& access, const auth::ApiKey& key) {
    if (access.kind != Access::Kind::scope || key.has_scope(access.scope)) return;
    throw ApiError(ErrorCode::InsufficientScope, {},
                   {{"required_scope", std::string(access.scope)}});
}

}  // namespace squawk::api
