// Instagram's OAuth grant through Facebook Login: the code buys a short-lived Facebook user token,
// traded at once for a long-lived one (about 60 days, fb_exchange_token), whose granted
// permissions (/me/permissions) and Instagram professional account (the instagram_business_account
// of a Page the user manages, /me/accounts) are kept with it.
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <string>

namespace squawk::social::instagram {

// The long-lived access_token and its expires_at, scope (the granted permissions), user_id (the
// Instagram professional account) and page_id (the Facebook Page it is linked to). Without
// pages_show_list granted the account is not looked for: the missing scope is what the user must
// hear of.
TokenGrant long_lived_grant(PlatformApi& api, const OAuthClient& client, const std::string& code,
                            const std::string& code_verifier);
// current["access_token"] exchanged again (fb_exchange_token) before it expires: a new
// access_token and expires_at only, merged over the stored credentials (the account, its Page and
// the permissions stay). A refusal names the access_token field: only consenting again helps.
TokenGrant refreshed_grant(PlatformApi& api, const OAuthClient& client, const Credentials& current);

}  // namespace squawk::social::instagram
