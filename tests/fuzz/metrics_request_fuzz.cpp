// Request heads reaching a worker's or the scheduler's metrics port: the check reads only within
// the bytes it is given.
#include "common/core/metrics/metrics_server.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view head(reinterpret_cast<const char*>(data), size);
    if (squawk::metrics::is_metrics_request(head) && size < 13) __builtin_trap();
    return 0;
}
