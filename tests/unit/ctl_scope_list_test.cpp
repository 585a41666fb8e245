#include "ctl/scope_list.hpp"
#include "ctl/usage_error.hpp"

#include <catch2/catch.hpp>

using squawk::ctl::parse_scope_list;
using squawk::ctl::UsageError;

TEST_CASE("the scope list \"all\" grants every scope as \"*\"") {
    CHECK(parse_scope_list("all") == std::set<std::string>{"*"});
    CHECK(parse_scope_list(" all ") == std::set<std::string>{"*"});
}

TEST_CASE("a scope list is split on commas, trimmed and deduplicated") {
    CHECK(parse_scope_list("jobs:read,audio:write") ==
          std::set<std::string>{"audio:write", "jobs:read"});
    CHECK(parse_scope_list(" jobs:read , media:read,jobs:read,") ==
          std::set<std::string>{"jobs:read", "media:read"});
}

TEST_CASE("an unknown scope is refused with its name in the message") {
    try {
        parse_scope_list("jobs:read,telepathy:use");
        FAIL("accepted an unknown scope");
    } catch (const UsageError& e) {
        CHECK(std::string(e.what()).find("telepathy:use") != std::string::npos);
    }
    CHECK_THROWS_AS(parse_scope_list("Jobs:Read"), UsageError);
}

TEST_CASE("\"all\" mixed with other scopes and empty lists are refused") {
    CHECK_THROWS_AS(parse_scope_list("all,jobs:read"), UsageError);
    CHECK_THROWS_AS(parse_scope_list(""), UsageError);
    CHECK_THROWS_AS(parse_scope_list(" , ,"), UsageError);
}
