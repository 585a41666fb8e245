#include "common/domain/users/password.hpp"

#include <sodium.h>

#include <stdexcept>

namespace squawk::users {
namespace {

void start_sodium() {
    static const int started = sodium_init();
    if (started < 0) throw std::runtime_error("libsodium could not start");
}

}  // namespace

std::string hash_password(std::string_view password) {
    start_sodium();
    char out[crypto_pwhash_STRBYTES];
    // The interactive limits: one sign-in costs tens of milliseconds and 64 MiB, which the login
    // throttle keeps from being multiplied by a guesser.
    if (crypto_pwhash_str_alg(
            out, password.data(), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
            crypto_pwhash_MEMLIMIT_INTERACTIVE, crypto_pwhash_ALG_ARGON2ID13) != 0)
        throw std::runtime_error("Argon2id ran out of memory");
    return out;
}

bool password_matches(std::string_view stored, std::string_view password) {
    start_sodium();
    if (stored.size() >= crypto_pwhash_STRBYTES) return false;
    const std::string terminated(stored);
    return crypto_pwhash_str_verify(terminated.c_str(), password.data(), password.size()) == 0;
}

}  // namespace squawk::users
