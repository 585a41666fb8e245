// Threads connector (Meta's Threads Graph API): connects through OAuth (a short-lived token
// traded for a long-lived one that refreshes itself), verifies (GET /me), publishes text, an
// image or a carousel through media containers (threads, threads_publish), deletes posts and
// lists the account's recent ones, and reads the account's followers and a post's counts from its
// insights. Threads posts cannot be edited.
#pragma once

#include "common/domain/social/connector.hpp"

#include <memory>

namespace squawk::social::threads {

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http);

}  // namespace squawk::social::threads
