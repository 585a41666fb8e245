// Pinterest connector (API v5): connects through OAuth (continuous refresh tokens), verifies
// (GET /v5/user_account), publishes pins of one image, a carousel of two to five or a video
// uploaded through media registration to the board its options name, edits and deletes them,
// lists the account's recent pins and reads the account's and a pin's counts.
#pragma once

#include "common/domain/social/connector.hpp"

#include <memory>

namespace squawk::social::pinterest {

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http);

}  // namespace squawk::social::pinterest
