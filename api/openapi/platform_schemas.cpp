#include "api/openapi/platform_schemas.hpp"

#include "common/domain/social/connector.hpp"

#include <cctype>
#include <string>

namespace squawk::api {
namespace {

using nlohmann::json;

// "telegram" -> "TelegramConnect".
std::string connect_schema_name(std::string_view id) {
    std::string name(id);
    if (!name.empty()) name.front() = static_cast<char>(std::toupper(name.front()));
    return name + "Connect";
}

json connect_schema(const social::PlatformFactory& platform) {
    json properties = json::object();
    json required = json::array();
    for (const auto& field : platform.credential_fields) {
        const std::string name(field.name);
        properties[name] = {{"type", "string"},
                            {"maxLength", social::kMaxCredentialChars},
                            {"description", field.description}};
        if (field.required) required.push_back(name);
    }
    json schema = {{"type", "object"},
                   {"additionalProperties", false},
                   {"description", platform.connect_description},
                   {"properties", std::move(properties)}};
    if (!required.empty()) schema["required"] = std::move(required);
    return schema;
}

}  // namespace

json platform_schemas() {
    json ids = json::array();
    json names = json::array();
    json connect_bodies = json::array();
    json schemas = json::object();
    for (const auto& platform : social::registered_platforms()) {
        ids.push_back(platform.id);
        names.push_back(platform.id);
        for (const auto alias : platform.aliases) names.push_back(alias);
        const auto name = connect_schema_name(platform.id);
        schemas[name] = connect_schema(platform);
        connect_bodies.push_back({{"$ref", "#/components/schemas/" + name}});
    }
    schemas["Platform"] = {{"type", "string"},
                           {"description", "A platform's id, as accounts and posts name it."},
                           {"enum", std::move(ids)}};
    schemas["PlatformName"] = {{"type", "string"},
                               {"description", "A platform's id or one of its aliases."},
                               {"enum", std::move(names)}};
    schemas["SocialConnect"] = {
        {"description", "The connect fields of the platform named in the path."},
        {"anyOf", std::move(connect_bodies)}};
    return {{"components", {{"schemas", std::move(schemas)}}}};
}

}  // namespace squawk::api
