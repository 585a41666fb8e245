#include "common/core/db/keyset.hpp"

namespace squawk::db {

std::string keyset_tail(const Keyset& keyset, Params& params) {
    std::string tail;
    if (keyset.reads_newer()) {
        tail = " AND id > ? ORDER BY id ASC";
        params.emplace_back(*keyset.after_id);
    } else if (keyset.before_id) {
        tail = " AND id < ? ORDER BY id DESC";
        params.emplace_back(*keyset.before_id);
    } else {
        tail = " ORDER BY id DESC";
    }
    params.emplace_back(static_cast<long long>(keyset.limit) + 1);
    return tail + " LIMIT ?";
}

}  // namespace squawk::db
