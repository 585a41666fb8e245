#include "common/core/db/sql_text.hpp"

#include <catch2/catch.hpp>

using squawk::db::batch_rows;

TEST_CASE("a batch writer takes a power of two of the waiting rows, or its maximum") {
    CHECK(batch_rows(0, 500) == 0);
    CHECK(batch_rows(1, 500) == 1);
    CHECK(batch_rows(3, 500) == 2);
    CHECK(batch_rows(100, 500) == 64);
    CHECK(batch_rows(257, 500) == 256);
    CHECK(batch_rows(499, 500) == 256);
    CHECK(batch_rows(500, 500) == 500);
    CHECK(batch_rows(10000, 500) == 500);
}

TEST_CASE("batch sizes take at least half of what waits, so the rest is a smaller batch") {
    for (size_t waiting = 1; waiting <= 1000; ++waiting) {
        const auto taken = batch_rows(waiting, 1000);
        CHECK(taken * 2 > waiting);
        CHECK(taken <= waiting);
    }
}
