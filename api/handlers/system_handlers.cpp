// Routes that need no key: the health check, the OpenAPI document and the Prometheus metrics.
#include "api/handlers/route_families.hpp"

#include "api/openapi/openapi_document.hpp"
#include "api/server/services.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/metrics/registry.hpp"

#include <array>

namespace squawk::api::handlers {
namespace {

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

}  // namespace

template <>
std::span<const Route> routes<Family::system>() {
    constexpr Access kOpen = Access::open_to_all();
    // Health, the document and the metrics are served at the root (for load balancers, tooling
    // and scrapers) and under /v1.
    static constexpr std::array kRoutes{
        Route::get("/health", kOpen, health).unlimited(),
        Route::get("/v1/health", kOpen, health).unlimited(),
        Route::get("/openapi.json", kOpen, openapi_document).unlimited(),
        Route::get("/v1/openapi.json", kOpen, openapi_document).unlimited(),
        Route::get("/metrics", kOpen, metrics).unlimited(),
        Route::get("/v1/metrics", kOpen, metrics).unlimited(),
    };
    return kRoutes;
}

}  // namespace squawk::api::handlers
