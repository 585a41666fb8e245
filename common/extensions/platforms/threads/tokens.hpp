// Threads' OAuth grant, which differs from RFC 6749's in its answers: the code buys a short-lived
// token (an hour) and the user's id, traded at once for a long-lived token (60 days) that
// refreshes itself (th_refresh_token) instead of through a refresh token.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <string>

namespace squawk::social::threads {

// POST /oauth/access_token with the code, then GET /access_token (th_exchange_token): the
// long-lived access_token, its expires_at, the user_id and, when Threads names them, the granted
// scopes.
TokenGrant long_lived_grant(PlatformApi& api, const OAuthClient& client, const std::string& code);
// GET /refresh_access_token (th_refresh_token) with current["access_token"]: a new access_token
// and expires_at.
TokenGrant refreshed_grant(PlatformApi& api, const Credentials& current);

}  // namespace squawk::social::threads
