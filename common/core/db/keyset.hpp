// Paging of a newest-first listing by row id rather than by offset, so a page costs the same at
// any depth and needs no count: what a page asks for, what it answers, and the SQL that reads it.
#pragma once

#include "common/core/db/mysql_pool.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace squawk::db {

// The rows older than `before_id` (the next page), the rows newer than `after_id` (the previous
// page), or the newest when neither is set.
struct Keyset {
    std::optional<long long> before_id;
    std::optional<long long> after_id;
    int limit = 20;

    // A previous page is read upwards from its boundary, then turned newest first.
    bool reads_newer() const { return after_id.has_value(); }
};

// Newest first; `more`: further rows lie beyond these in the direction the keyset read.
template <class Row>
struct Slice {
    std::vector<Row> items;
    bool more = false;
};

// What follows a listing's WHERE conditions on its `id` column: the boundary, the order and the
// limit, which asks one row past the page to learn whether another follows. Appends their
// parameters to `params`, after the conditions' own.
std::string keyset_tail(const Keyset& keyset, Params& params);

// The page among `rows`, read with keyset_tail: the extra row dropped, newest first.
template <class Row>
Slice<Row> keyset_slice(const Keyset& keyset, std::vector<Row> rows) {
    Slice<Row> slice;
    slice.items = std::move(rows);
    slice.more = slice.items.size() > static_cast<std::size_t>(keyset.limit);
    if (slice.more) slice.items.pop_back();
    if (keyset.reads_newer()) std::reverse(slice.items.begin(), slice.items.end());
    return slice;
}

}  // namespace squawk::db
