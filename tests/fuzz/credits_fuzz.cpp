// libFuzzer target: credit amounts as operators type them (squawkctl wallet) on arbitrary bytes.
#include "common/domain/billing/credits.hpp"
#include "common/domain/workspace/workspace_repository.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto units = squawk::billing::parse_credits(text);
    if (!units) return 0;
    if (*units < 0 || *units > squawk::billing::kMaxAmountUnits) __builtin_trap();
    // Formatting and parsing again gives the same amount.
    if (squawk::billing::parse_credits(squawk::workspace::format_credits(*units)) != units)
        __builtin_trap();
    return 0;
}
