// TikTok's OAuth 2.0 (Login Kit for Web, v2): RFC 6749 with PKCE, but the application is named by
// client_key where the standard has client_id, scopes are joined by commas, and the token answer
// names them comma-separated too. Access tokens last 24 hours, refresh tokens 365 days.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <string>

namespace squawk::social::tiktok {

// https://www.tiktok.com/v2/auth/authorize/ with client_key, the scopes, redirect_uri, state and
// the S256 challenge.
std::string consent_address(const OAuthClient& client, const std::string& state,
                            const std::string& code_challenge);
// POST /v2/oauth/token/ with grant_type=authorization_code, the code, redirect_uri and verifier.
TokenGrant exchange(PlatformApi& api, const OAuthClient& client, const std::string& code,
                    const std::string& code_verifier);
// POST /v2/oauth/token/ with grant_type=refresh_token and current["refresh_token"].
TokenGrant refreshed(PlatformApi& api, const OAuthClient& client, const Credentials& current);

}  // namespace squawk::social::tiktok
