// Facebook Pages connector (Graph API v19.0): connects a Page through Facebook Login (the user's
// token traded for the Page's own, which does not expire), verifies it (GET /{page}), publishes
// text, a photo, several photos, a video (resumable upload), a reel or a story, edits and deletes
// posts, lists the Page's recent posts and reads the Page's and its posts' counts.
#pragma once

#include "common/domain/social/connector.hpp"

#include <memory>

namespace squawk::social::facebook {

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http);

}  // namespace squawk::social::facebook
