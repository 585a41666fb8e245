// Bluesky connector (AT Protocol XRPC on the account's PDS): an identifier and an app password;
// verifies (createSession), publishes posts with link facets and uploaded images (uploadBlob,
// createRecord), deletes them (deleteRecord) and lists the account's recent posts
// (getAuthorFeed). Bluesky posts cannot be edited.
#pragma once

#include "common/domain/social/connector.hpp"

#include <memory>

namespace squawk::social::bluesky {

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http);

}  // namespace squawk::social::bluesky
