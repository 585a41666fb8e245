// What every OAuth platform speaks alike (RFC 6749 with PKCE, RFC 7636): the consent page's
// address and the token endpoint's request and answer. A connector names its endpoint and scope
// separator; a platform whose token answer differs reads it itself.
#pragma once

#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/connector.hpp"
#include "common/domain/social/platform_api.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace squawk::social {

// How the application proves itself at the token endpoint.
enum class ClientAuthentication {
    basic,  // client_secret_basic: Authorization: Basic base64(id:secret)
    body,   // client_secret_post: client_id and client_secret among the form fields
};

struct TokenEndpoint {
    std::string_view path;  // appended to the API's base URL, unless the client has a token_url
    ClientAuthentication authentication = ClientAuthentication::body;
    // How the platform words a refusal; null: RFC 6749's {"error", "error_description"}.
    const AnswerShape* errors = nullptr;
};

// client.authorize_url with response_type=code, client_id, redirect_uri, the scopes joined by
// `scope_separator`, state and the S256 code challenge.
std::string consent_url(const OAuthClient& client, std::span<const std::string_view> scopes,
                        std::string_view scope_separator, const std::string& state,
                        const std::string& code_challenge);

// The PKCE S256 challenge of `verifier`: base64url(SHA-256(verifier)).
std::string code_challenge_of(const std::string& verifier);

// grant_type=authorization_code with the code, redirect_uri and code_verifier.
TokenGrant exchange_authorization_code(PlatformApi& api, const TokenEndpoint& endpoint,
                                       const OAuthClient& client, const std::string& code,
                                       const std::string& code_verifier);
// grant_type=refresh_token with current["refresh_token"]; a refusal when there is none.
TokenGrant refresh_access_token(PlatformApi& api, const TokenEndpoint& endpoint,
                                const OAuthClient& client, const Credentials& current);
// Posts `grant` (plus the client's authentication) as a form and reads the standard answer:
// access_token, refresh_token, expires_in (stored as expires_at), scope.
TokenGrant request_tokens(PlatformApi& api, const TokenEndpoint& endpoint,
                          const OAuthClient& client, http::FormFields grant);

// When the access token of these credentials expires ("expires_at", unix seconds); nothing when
// the platform gave no expiry.
std::optional<time::TimePoint> token_expiry(const Credentials& credentials);

// The granted scopes of a grant's credentials that `wanted` lacks ("scope" is space-separated;
// a platform that answers no scope is taken to have granted what was asked).
std::vector<std::string> missing_scopes(const Credentials& credentials,
                                        std::span<const std::string_view> wanted);

}  // namespace squawk::social
