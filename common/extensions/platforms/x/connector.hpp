// X connector (API v2 with OAuth 2.0 user tokens): connects through the authorization code flow
// with PKCE (a confidential client, rotating refresh tokens), verifies (users/me), publishes posts
// with uploaded images (media/upload, then tweets), deletes them and lists the account's recent
// posts. Posts cannot be edited through the API.
#pragma once

#include "common/domain/social/connector.hpp"

#include <memory>

namespace squawk::social::x {

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http);

}  // namespace squawk::social::x
