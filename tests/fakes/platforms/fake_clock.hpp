// The time as the fake platforms write it into their answers.
#pragma once

#include <string>
#include <string_view>

namespace squawk::fakes::platforms {

long long unix_now();
long long unix_now_ms();
// Now in UTC as 2026-11-23T10:00:00, then `fraction_digits` (0, 3 or 6) digits of the second
// after a dot, then `zone` ("Z", "+00:00", "+0000"): each platform's own form.
std::string utc_now(int fraction_digits, std::string_view zone);

}  // namespace squawk::fakes::platforms
