#include "common/domain/request_log/request_log_service.hpp"

namespace squawk::request_log {

Page RequestLogService::list(const Filter& filter, long long offset, int limit) {
    return mysql_.run(
        [&](db::Session& s) { return RequestLogRepository::list(s, filter, offset, limit); });
}

db::Slice<Entry> RequestLogService::list_keyset(const Filter& filter, const db::Keyset& keyset) {
    return mysql_.run(
        [&](db::Session& s) { return RequestLogRepository::list_keyset(s, filter, keyset); });
}

}  // namespace squawk::request_log
