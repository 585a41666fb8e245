#include "common/core/time/clock.hpp"

#include <atomic>
#include <charconv>
#include <thread>

namespace squawk::time {
namespace {

std::atomic<double> g_scale{1.0};

bool read_int(std::string_view text, size_t pos, size_t len, int& out) {
    if (pos + len > text.size()) return false;
    for (size_t i = pos; i < pos + len; ++i)
        if (text[i] < '0' || text[i] > '9') return false;
    std::from_chars(text.data() + pos, text.data() + pos + len, out);
    return true;
}

// Writes `value` as exactly `width` decimal digits ending just before `end`; returns the start.
char* put_digits(char* end, long long value, int width) {
    for (int i = 0; i < width; ++i, value /= 10) *--end = static_cast<char>('0' + value % 10);
    return end;
}

// Digit by digit rather than through snprintf: every answer and log line formats a time, and
// parsing a format string costs more than the rest of it.
std::string format(TimePoint t, char date_time_separator, bool zulu) {
    using namespace std::chrono;
    const auto day = floor<days>(t);
    const year_month_day ymd{day};
    const auto in_day = duration_cast<microseconds>(t - day).count();
    const long long second_of_day = in_day / 1'000'000;
    char buf[28];  // YYYY-MM-DDThh:mm:ss.ffffffZ
    put_digits(buf + 4, int(ymd.year()), 4);
    buf[4] = '-';
    put_digits(buf + 7, unsigned(ymd.month()), 2);
    buf[7] = '-';
    put_digits(buf + 10, unsigned(ymd.day()), 2);
    buf[10] = date_time_separator;
    put_digits(buf + 13, second_of_day / 3600, 2);
    buf[13] = ':';
    put_digits(buf + 16, second_of_day / 60 % 60, 2);
    buf[16] = ':';
    put_digits(buf + 19, second_of_day % 60, 2);
    buf[19] = '.';
    put_digits(buf + 26, in_day % 1'000'000, 6);
    buf[26] = 'Z';
    return std::string(buf, zulu ? 27 : 26);
}

// Parses "YYYY-MM-DD?hh:mm:ss[.ffffff]" and returns the position after it.
std::optional<std::pair<TimePoint, size_t>> parse_date_time(std::string_view text) {
    using namespace std::chrono;
    int y, mo, d, h, mi, s;
    if (!read_int(text, 0, 4, y) || text.size() < 19 || text[4] != '-' ||
        !read_int(text, 5, 2, mo) || text[7] != '-' || !read_int(text, 8, 2, d) ||
        (text[10] != 'T' && text[10] != ' ' && text[10] != 't') || !read_int(text, 11, 2, h) ||
        text[13] != ':' || !read_int(text, 14, 2, mi) || text[16] != ':' ||
        !read_int(text, 17, 2, s))
        return std::nullopt;
    const year_month_day ymd{year{y}, month{unsigned(mo)}, day{unsigned(d)}};
    if (!ymd.ok() || h > 23 || mi > 59 || s > 59) return std::nullopt;
    size_t pos = 19;
    long long micros = 0;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        int digits = 0;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
            if (digits < 6) {
                micros = micros * 10 + (text[pos] - '0');
                ++digits;
            }
            ++pos;
        }
        if (digits == 0) return std::nullopt;
        for (; digits < 6; ++digits) micros *= 10;
    }
    const TimePoint t = time_point_cast<microseconds>(sys_days{ymd}) + hours{h} + minutes{mi} +
                        seconds{s} + microseconds{micros};
    return std::make_pair(t, pos);
}

}  // namespace

TimePoint now() {
    return std::chrono::time_point_cast<std::chrono::microseconds>(Clock::now());
}

std::string format_iso8601(TimePoint t) {
    return format(t, 'T', true);
}
std::string format_mysql(TimePoint t) {
    return format(t, ' ', false);
}

std::optional<TimePoint> parse_iso8601(std::string_view text) {
    auto parsed = parse_date_time(text);
    if (!parsed) return std::nullopt;
    auto [t, pos] = *parsed;
    if (pos == text.size()) return std::nullopt;  // an instant needs its offset
    if ((text[pos] == 'Z' || text[pos] == 'z') && pos + 1 == text.size()) return t;
    if ((text[pos] == '+' || text[pos] == '-') && text.size() == pos + 6 && text[pos + 3] == ':') {
        int oh, om;
        if (!read_int(text, pos + 1, 2, oh) || !read_int(text, pos + 4, 2, om) || oh > 23 ||
            om > 59)
            return std::nullopt;
        const auto offset = std::chrono::hours{oh} + std::chrono::minutes{om};
        return text[pos] == '+' ? t - offset : t + offset;
    }
    return std::nullopt;
}

std::optional<TimePoint> parse_mysql(std::string_view text) {
    auto parsed = parse_date_time(text);
    if (!parsed || parsed->second != text.size()) return std::nullopt;
    return parsed->first;
}

long long to_unix_ms(TimePoint t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

void set_time_scale(double scale) {
    g_scale = scale;
}
double time_scale() {
    return g_scale.load();
}

namespace {

void block_thread(std::chrono::microseconds duration) {
    std::this_thread::sleep_for(duration);
}

std::atomic<PauseFn> g_pause{block_thread};

}  // namespace

void set_pause(PauseFn pause) {
    g_pause = pause;
}

void pause(std::chrono::microseconds duration) {
    g_pause.load()(duration);
}

std::chrono::microseconds scaled(std::chrono::microseconds real_duration) {
    return std::chrono::microseconds(
        static_cast<long long>(static_cast<double>(real_duration.count()) * g_scale.load()));
}

}  // namespace squawk::time
