// Facebook Login for a Page: the consent page's code buys a short-lived user token, traded for a
// long-lived one (fb_exchange_token), which reads the Pages the user granted (/me/accounts) and
// their Page access tokens. A Page token got from a long-lived user token does not expire; it is
// what every Page call uses.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <string>

namespace squawk::social::facebook {

// The grant kept for the account: access_token (the Page's token), page_id, page_name,
// user_access_token (the long-lived user token, to read the Page token again) and scope (the
// permissions granted, space-separated). The Page is the first one the user granted.
TokenGrant page_grant(PlatformApi& api, const OAuthClient& client, const std::string& code);
// The Page token read again with the kept user token, for a Page token that stopped working
// (the user's password changed, a Page role was taken back); a refusal asking to reconnect when
// the user token is gone or no longer manages the Page.
TokenGrant renewed_page_grant(PlatformApi& api, const Credentials& current);

}  // namespace squawk::social::facebook
