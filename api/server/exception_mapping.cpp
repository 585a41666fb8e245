#include "api/server/exception_mapping.hpp"

#include "common/core/db/mysql_pool.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/redis/redis_client.hpp"
#include "common/core/storage/storage_error.hpp"

namespace squawk::api {

ApiError to_api_error(std::exception_ptr error, const std::string& request_id) {
    try {
        std::rethrow_exception(error);
    } catch (const ApiError& e) {
        return e;
    } catch (const db::DatabaseUnavailable& e) {
        log::error("mysql unavailable", {{"request_id", request_id}, {"error", e.what()}});
        return ApiError(ErrorCode::ServiceUnavailable);
    } catch (const redis::RedisUnavailable& e) {
        log::error("redis unavailable", {{"request_id", request_id}, {"error", e.what()}});
        return ApiError(ErrorCode::ServiceUnavailable);
    } catch (const storage::StorageError& e) {
        log::error("object store failed",
                   {{"request_id", request_id}, {"code", e.code()}, {"error", e.what()}});
        // Nothing the client sent is at fault: an unreachable or refusing store is ours.
        return ApiError(e.retryable() ? ErrorCode::ServiceUnavailable : ErrorCode::InternalError);
    } catch (const std::exception& e) {
        log::error("unhandled exception", {{"request_id", request_id}, {"error", e.what()}});
        return ApiError(ErrorCode::InternalError);
    } catch (...) {
        log::error("unhandled non-standard exception", {{"request_id", request_id}});
        return ApiError(ErrorCode::InternalError);
    }
}

}  // namespace squawk::api
