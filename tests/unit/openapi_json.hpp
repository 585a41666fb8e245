// The served OpenAPI document, parsed once, for the unit tests that compare it with the code.
#pragma once

#include "api/openapi/openapi_document.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace squawk::testing {

inline const nlohmann::json& openapi_json() {
    static const auto parsed = nlohmann::json::parse(api::openapi_document());
    return parsed;
}

inline const nlohmann::json& openapi_schema(const std::string& name) {
    return openapi_json().at("components").at("schemas").at(name);
}

}  // namespace squawk::testing
