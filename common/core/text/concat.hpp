// Joins parts into one string. Used where a chain of operator+ would do: GCC 12 reports false
// -Warray-bounds on such chains under -O2.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace squawk::text {

inline std::string concat(std::initializer_list<std::string_view> parts) {
    size_t size = 0;
    for (auto part : parts) size += part.size();
    std::string out;
    out.reserve(size);
    for (auto part : parts) out.append(part);
    return out;
}

}  // namespace squawk::text
