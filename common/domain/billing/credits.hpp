// Credit amounts as operators and clients write them ("12.5", "0.0100") and as they are kept:
// integers of 1/10,000 credit, so sums never drift.
#pragma once

#include <optional>
#include <string_view>

namespace squawk::billing {

inline constexpr long long kUnitsPerCredit = 10000;
// Larger amounts are refused; a wallet never needs more and sums stay far from overflow.
inline constexpr long long kMaxAmountUnits = 1000000000LL * kUnitsPerCredit;

// "12", "12.5", "0.0001": digits, an optional point and at most 4 fraction digits, no sign.
// Nothing else parses (no exponent, no spaces, no empty parts); nullopt above kMaxAmountUnits.
std::optional<long long> parse_credits(std::string_view text);

// The amount as a number of credits (spec 2.6 total_credits_used).
double credits_as_number(long long units);

}  // namespace squawk::billing
