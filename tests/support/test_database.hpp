// Integration tests get their own freshly migrated database on the throwaway MariaDB and their own
// Redis key prefix, so suites never see each other's rows or queues.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/db/mysql_settings.hpp"
#include "common/core/redis/redis_client.hpp"
#include "common/core/redis/redis_settings.hpp"

#include <functional>
#include <memory>
#include <string>

namespace squawk::testing {

// The throwaway servers `make test` started (SQUAWK_TEST_* variables, see scripts/servers.sh).
struct ServerEnv {
    config::MysqlSettings mysql;    // database left empty
    config::RedisSettings redis;    // prefix left at its default
    std::string servers_dir;        // for scripts/servers.sh stop-mysql|start-mysql|... DIR
    std::string source_dir;         // repository root
    std::string bin_dir;            // built binaries
    static const ServerEnv& get();  // fails the test run when the variables are missing
};

// A unique database name or Redis prefix for one test.
std::string unique_name(const std::string& stem);

// A client of the throwaway Redis whose keys go under a prefix of their own, from `stem`.
redis::RedisClient isolated_redis(const std::string& stem);

class TestDatabase {
  public:
    TestDatabase();   // creates and migrates squawk_t_<random>
    ~TestDatabase();  // drops it
    db::MysqlPool& pool() { return *pool_; }
    const config::MysqlSettings& settings() const { return settings_; }

  private:
    config::MysqlSettings settings_;
    std::unique_ptr<db::MysqlPool> pool_;
};

// Inserts a bare workspace row; returns its id. For tests below the API.
long long insert_workspace(db::Session& s);

// The rows, index entries and rows alike, that the session's handlers read while `read` ran,
// the counting's own reads left out.
long long rows_read_by(db::Session& s, const std::function<void()>& read);

}  // namespace squawk::testing
