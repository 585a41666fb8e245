#include "common/log/logger.hpp"

#include "common/time/clock.hpp"

#include <atomic>
#include <cstdio>
#include <mutex>

namespace squawk::log {
namespace {

std::atomic<Level> g_level{Level::info};
std::string g_component = "squawk";
std::mutex g_write_mutex;

const char* level_name(Level level) {
    switch (level) {
        case Level::debug: return "debug";
        case Level::info: return "info";
        case Level::warn: return "warn";
        case Level::error: return "error";
    }
    return "info";
}

}  // namespace

void set_level(std::string_view level) {
    if (level == "debug") g_level = Level::debug;
    else if (level == "warn") g_level = Level::warn;
    else if (level == "error") g_level = Level::error;
    else g_level = Level::info;
}

void set_component(std::string_view component) { g_component = component; }

bool enabled(Level level) { return level >= g_level.load(std::memory_order_relaxed); }

void write(Level level, std::string_view message, const nlohmann::json& fields) {
    if (!enabled(level)) return;
    nlohmann::json line = {{"ts", time::format_iso8601(time::now())},
                           {"level", level_name(level)},
                           {"component", g_component},
                           {"msg", message}};
    if (fields.is_object())
        for (const auto& [key, value] : fields.items()) line[key] = value;
    const std::string text =
        line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    std::lock_guard lock(g_write_mutex);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

}  // namespace squawk::log
