// Bluesky connector (AT Protocol XRPC on the account's PDS): an identifier and an app password;
// verifies (a session, getProfile for the name), publishes posts with link and mention facets and
// a link card or uploaded images (resolveHandle, uploadBlob, createRecord), deletes them
// (deleteRecord) and lists the account's recent posts (getAuthorFeed), reusing the account's
// session across operations. Bluesky posts cannot be edited.
#pragma once

#include "common/domain/social/connector.hpp"

#include <memory>

namespace squawk::social::bluesky {

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http);

}  // namespace squawk::social::bluesky
