// TikTok connector (Login Kit OAuth 2.0 and the Content Posting API): connects through TikTok's
// consent page (client_key, comma-separated scopes, refresh tokens for a year), verifies
// (/v2/user/info/), publishes videos uploaded in chunks and photo posts by URL through Direct Post
// and polls them until published, lists the account's videos and reads account and video counts.
// TikTok's API cannot edit or delete posts.
#pragma once

#include "common/domain/social/connector.hpp"

#include <memory>

namespace squawk::social::tiktok {

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http);

}  // namespace squawk::social::tiktok
