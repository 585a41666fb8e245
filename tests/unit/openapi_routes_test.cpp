// The OpenAPI document and the route table describe the same API: every route is documented with
// the scope it checks, and nothing is documented that the server does not route.
#include "api/handlers/routes.hpp"
#include "tests/unit/openapi_json.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>

using namespace squawk;

namespace {

constexpr std::string_view kVersionPrefix = "/v1";

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// Routes under /v1, as the document names them (relative to its /v1 server).
std::set<std::pair<std::string, std::string>> versioned_routes() {
    std::set<std::pair<std::string, std::string>> out;
    for (const auto& route : api::route_table()) {
        if (!route.pattern.starts_with(kVersionPrefix)) continue;
        out.emplace(std::string(route.pattern.substr(kVersionPrefix.size())), lower(route.method));
    }
    return out;
}

}  // namespace

TEST_CASE("every versioned route is documented with the scope it requires") {
    const auto& paths = testing::openapi_json().at("paths");
    for (const auto& route : api::route_table()) {
        if (!route.pattern.starts_with(kVersionPrefix)) continue;
        const std::string path(route.pattern.substr(kVersionPrefix.size()));
        INFO(route.method << " " << route.pattern);
        REQUIRE(paths.contains(path));
        REQUIRE(paths[path].contains(lower(route.method)));
        const auto& operation = paths[path][lower(route.method)];
        REQUIRE(operation.contains("x-scopes"));
        const auto scopes = operation["x-scopes"].get<std::vector<std::string>>();
        if (route.access.kind == api::Access::Kind::scope) {
            CHECK(scopes == std::vector<std::string>{std::string(route.access.scope)});
        } else {
            CHECK(scopes.empty());
        }
        CHECK(operation.contains("operationId"));
        CHECK(operation.contains("responses"));
    }
}

TEST_CASE("the document describes no operation the server does not route") {
    const auto routes = versioned_routes();
    for (const auto& [path, item] : testing::openapi_json().at("paths").items()) {
        for (const auto& [method, operation] : item.items()) {
            if (method == "parameters") continue;
            INFO(method << " " << path);
            CHECK(routes.count({path, method}) == 1);
        }
    }
}

TEST_CASE("unversioned routes are aliases of documented versioned ones") {
    const auto routes = versioned_routes();
    for (const auto& route : api::route_table()) {
        if (route.pattern.starts_with(kVersionPrefix)) continue;
        INFO(route.method << " " << route.pattern);
        CHECK(routes.count({std::string(route.pattern), lower(route.method)}) == 1);
    }
}

TEST_CASE("the document declares the webhooks object and the bearer scheme") {
    CHECK(testing::openapi_json().at("openapi") == "3.1.0");
    CHECK(testing::openapi_json().contains("webhooks"));
    CHECK(testing::openapi_json()["components"]["securitySchemes"].contains("bearerAuth"));
}
