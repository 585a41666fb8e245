// Dashboard passwords: Argon2id through libsodium's crypto_pwhash_str, whose output carries the
// algorithm, its limits and the salt, so a stored hash stays verifiable if the limits change.
#pragma once

#include <string>
#include <string_view>

namespace squawk::users {

// Throws std::runtime_error when libsodium cannot start or runs out of memory.
std::string hash_password(std::string_view password);
// Whether `password` is the one `stored` was made from; false for anything not such a hash.
bool password_matches(std::string_view stored, std::string_view password);

}  // namespace squawk::users
