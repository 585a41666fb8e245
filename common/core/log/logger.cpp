#include "common/core/log/logger.hpp"

#include "common/core/text/json_string.hpp"
#include "common/core/time/clock.hpp"

#include <atomic>
#include <charconv>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

namespace squawk::log {
namespace {

// Waiting lines past this size go out without waiting for the interval.
constexpr size_t kBufferBytes = 16 * 1024;

std::atomic<Level> g_level{Level::info};
std::string g_component = "squawk";

const char* level_name(Level level) {
    switch (level) {
        case Level::debug:
            return "debug";
        case Level::info:
            return "info";
        case Level::warn:
            return "warn";
        case Level::error:
            return "error";
    }
    return "info";
}

// Owns stdout for log lines: writes them at once, or keeps routine ones for a flusher thread.
class Sink {
  public:
    ~Sink() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        if (flusher_.joinable()) flusher_.join();
        flush();
    }

    void buffer_for(std::chrono::milliseconds interval) {
        std::lock_guard lock(mutex_);
        interval_ = interval;
        if (!flusher_.joinable() && interval.count() > 0)
            flusher_ = std::thread([this] { loop(); });
    }

    void put(std::string_view line, bool routine) {
        std::lock_guard lock(mutex_);
        pending_ += line;
        if (routine && interval_.count() > 0 && pending_.size() < kBufferBytes) return;
        write_pending();
    }

    void flush() {
        std::lock_guard lock(mutex_);
        write_pending();
    }

  private:
    void write_pending() {
        if (pending_.empty()) return;
        std::fwrite(pending_.data(), 1, pending_.size(), stdout);
        std::fflush(stdout);
        pending_.clear();
    }

    void loop() {
        std::unique_lock lock(mutex_);
        while (!stopping_) {
            wake_.wait_for(lock, interval_, [&] { return stopping_; });
            write_pending();
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    std::string pending_;
    std::chrono::milliseconds interval_{0};
    bool stopping_ = false;
    std::thread flusher_;
};

Sink& sink() {
    static Sink instance;
    return instance;
}

// Invalid UTF-8 is replaced rather than thrown: a log line must never fail.
void append_json(std::string& line, const nlohmann::json& value) {
    line += value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void append_key(std::string& line, std::string_view key) {
    if (line.size() > 1) line += ',';
    text::append_json_string(line, key);
    line += ':';
}

bool is_standard(std::string_view key) {
    return key == "ts" || key == "level" || key == "component" || key == "msg";
}

// Opens a line with the four standard members; a member of the same name in `fields` replaces one.
std::string line_start(Level level, std::string_view message, const nlohmann::json& fields) {
    std::string line = "{";
    const auto member = [&](const char* name, std::string_view standard) {
        append_key(line, name);
        const auto given = fields.is_object() ? fields.find(name) : fields.end();
        if (given != fields.end())
            append_json(line, *given);
        else
            text::append_json_string(line, standard);
    };
    member("ts", time::format_iso8601(time::now()));
    member("level", level_name(level));
    member("component", g_component);
    member("msg", message);
    return line;
}

void finish_line(std::string& line, Level level) {
    line += "}\n";
    sink().put(line, level == Level::debug || level == Level::info);
}

}  // namespace

void set_level(std::string_view level) {
    if (level == "debug")
        g_level = Level::debug;
    else if (level == "warn")
        g_level = Level::warn;
    else if (level == "error")
        g_level = Level::error;
    else
        g_level = Level::info;
}

void set_component(std::string_view component) {
    g_component = component;
}

bool enabled(Level level) {
    return level >= g_level.load(std::memory_order_relaxed);
}

void buffer_routine_lines(std::chrono::milliseconds interval) {
    sink().buffer_for(interval);
}

void flush() {
    sink().flush();
}

void write(Level level, std::string_view message, const nlohmann::json& fields) {
    if (!enabled(level)) return;
    std::string line = line_start(level, message, fields);
    if (fields.is_object())
        for (const auto& [key, value] : fields.items()) {
            if (is_standard(key)) continue;
            append_key(line, key);
            append_json(line, value);
        }
    finish_line(line, level);
}

void write_fields(Level level, std::string_view message, std::initializer_list<Field> fields) {
    if (!enabled(level)) return;
    std::string line = line_start(level, message, nullptr);
    for (const auto& field : fields) {
        append_key(line, field.key);
        if (const auto* words = std::get_if<std::string_view>(&field.value)) {
            text::append_json_string(line, *words);
        } else if (const auto* number = std::get_if<long long>(&field.value)) {
            char digits[24];
            line.append(digits, std::to_chars(digits, std::end(digits), *number).ptr);
        } else {
            append_json(line, std::get<double>(field.value));
        }
    }
    finish_line(line, level);
}

}  // namespace squawk::log
