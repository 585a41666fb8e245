// The OpenAPI document covers the guarantees' routes: every profiles, billing, usage and logs
// route of the table has an operation with an operationId, x-scopes and its error answers.
#include "api/handlers/routes.hpp"
#include "api/openapi/openapi_document.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

using namespace squawk;

TEST_CASE(
    "every profiles, billing, usage and logs route is documented with its scopes and errors") {
    const auto doc = nlohmann::json::parse(api::openapi_document());
    for (const auto& route : api::route_table()) {
        const std::string pattern(route.pattern);
        if (!(pattern.starts_with("/v1/profiles") || pattern == "/v1/me/billing" ||
              pattern == "/v1/me/usage" || pattern == "/v1/logs"))
            continue;
        std::string method(route.method);
        std::transform(method.begin(), method.end(), method.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        const std::string path = pattern.substr(3);
        INFO(method << " " << path);
        REQUIRE(doc["paths"].contains(path));
        REQUIRE(doc["paths"][path].contains(method));
        const auto& op = doc["paths"][path][method];
        CHECK(op.contains("operationId"));
        REQUIRE(op.contains("x-scopes"));
        if (route.access.kind == api::Access::Kind::scope)
            CHECK(op["x-scopes"] == nlohmann::json::array({std::string(route.access.scope)}));
        CHECK(op["responses"].contains("401"));
        CHECK(op["responses"].contains("429"));
    }
    CHECK(doc["components"]["responses"].contains("PaymentRequired"));
    CHECK(doc["components"]["headers"].contains("X-RateLimit-Limit"));
}
