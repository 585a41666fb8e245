// Instagram connector (the Instagram Graph API with Facebook Login): connects through OAuth (a
// long-lived Facebook user token and the Instagram professional account of one of the user's
// Pages), verifies the account, publishes images, carousels, reels and stories through media
// containers (videos by resumable upload) with a first comment, lists recent media and reads the
// account's and a post's metrics. Published media cannot be edited or deleted through the API.
#pragma once

#include "common/domain/social/connector.hpp"

#include <memory>

namespace squawk::social::instagram {

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http);

}  // namespace squawk::social::instagram
