// What the request-log route reads: a workspace's logged requests, filtered and paged, newest
// first. Returns domain types.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/request_log/request_log_repository.hpp"

namespace squawk::request_log {

class RequestLogService {
  public:
    explicit RequestLogService(db::MysqlPool& mysql) : mysql_(mysql) {}

    // Counted, for the API's offset pagination.
    Page list(const Filter& filter, long long offset, int limit);
    // A page by row id and no count: cheap at any depth of a big log.
    db::Slice<Entry> list_keyset(const Filter& filter, const db::Keyset& keyset);

  private:
    db::MysqlPool& mysql_;
};

}  // namespace squawk::request_log
