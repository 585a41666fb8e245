// Request paths against the real route table: every path is found, unknown, of another method or
// malformed, and path parameters stay within their bound.
#include "api/handlers/routes.hpp"
#include "api/server/router.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const squawk::api::Router router(squawk::api::route_table());
    static constexpr std::string_view kMethods[] = {"GET", "POST", "PUT", "PATCH", "DELETE"};
    if (size < 1) return 0;
    const std::string_view path(reinterpret_cast<const char*>(data + 1), size - 1);
    const auto match = router.match(kMethods[data[0] % 5], path);
    if (match.outcome == squawk::api::RouteMatch::Outcome::found) {
        if (!match.route) __builtin_trap();
        for (const auto& [name, value] : match.params)
            if (value.size() > squawk::api::kMaxPathParamBytes) __builtin_trap();
    }
    return 0;
}
