#include "api/handlers/system_handlers.hpp"

#include "api/openapi/openapi_document.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/metrics/registry.hpp"

namespace squawk::api::handlers {

Reply health(const RequestContext& ctx, Services& services) {
    services.mysql.run([](db::Session& s) { s.query_one("SELECT 1"); });
    const auto pong = services.redis.run([](redis::RedisClient& r) { return r.command({"PING"}); });
    if (pong.is_error()) {
        log::error("redis refused PING", {{"request_id", ctx.request_id}, {"error", pong.text}});
        throw ApiError(ErrorCode::ServiceUnavailable);
    }
    return Reply::ok({{"status", "ok"}});
}

Reply openapi_document(const RequestContext&, Services&) {
    return Reply::send_raw(RawBody{api::openapi_document(), "application/json"});
}

Reply metrics(const RequestContext&, Services&) {
    return Reply::send_raw(
        RawBody{metrics::Registry::global().render(), "text/plain; version=0.0.4"});
}

}  // namespace squawk::api::handlers
