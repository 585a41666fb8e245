#include "common/domain/billing/credits.hpp"

namespace squawk::billing {

std::optional<long long> parse_credits(std::string_view text) {
    const size_t point = text.find('.');
    const std::string_view whole = text.substr(0, point);
    const std::string_view fraction =
        point == std::string_view::npos ? std::string_view() : text.substr(point + 1);
    if (whole.empty() || whole.size() > 10) return std::nullopt;
    if (point != std::string_view::npos && (fraction.empty() || fraction.size() > 4))
        return std::nullopt;
    long long units = 0;
    for (char c : whole) {
        if (c < '0' || c > '9') return std::nullopt;
        units = units * 10 + (c - '0');
    }
    units *= kUnitsPerCredit;
    long long scale = kUnitsPerCredit / 10;
    for (char c : fraction) {
        if (c < '0' || c > '9') return std::nullopt;
        units += (c - '0') * scale;
        scale /= 10;
    }
    if (units > kMaxAmountUnits) return std::nullopt;
    return units;
}

double credits_as_number(long long units) {
    return static_cast<double>(units) / static_cast<double>(kUnitsPerCredit);
}

}  // namespace squawk::billing
