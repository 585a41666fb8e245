// The request log: one row per API request, written in batches, listed by the caller's
// workspace with filters, and trimmed by the scheduler after the retention period.
#pragma once

#include "common/core/db/keyset.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace squawk::request_log {

struct Entry {
    long long id = 0;
    std::optional<long long> workspace_id;
    std::optional<long long> profile_id;
    std::string key_prefix;
    std::string request_id;
    std::string method;
    std::string route;
    int status = 0;
    long long duration_us = 0;
    time::TimePoint created_at;
};

struct Filter {
    long long workspace_id = 0;
    std::optional<std::string> method;
    std::optional<std::string> route;
    std::optional<int> status;
    std::optional<std::string> key_prefix;
    std::optional<long long> profile_id;
    std::optional<time::TimePoint> from;
    std::optional<time::TimePoint> to;
};

struct Page {
    std::vector<Entry> items;
    long long total = 0;
};

class RequestLogRepository {
  public:
    static void insert_many(db::Session& s, const std::vector<Entry>& entries);
    // Newest first, with the count of every match (the API's offset pagination).
    static Page list(db::Session& s, const Filter& filter, long long offset, int limit);
    // Newest first, without a count.
    static db::Slice<Entry> list_keyset(db::Session& s, const Filter& filter,
                                        const db::Keyset& keyset);
    static long long count_since(db::Session& s, long long workspace_id,
                                 std::optional<time::TimePoint> since);
    // count_since split by UTC day: days since 1970-01-01 -> requests, days without any absent.
    static std::map<long long, long long> count_per_day(db::Session& s, long long workspace_id,
                                                        std::optional<time::TimePoint> since);
    static long long delete_older_than(db::Session& s, time::TimePoint cutoff, int limit);
};

}  // namespace squawk::request_log
