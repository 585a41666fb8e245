// The OpenAPI document names exactly the registered platforms: the platform enums, the connect
// path's parameter and each platform's connect body come from the registry, not from a list kept
// by hand in api/openapi/.
#include "common/domain/social/connector.hpp"
#include "tests/unit/openapi_json.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace squawk;

namespace {

std::vector<std::string> registered_ids() {
    std::vector<std::string> out;
    for (const auto& platform : social::registered_platforms()) out.emplace_back(platform.id);
    return out;
}

nlohmann::json parameter(const std::string& path, const std::string& method,
                         const std::string& name) {
    for (const auto& p : testing::openapi_json().at("paths").at(path).at(method).at("parameters"))
        if (p.value("name", "") == name) return p;
    return nullptr;
}

}  // namespace

TEST_CASE("the Platform enum equals the registered platforms' ids") {
    CHECK(testing::openapi_schema("Platform").at("enum").get<std::vector<std::string>>() ==
          registered_ids());
    CHECK(testing::openapi_schema("SocialAccount").at("properties").at("platform").at("$ref") ==
          "#/components/schemas/Platform");
    for (const auto* path : {"/social/accounts", "/social/accounts/health"}) {
        INFO(path);
        CHECK(parameter(path, "get", "platform").at("schema").at("$ref") ==
              "#/components/schemas/Platform");
    }
}

TEST_CASE("the connect path takes every registered id and alias as its platform") {
    std::vector<std::string> names;
    for (const auto& platform : social::registered_platforms()) {
        names.emplace_back(platform.id);
        for (const auto alias : platform.aliases) names.emplace_back(alias);
    }
    CHECK(testing::openapi_schema("PlatformName").at("enum").get<std::vector<std::string>>() ==
          names);
    const auto platform = parameter("/social/connect/{platform}", "post", "platform");
    REQUIRE(platform.is_object());
    CHECK(platform.at("in") == "path");
    CHECK(platform.at("required") == true);
    CHECK(platform.at("schema").at("$ref") == "#/components/schemas/PlatformName");
}

TEST_CASE("each registered platform's connect body lists its credential fields") {
    const auto& bodies = testing::openapi_schema("SocialConnect").at("anyOf");
    REQUIRE(bodies.size() == social::registered_platforms().size());
    size_t i = 0;
    for (const auto& platform : social::registered_platforms()) {
        INFO(platform.id);
        const std::string ref = bodies[i++].at("$ref");
        const auto& body = testing::openapi_schema(ref.substr(ref.rfind('/') + 1));
        CHECK(body.at("additionalProperties") == false);
        std::vector<std::string> required;
        for (const auto& field : platform.credential_fields) {
            const auto& property = body.at("properties").at(std::string(field.name));
            CHECK(property.at("maxLength") == social::kMaxCredentialChars);
            if (field.required) required.emplace_back(field.name);
        }
        CHECK(body.at("properties").size() == platform.credential_fields.size());
        CHECK(body.value("required", std::vector<std::string>{}) == required);
    }
}
