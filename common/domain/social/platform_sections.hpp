// The [social.<platform>] sections configuration accepts: exactly the platforms this build
// registers, each with its public API's address as the default api_base_url.
#pragma once

#include <span>
#include <string_view>

namespace squawk::config {

struct PlatformSection {
    std::string_view name;
    std::string_view default_base_url;
    std::string_view default_authorize_url;  // empty for a platform that does not use OAuth
    std::string_view default_token_url;      // empty unless the token endpoint has its own host
    std::string_view default_upload_url;     // empty unless media uploads have their own host
};

// Defined by the platform registry (common/domain/social/connector.cpp), which owns the list, so
// adding a platform needs no edit to the configuration.
std::span<const PlatformSection> platform_sections();

}  // namespace squawk::config
