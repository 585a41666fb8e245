// Structured logging: one JSON object per line on stdout, so journald and log shippers need no
// parser. Callers pass context (request_id, job_id, workspace_id) as fields; secrets never belong
// in them.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <concepts>
#include <initializer_list>
#include <string>
#include <string_view>
#include <variant>

namespace squawk::log {

enum class Level { debug, info, warn, error };

void set_level(std::string_view level);
void set_component(std::string_view component);
bool enabled(Level level);
void write(Level level, std::string_view message, const nlohmann::json& fields = nullptr);

// One field of a line logged on a hot path (the API's access log: a line per request), written
// straight into the line instead of through a JSON object built for it.
struct Field {
    Field(std::string_view name, std::string_view text) : key(name), value(text) {}
    Field(std::string_view name, std::integral auto number)
        : key(name), value(static_cast<long long>(number)) {}
    Field(std::string_view name, double number) : key(name), value(number) {}

    std::string_view key;
    std::variant<std::string_view, long long, double> value;
};

// The line write() writes for an object of these fields: same bytes when `fields` come in the
// order of their keys (a JSON object's), none of them ts, level, component or msg.
void write_fields(Level level, std::string_view message, std::initializer_list<Field> fields);

// Lets debug and info lines wait in memory up to `interval` (or until a few KiB gather) and go
// out in one write: a busy API logs every request. Warnings and errors still go out at once, after
// whatever waits. Lines written on exit are flushed; a SIGKILL loses at most `interval` of them.
void buffer_routine_lines(std::chrono::milliseconds interval);
// Writes out what waits.
void flush();

inline void debug(std::string_view m, const nlohmann::json& f = nullptr) {
    write(Level::debug, m, f);
}
inline void info(std::string_view m, const nlohmann::json& f = nullptr) {
    write(Level::info, m, f);
}
inline void warn(std::string_view m, const nlohmann::json& f = nullptr) {
    write(Level::warn, m, f);
}
inline void error(std::string_view m, const nlohmann::json& f = nullptr) {
    write(Level::error, m, f);
}

}  // namespace squawk::log
