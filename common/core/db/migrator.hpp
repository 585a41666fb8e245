// Applies the numbered SQL files of a migrations directory (0001_name.sql, ...) once each, in
// order, recording every applied version in schema_migrations.
#pragma once

#include "common/core/db/mysql_pool.hpp"

#include <string>
#include <vector>

namespace squawk::db {

struct Migration {
    int version = 0;
    std::string name;
    std::string path;
};

class Migrator {
  public:
    static std::vector<Migration> discover(const std::string& directory);
    // Returns the migrations this call applied (empty when the schema was current).
    static std::vector<Migration> apply(MysqlPool& pool, const std::string& directory);
    // Creates the configured database if the server does not have it yet.
    static void ensure_database(const config::MysqlSettings& settings);
    // The migrations directory: SQUAWK_MIGRATIONS_DIR, then config/migrations, then the
    // installed share directory.
    static std::string default_directory();
};

}  // namespace squawk::db
