#include "api/server/byte_range.hpp"

#include "common/core/text/ascii.hpp"

#include <algorithm>
#include <limits>

namespace squawk::api {
namespace {

using Kind = ByteRangeAnswer::Kind;

constexpr long long kHuge = std::numeric_limits<long long>::max() / 2;

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
    std::string_view spec = text::trim_blanks(*header);
    if (!text::starts_with_ignoring_case(spec, "bytes=")) return {};
    spec.remove_prefix(6);
    spec = text::trim_blanks(spec);
    if (spec.find(',') != std::string_view::npos) return {};
    const size_t dash = spec.find('-');
    if (dash == std::string_view::npos) return {};
    const std::string_view first_text = text::trim_blanks(spec.substr(0, dash));
    const std::string_view last_text = text::trim_blanks(spec.substr(dash + 1));

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
