// The OpenAPI `webhooks` object documents every event a webhook may subscribe to, with its payload.
#include "api/openapi/openapi_document.hpp"
#include "common/domain/events/event_catalog.hpp"

#include <catch2/catch.hpp>

using namespace squawk;

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
