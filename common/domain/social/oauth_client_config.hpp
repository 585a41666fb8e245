// The OAuth application a deployment registered with a platform, as configured: [social.<id>]
// client_id, client_secret and authorize_url, and our callback route as the redirect URI.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/domain/social/connector.hpp"

#include <optional>

namespace squawk::social {

// Nothing when client_id or client_secret is not set.
std::optional<OAuthClient> configured_oauth_client(const config::Config& config,
                                                   const PlatformFactory& platform);

}  // namespace squawk::social
