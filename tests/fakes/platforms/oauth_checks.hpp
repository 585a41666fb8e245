// What a fake OAuth platform checks the way the real ones do: a PKCE S256 challenge and the
// client credentials of an HTTP Basic header. OpenSSL does the hashing, apart from the code
// under test.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace squawk::fakes::platforms {

// base64url(SHA-256(verifier)), unpadded (RFC 7636 4.2).
std::string s256_challenge(std::string_view verifier);
// {client_id, client_secret} of "Basic base64(id:secret)"; nothing when it is not that form.
std::optional<std::pair<std::string, std::string>> basic_credentials(std::string_view header);

}  // namespace squawk::fakes::platforms
