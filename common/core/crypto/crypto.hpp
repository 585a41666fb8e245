// Hashing, signing and randomness used for API keys, request ids and webhook signatures.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace squawk::crypto {

std::string random_bytes(size_t count);         // from the OS CSPRNG
std::string base64url(std::string_view bytes);  // unpadded, URL-safe alphabet
std::string base64(std::string_view bytes);     // padded, standard alphabet (RFC 4648 4)
std::string hex(std::string_view bytes);
std::string sha256_hex(std::string_view data);
std::string hmac_sha256_hex(std::string_view key, std::string_view data);
bool constant_time_equal(std::string_view a, std::string_view b);
std::string uuid_v4();                            // 8-4-4-4-12 lowercase hex
std::string random_token(size_t bytes);           // base64url of `bytes` random bytes
std::string from_hex(std::string_view hex_text);  // throws std::invalid_argument on bad input

// SHA-256 of bytes that arrive in pieces (an upload streamed to disk).
class Sha256Stream {
  public:
    Sha256Stream();
    ~Sha256Stream();
    Sha256Stream(const Sha256Stream&) = delete;
    Sha256Stream& operator=(const Sha256Stream&) = delete;

    void update(std::string_view bytes);
    // Lowercase hex of everything given; the stream is used up.
    std::string hex_digest();

  private:
    struct Context;
    std::unique_ptr<Context> context_;
};

// Secrets at rest (webhook signing secrets, platform tokens): AES-256-GCM with a random nonce.
// `key` is 32 raw bytes; the sealed text is base64url(nonce | tag | ciphertext). open() throws
// std::runtime_error when the text was not sealed with this key or was altered.
std::string seal(std::string_view key, std::string_view plaintext);
std::string open(std::string_view key, std::string_view sealed);

}  // namespace squawk::crypto
