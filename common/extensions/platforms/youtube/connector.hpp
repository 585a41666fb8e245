// YouTube connector (YouTube Data API v3 with Google OAuth 2.0): connects through the
// authorization code flow with PKCE and offline access (a refresh token), names the channel
// (channels?mine=true), uploads videos and Shorts with the resumable upload protocol, edits their
// title and description, deletes them, lists the channel's uploads and reads the channel's and a
// video's statistics.
#pragma once

#include "common/domain/social/connector.hpp"

#include <memory>

namespace squawk::social::youtube {

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http);

}  // namespace squawk::social::youtube
