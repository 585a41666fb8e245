#include "common/core/db/migrator.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

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

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_name_char(char c) {
    return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_';
}
bool is_identifier_char(char c) {
    return is_name_char(c) || (c >= 'A' && c <= 'Z');
}

// "0003_guarantees.sql" -> {3, "guarantees"}: four digits, '_', lower-case letters, digits and
// underscores, ".sql". Anything else in the folder is not a migration.
std::optional<Migration> parse_file_name(std::string_view file, const std::string& path) {
    constexpr std::string_view suffix = ".sql";
    if (file.size() <= 5 + suffix.size() || !file.ends_with(suffix) || file[4] != '_')
        return std::nullopt;
    const auto version = file.substr(0, 4);
    const auto name = file.substr(5, file.size() - 5 - suffix.size());
    if (!std::all_of(version.begin(), version.end(), is_digit) ||
        !std::all_of(name.begin(), name.end(), is_name_char))
        return std::nullopt;
    return Migration{std::stoi(std::string(version)), std::string(name), path};
}

}  // namespace

std::vector<Migration> Migrator::discover(const std::string& directory) {
    std::vector<Migration> found;
    for (const auto& entry : std::filesystem::directory_iterator(directory))
        if (auto m = parse_file_name(entry.path().filename().string(), entry.path().string()))
            found.push_back(std::move(*m));
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
    const auto& name = settings.database;
    if (name.empty() || name.size() > 64 ||
        !std::all_of(name.begin(), name.end(), is_identifier_char))
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
