#include "common/db/migrator.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace squawk::db {
namespace {

// Splits a migration file into statements; migrations are plain DDL/DML without procedures, so a
// semicolon at the end of a line ends a statement. `--` comment lines are dropped.
std::vector<std::string> statements(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string line, current;
    while (std::getline(in, line)) {
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line.compare(first, 2, "--") == 0) continue;
        current += line + "\n";
        const auto last = line.find_last_not_of(" \t\r");
        if (line[last] == ';') {
            current.erase(current.find_last_of(';'));
            out.push_back(current);
            current.clear();
        }
    }
    if (current.find_first_not_of(" \t\r\n") != std::string::npos) out.push_back(current);
    return out;
}

}  // namespace

std::vector<Migration> Migrator::discover(const std::string& directory) {
    static const std::regex name_pattern(R"((\d{4})_([a-z0-9_]+)\.sql)");
    std::vector<Migration> found;
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
        std::smatch m;
        const std::string file = entry.path().filename().string();
        if (!std::regex_match(file, m, name_pattern)) continue;
        found.push_back({std::stoi(m[1]), m[2], entry.path().string()});
    }
    std::sort(found.begin(), found.end(),
              [](const Migration& a, const Migration& b) { return a.version < b.version; });
    return found;
}

std::vector<Migration> Migrator::apply(MysqlPool& pool, const std::string& directory) {
    const auto all = discover(directory);
    std::vector<Migration> applied;
    pool.run([&](Session& s) {
        s.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INT NOT NULL PRIMARY KEY,"
            " name VARCHAR(200) NOT NULL, applied_at DATETIME(6) NOT NULL)"
            " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
        // Concurrent migrators (several hosts starting at once) take turns.
        s.query("SELECT GET_LOCK('squawk_migrate', 60)");
        try {
            for (const auto& m : all) {
                if (s.query_one("SELECT 1 FROM schema_migrations WHERE version = ?",
                                {static_cast<long long>(m.version)}))
                    continue;
                std::ifstream in(m.path);
                std::stringstream text;
                text << in.rdbuf();
                for (const auto& statement : statements(text.str())) s.execute(statement);
                s.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at)"
                    " VALUES (?, ?, UTC_TIMESTAMP(6))",
                    {static_cast<long long>(m.version), m.name});
                applied.push_back(m);
            }
        } catch (...) {
            s.query("SELECT RELEASE_LOCK('squawk_migrate')");
            throw;
        }
        s.query("SELECT RELEASE_LOCK('squawk_migrate')");
    });
    return applied;
}

void Migrator::ensure_database(const config::MysqlSettings& settings) {
    static const std::regex identifier(R"([A-Za-z0-9_]{1,64})");
    if (!std::regex_match(settings.database, identifier))
        throw std::invalid_argument("mysql.database must be letters, digits and underscores");
    auto bootstrap = settings;
    bootstrap.database = "information_schema";
    bootstrap.pool_size = 1;
    MysqlPool pool(bootstrap);
    // The name was checked against the identifier pattern above; DDL cannot take a parameter.
    pool.run([&](Session& s) {
        s.execute("CREATE DATABASE IF NOT EXISTS `" + settings.database +
                  "` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
    });
}

std::string Migrator::default_directory() {
    if (const char* env = std::getenv("SQUAWK_MIGRATIONS_DIR"); env && *env) return env;
    if (std::filesystem::is_directory("config/migrations")) return "config/migrations";
    return "/usr/share/squawk/migrations";
}

}  // namespace squawk::db
