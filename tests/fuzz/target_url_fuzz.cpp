// Fuzzes the webhook target URL parser and the numeric IPv4 reader with arbitrary bytes: they must
// either accept or throw TargetRefused, never crash or hang.
#include "common/core/net/target_url.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    try {
        const auto url = squawk::net::parse_url(input);
        if (auto address = squawk::net::parse_numeric_ipv4(url.host))
            (void)squawk::net::non_public_reason(*address);
    } catch (const squawk::net::TargetRefused&) {
    }
    try {
        (void)squawk::net::parse_numeric_ipv4(input);
    } catch (const squawk::net::TargetRefused&) {
    }
    return 0;
}
