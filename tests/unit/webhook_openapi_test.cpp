#include "api/handlers/routes.hpp"
#include "api/openapi/openapi_document.hpp"
#include "common/events/event_catalog.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>

using namespace squawk;

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

}  // namespace

TEST_CASE("every webhook route is documented with its operationId and the scope it needs") {
    const auto doc = nlohmann::json::parse(api::openapi_document());
    int documented = 0;
    for (const auto& route : api::route_table()) {
        if (!route.pattern.starts_with("/v1/webhooks")) continue;
        const std::string path(route.pattern.substr(3));
        INFO(route.method << " " << path);
        REQUIRE(doc["paths"].contains(path));
        const auto& op = doc["paths"][path][lower(route.method)];
        REQUIRE(op.is_object());
        CHECK(op["operationId"].is_string());
        CHECK(op["x-scopes"] == nlohmann::json::array({std::string(route.access.scope)}));
        CHECK(op["responses"].contains("200") + op["responses"].contains("201") == 1);
        ++documented;
    }
    CHECK(documented == 10);
}

TEST_CASE("every event of the catalog is documented in the webhooks object with its payload") {
    const auto doc = nlohmann::json::parse(api::openapi_document());
    CHECK(doc["webhooks"].size() == events::catalog().size());
    for (const auto name : events::catalog()) {
        INFO(name);
        const auto& hook = doc["webhooks"][std::string(name)]["post"];
        REQUIRE(hook.is_object());
        const auto& schema = hook["requestBody"]["content"]["application/json"]["schema"];
        CHECK(schema["properties"]["event"]["const"] == name);
        CHECK(schema["properties"].contains("data"));
        CHECK(hook.contains("x-scopes"));
    }
}
