// Fuzzes the bulk-post CSV reader with arbitrary bytes: it must return rows or an error, never
// crash, hang or return more rows than it was allowed.
#include "common/domain/social/post_csv.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const auto table = squawk::social::parse_csv(input, 51, 5);
    if (!table.error && table.rows.size() > 51) std::abort();
    const auto posts = squawk::social::csv_posts(input, 50);
    if (!posts.error && (posts.posts.empty() || posts.posts.size() > 50)) std::abort();
    return 0;
}
