#include "api/openapi/openapi_document.hpp"

#include "api/openapi/platform_schemas.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace squawk::api {
namespace {

// Objects merge key by key; any other value defined twice is a conflict between fragments.
void merge(nlohmann::json& into, const nlohmann::json& from, const std::string& where) {
    for (const auto& [key, value] : from.items()) {
        const std::string path = where + "/" + key;
        if (!into.contains(key)) {
            into[key] = value;
        } else if (into[key].is_object() && value.is_object()) {
            merge(into[key], value, path);
        } else {
            throw std::logic_error("OpenAPI fragments both define " + path);
        }
    }
}

std::string build() {
    nlohmann::json document = nlohmann::json::object();
    for (const auto& fragment : embedded::openapi_fragments()) {
        const auto parsed = nlohmann::json::parse(fragment.text);
        merge(document, parsed, std::string(fragment.name) + ":");
    }
    merge(document, platform_schemas(), "platform registry:");
    return document.dump();
}

}  // namespace

const std::string& openapi_document() {
    static const std::string document = build();
    return document;
}

}  // namespace squawk::api
