#include "ctl/table.hpp"

#include <catch2/catch.hpp>

#include <sstream>

TEST_CASE("table columns are padded to their widest cell") {
    squawk::ctl::Table table({"id", "name"});
    table.add({"7", "a long name"});
    table.add({"1234", "b"});
    std::ostringstream out;
    table.print(out);
    CHECK(out.str() ==
          "id    name\n"
          "7     a long name\n"
          "1234  b\n");
}
