// The parts of the OpenAPI document the platform registry decides: the platform enums and each
// platform's connect body, so the document names exactly the platforms this build registers.
#pragma once

#include <nlohmann/json.hpp>

namespace squawk::api {

// {"components": {"schemas": {Platform, PlatformName, <Platform>Connect..., SocialConnect}}}, a
// fragment merged with the files in api/openapi/.
nlohmann::json platform_schemas();

}  // namespace squawk::api
