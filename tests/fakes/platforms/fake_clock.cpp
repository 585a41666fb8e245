#include "tests/fakes/platforms/fake_clock.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace squawk::fakes::platforms {

long long unix_now() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

long long unix_now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string utc_now(int fraction_digits, std::string_view zone) {
    const auto now = std::chrono::system_clock::now();
    const auto micros =
        std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() %
        1000000;
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[64];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d", utc.tm_year + 1900,
                  utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec);
    std::string out = text;
    if (fraction_digits > 0) {
        long long fraction = micros;
        for (int d = 6; d > fraction_digits; --d) fraction /= 10;
        const std::string digits = std::to_string(fraction);
        out +=
            '.' + std::string(static_cast<size_t>(fraction_digits) - digits.size(), '0') + digits;
    }
    return out.append(zone);
}

}  // namespace squawk::fakes::platforms
