#include "api/server/byte_range.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

namespace squawk::api {
namespace {

using Kind = ByteRangeAnswer::Kind;

constexpr long long kHuge = std::numeric_limits<long long>::max() / 2;

void trim(std::string_view& text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
}

bool starts_with_unit(std::string_view text) {
    constexpr std::string_view unit = "bytes=";
    if (text.size() < unit.size()) return false;
    for (size_t i = 0; i < unit.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(text[i])) != unit[i]) return false;
    return true;
}

// Decimal digits only; values past any file size saturate instead of overflowing.
std::optional<long long> parse_position(std::string_view digits) {
    if (digits.empty()) return std::nullopt;
    long long value = 0;
    for (char c : digits) {
        if (c < '0' || c > '9') return std::nullopt;
        const int digit = c - '0';
        value = value > (kHuge - digit) / 10 ? kHuge : value * 10 + digit;
    }
    return value;
}

}  // namespace

ByteRangeAnswer resolve_byte_range(std::optional<std::string_view> header, long long size,
                                   long long max_length) {
    if (!header) return {};
    std::string_view spec = *header;
    trim(spec);
    if (!starts_with_unit(spec)) return {};
    spec.remove_prefix(6);
    trim(spec);
    if (spec.find(',') != std::string_view::npos) return {};
    const size_t dash = spec.find('-');
    if (dash == std::string_view::npos) return {};
    std::string_view first_text = spec.substr(0, dash);
    std::string_view last_text = spec.substr(dash + 1);
    trim(first_text);
    trim(last_text);

    long long first = 0;
    long long last = 0;
    if (first_text.empty()) {
        const auto suffix = parse_position(last_text);
        if (!suffix) return {};
        if (*suffix == 0 || size == 0) return {Kind::unsatisfiable};
        first = std::max(0LL, size - *suffix);
        last = size - 1;
    } else {
        const auto from = parse_position(first_text);
        if (!from) return {};
        std::optional<long long> to;
        if (!last_text.empty()) {
            to = parse_position(last_text);
            if (!to || *to < *from) return {};
        }
        if (*from >= size) return {Kind::unsatisfiable};
        first = *from;
        last = std::min(to.value_or(size - 1), size - 1);
    }
    if (max_length > 0 && last - first + 1 > max_length) last = first + max_length - 1;
    return {Kind::partial, first, last};
}

}  // namespace squawk::api
