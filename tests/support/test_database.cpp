#include "tests/support/test_database.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/db/migrator.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/core/time/clock.hpp"

#include <cstdlib>
#include <stdexcept>

namespace squawk::testing {
namespace {

std::string required(const char* name) {
    const char* value = std::getenv(name);
    if (!value || !*value)
        throw std::runtime_error(std::string(name) +
                                 " is not set: run the tests through `make test`");
    return value;
}

std::string optional(const char* name, const std::string& fallback) {
    const char* value = std::getenv(name);
    return value && *value ? value : fallback;
}

}  // namespace

const ServerEnv& ServerEnv::get() {
    static const ServerEnv env = [] {
        ServerEnv e;
        e.mysql.host = required("SQUAWK_TEST_MYSQL_HOST");
        e.mysql.port = std::stoi(required("SQUAWK_TEST_MYSQL_PORT"));
        e.mysql.user = required("SQUAWK_TEST_MYSQL_USER");
        e.mysql.password = required("SQUAWK_TEST_MYSQL_PASSWORD");
        e.mysql.database.clear();
        e.redis.host = "127.0.0.1";
        e.redis.port = std::stoi(required("SQUAWK_TEST_REDIS_PORT"));
        e.servers_dir = required("SQUAWK_TEST_SERVERS_DIR");
        e.source_dir = optional("SQUAWK_SOURCE_DIR", SQUAWK_SOURCE_DIR_DEFAULT);
        e.bin_dir = optional("SQUAWK_BIN_DIR", SQUAWK_BIN_DIR_DEFAULT);
        return e;
    }();
    return env;
}

std::string unique_name(const std::string& stem) {
    return stem + "_" + crypto::hex(crypto::random_bytes(6));
}

redis::RedisClient isolated_redis(const std::string& stem) {
    auto settings = ServerEnv::get().redis;
    settings.prefix = unique_name(stem);
    return redis::RedisClient(settings);
}

TestDatabase::TestDatabase() {
    settings_ = ServerEnv::get().mysql;
    settings_.database = unique_name("squawk_t");
    settings_.pool_size = 8;
    db::Migrator::ensure_database(settings_);
    pool_ = std::make_unique<db::MysqlPool>(settings_);
    db::Migrator::apply(*pool_, ServerEnv::get().source_dir + "/config/migrations");
}

TestDatabase::~TestDatabase() {
    try {
        pool_->run(
            [&](db::Session& s) { s.execute("DROP DATABASE `" + settings_.database + "`"); });
    } catch (...) {
        // A test that stopped the server leaves its database behind in a throwaway data dir.
    }
}

long long insert_workspace(db::Session& s) {
    return s.insert("INSERT INTO workspaces (name, created_at) VALUES ('w', ?)",
                    {db::time_param(time::now())});
}

namespace {

long long rows_read_so_far(db::Session& s) {
    long long n = 0;
    for (const auto& r : s.query("SHOW SESSION STATUS LIKE 'Handler_read%'"))
        n += std::stoll(r.text(1));
    return n;
}

}  // namespace

long long rows_read_by(db::Session& s, const std::function<void()>& read) {
    // SHOW STATUS reads rows of its own, counted once here to leave them out.
    const auto first = rows_read_so_far(s);
    const auto own = rows_read_so_far(s) - first;
    const auto before = rows_read_so_far(s);
    read();
    return rows_read_so_far(s) - before - own;
}

}  // namespace squawk::testing
