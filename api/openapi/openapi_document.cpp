#include "api/openapi/openapi_document.hpp"

#include "api/handlers/routes.hpp"
#include "api/openapi/platform_schemas.hpp"
#include "common/core/text/ascii.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
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

// What the request pipeline (api/server) may answer on a route whatever its handler does, by what
// the route table says of the route. Added here to each operation that does not describe the
// status itself, so no fragment can forget one.
void add_pipeline_responses(nlohmann::json& document) {
    for (const Route& route : route_table()) {
        const std::string_view pattern = route.pattern;
        const std::string path(pattern.starts_with("/v1/") ? pattern.substr(3) : pattern);
        const std::string method = text::ascii_lowercase(route.method);
        if (!document["paths"].contains(path) || !document["paths"][path].contains(method))
            continue;  // the route-table tests name the missing operation
        auto& responses = document["paths"][path][method]["responses"];
        const auto add = [&](const char* status, const char* response) {
            if (!responses.contains(status))
                responses[status] = {{"$ref", std::string("#/components/responses/") + response}};
        };
        const bool keyed = route.access.kind != Access::Kind::open;
        const bool has_body = method == "post" || method == "put" || method == "patch";
        add("400", "BadRequest");  // a path or header that cannot be read
        add("413", "PayloadTooLarge");
        add("431", "HeadersTooLarge");
        add("500", "ServerError");
        add("503", "ServerError");
        if (keyed) add("401", "Unauthorized");
        if (route.access.kind == Access::Kind::scope) add("403", "Forbidden");
        if (keyed && route.rate_limited) add("429", "RateLimited");
        if (keyed && route.accepts_profile) {
            add("404", "NotFound");  // X-Profile-Id names no profile of the caller's
            add("409", "ProfileConflict");
        }
        if (!route.billable_as.empty()) add("402", "PaymentRequired");
        if (has_body) add("415", "UnsupportedMediaType");
        if (has_body && keyed) add("409", "IdempotencyConflict");
    }
}

std::string build() {
    nlohmann::json document = nlohmann::json::object();
    for (const auto& fragment : embedded::openapi_fragments()) {
        const auto parsed = nlohmann::json::parse(fragment.text);
        merge(document, parsed, std::string(fragment.name) + ":");
    }
    merge(document, platform_schemas(), "platform registry:");
    add_pipeline_responses(document);
    return document.dump();
}

}  // namespace

const std::string& openapi_document() {
    static const std::string document = build();
    return document;
}

}  // namespace squawk::api
