#include "common/core/crypto/crypto.hpp"

#include "common/core/crypto/base64.hpp"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <unistd.h>

#include <array>
#include <cstring>
#include <stdexcept>

namespace squawk::crypto {

std::string random_bytes(size_t count) {
    std::string out(count, '\0');
    if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(count)) != 1)
        throw std::runtime_error("the random number generator failed");
    return out;
}

namespace {

// RFC 4648 base 64 in `alphabet`; `pad` completes the last group with '='.
std::string base64_in(std::string_view bytes, const char* alphabet, bool pad) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                           (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                           static_cast<unsigned char>(bytes[i + 2]);
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        out += alphabet[(v >> 6) & 63];
        out += alphabet[v & 63];
    }
    if (i + 1 == bytes.size()) {
        const unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        if (pad) out += "==";
    } else if (i + 2 == bytes.size()) {
        const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                           (static_cast<unsigned char>(bytes[i + 1]) << 8);
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        out += alphabet[(v >> 6) & 63];
        if (pad) out += '=';
    }
    return out;
}

}  // namespace

std::string base64url(std::string_view bytes) {
    return base64_in(bytes, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
                     false);
}

std::string base64(std::string_view bytes) {
    return base64_in(bytes, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
                     true);
}

std::string hex(std::string_view bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes) {
        out += kDigits[c >> 4];
        out += kDigits[c & 15];
    }
    return out;
}

namespace {

// SHA-256 bound to its algorithm once per thread. EVP_sha256() with a fresh context looks the
// algorithm up under the library's locks on every call, a cost paid by every request's key hash.
class Sha256 {
  public:
    Sha256() : md_(EVP_MD_fetch(nullptr, "SHA256", nullptr)), ctx_(EVP_MD_CTX_new()) {
        if (!md_ || !ctx_) throw std::runtime_error("cannot set up SHA-256");
    }
    ~Sha256() {
        EVP_MD_CTX_free(ctx_);
        EVP_MD_free(md_);
    }
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    std::string hex_digest(std::string_view data) {
        unsigned char digest[EVP_MAX_MD_SIZE];
        unsigned int length = 0;
        if (EVP_DigestInit_ex2(ctx_, md_, nullptr) != 1 ||
            EVP_DigestUpdate(ctx_, data.data(), data.size()) != 1 ||
            EVP_DigestFinal_ex(ctx_, digest, &length) != 1)
            throw std::runtime_error("sha256 failed");
        return hex({reinterpret_cast<const char*>(digest), length});
    }

  private:
    EVP_MD* md_;
    EVP_MD_CTX* ctx_;
};

}  // namespace

std::string sha256_hex(std::string_view data) {
    // Per thread, like the HMAC context below.
    thread_local Sha256 sha256;
    return sha256.hex_digest(data);
}

struct Sha256Stream::Context {
    EVP_MD_CTX* md = EVP_MD_CTX_new();
    ~Context() { EVP_MD_CTX_free(md); }
};

Sha256Stream::Sha256Stream() : context_(std::make_unique<Context>()) {
    if (!context_->md || EVP_DigestInit_ex(context_->md, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("sha256 failed");
}

Sha256Stream::~Sha256Stream() = default;

void Sha256Stream::update(std::string_view bytes) {
    if (EVP_DigestUpdate(context_->md, bytes.data(), bytes.size()) != 1)
        throw std::runtime_error("sha256 failed");
}

std::string Sha256Stream::hex_digest() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(context_->md, digest, &length) != 1)
        throw std::runtime_error("sha256 failed");
    return hex({reinterpret_cast<const char*>(digest), length});
}

namespace {

// An HMAC-SHA256 context bound to its algorithms once. A fresh context per call (OpenSSL's HMAC())
// looks both algorithms up by name under the library's locks each time, which cost more than the
// hashing of a webhook body; re-keying a bound context does not.
class HmacSha256 {
  public:
    HmacSha256() {
        EVP_MAC* mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
        ctx_ = mac ? EVP_MAC_CTX_new(mac) : nullptr;
        EVP_MAC_free(mac);
        char digest[] = "SHA256";
        const OSSL_PARAM params[] = {
            OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
            OSSL_PARAM_construct_end()};
        if (!ctx_ || EVP_MAC_CTX_set_params(ctx_, params) != 1)
            throw std::runtime_error("cannot set up HMAC-SHA256");
    }
    ~HmacSha256() { EVP_MAC_CTX_free(ctx_); }
    HmacSha256(const HmacSha256&) = delete;
    HmacSha256& operator=(const HmacSha256&) = delete;

    std::string digest(std::string_view key, std::string_view data) {
        unsigned char out[EVP_MAX_MD_SIZE];
        size_t length = 0;
        // A null key would mean "the previous key" to OpenSSL; an empty one is still a key.
        static const unsigned char kNoBytes = 0;
        const auto* key_bytes =
            key.empty() ? &kNoBytes : reinterpret_cast<const unsigned char*>(key.data());
        if (EVP_MAC_init(ctx_, key_bytes, key.size(), nullptr) != 1 ||
            EVP_MAC_update(ctx_, reinterpret_cast<const unsigned char*>(data.data()),
                           data.size()) != 1 ||
            EVP_MAC_final(ctx_, out, &length, sizeof out) != 1)
            throw std::runtime_error("hmac failed");
        return {reinterpret_cast<const char*>(out), length};
    }

  private:
    EVP_MAC_CTX* ctx_;
};

}  // namespace

std::string hmac_sha256_hex(std::string_view key, std::string_view data) {
    // Per thread: a call never suspends a fiber, so nothing else uses it meanwhile.
    thread_local HmacSha256 hmac;
    return hex(hmac.digest(key, data));
}

bool constant_time_equal(std::string_view a, std::string_view b) {
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

namespace {

// CSPRNG output drawn a page at a time: one RAND_bytes call per 256 ids instead of one per id,
// which every request pays for its request id. A forked child refills rather than repeat its
// parent's.
class RandomPool {
  public:
    void take(unsigned char* out, size_t count) {
        if (used_ + count > bytes_.size() || owner_ != getpid()) refill();
        std::memcpy(out, bytes_.data() + used_, count);
        used_ += count;
    }

  private:
    void refill() {
        if (RAND_bytes(bytes_.data(), static_cast<int>(bytes_.size())) != 1)
            throw std::runtime_error("the random number generator failed");
        used_ = 0;
        owner_ = getpid();
    }

    std::array<unsigned char, 4096> bytes_{};
    size_t used_ = bytes_.size();
    pid_t owner_ = 0;
};

}  // namespace

std::string uuid_v4() {
    thread_local RandomPool pool;
    unsigned char bytes[16];
    pool.take(bytes, sizeof bytes);
    bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0f) | 0x40);
    bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3f) | 0x80);
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out(36, '-');
    size_t at = 0;
    for (size_t i = 0; i < sizeof bytes; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) ++at;
        out[at++] = kDigits[bytes[i] >> 4];
        out[at++] = kDigits[bytes[i] & 15];
    }
    return out;
}

std::string random_token(size_t bytes) {
    return base64url(random_bytes(bytes));
}

std::string from_hex(std::string_view hex_text) {
    if (hex_text.size() % 2 != 0) throw std::invalid_argument("odd number of hex digits");
    const auto digit = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        throw std::invalid_argument("not a hex digit");
    };
    std::string out(hex_text.size() / 2, '\0');
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<char>(digit(hex_text[2 * i]) * 16 + digit(hex_text[2 * i + 1]));
    return out;
}

namespace {

constexpr size_t kNonceBytes = 12;
constexpr size_t kTagBytes = 16;

struct CipherContext {
    CipherContext() : ctx(EVP_CIPHER_CTX_new()) {
        if (!ctx) throw std::runtime_error("cannot allocate a cipher context");
    }
    ~CipherContext() { EVP_CIPHER_CTX_free(ctx); }
    EVP_CIPHER_CTX* ctx;
};

void require_key(std::string_view key) {
    if (key.size() != 32) throw std::invalid_argument("an AES-256 key is 32 bytes");
}

const unsigned char* bytes_of(std::string_view s) {
    return reinterpret_cast<const unsigned char*>(s.data());
}

}  // namespace

std::string seal(std::string_view key, std::string_view plaintext) {
    require_key(key);
    const std::string nonce = random_bytes(kNonceBytes);
    CipherContext c;
    std::string cipher(plaintext.size() + 16, '\0');
    int len = 0, total = 0;
    auto* out = reinterpret_cast<unsigned char*>(cipher.data());
    if (EVP_EncryptInit_ex(c.ctx, EVP_aes_256_gcm(), nullptr, bytes_of(key), bytes_of(nonce)) !=
            1 ||
        EVP_EncryptUpdate(c.ctx, out, &len, bytes_of(plaintext),
                          static_cast<int>(plaintext.size())) != 1)
        throw std::runtime_error("encryption failed");
    total = len;
    if (EVP_EncryptFinal_ex(c.ctx, out + total, &len) != 1)
        throw std::runtime_error("encryption failed");
    total += len;
    cipher.resize(static_cast<size_t>(total));
    std::string tag(kTagBytes, '\0');
    if (EVP_CIPHER_CTX_ctrl(c.ctx, EVP_CTRL_GCM_GET_TAG, kTagBytes, tag.data()) != 1)
        throw std::runtime_error("encryption failed");
    return base64url(nonce + tag + cipher);
}

std::string open(std::string_view key, std::string_view sealed) {
    require_key(key);
    const auto decoded = base64_decode(sealed, Base64Alphabet::url_safe);
    if (!decoded) throw std::runtime_error("sealed text is not base64url");
    const std::string& raw = *decoded;
    if (raw.size() < kNonceBytes + kTagBytes) throw std::runtime_error("sealed text is too short");
    const std::string_view all(raw);
    const auto nonce = all.substr(0, kNonceBytes);
    std::string tag(all.substr(kNonceBytes, kTagBytes));
    const auto cipher = all.substr(kNonceBytes + kTagBytes);
    CipherContext c;
    std::string plain(cipher.size() + 16, '\0');
    int len = 0, total = 0;
    auto* out = reinterpret_cast<unsigned char*>(plain.data());
    if (EVP_DecryptInit_ex(c.ctx, EVP_aes_256_gcm(), nullptr, bytes_of(key), bytes_of(nonce)) !=
            1 ||
        EVP_DecryptUpdate(c.ctx, out, &len, bytes_of(cipher), static_cast<int>(cipher.size())) !=
            1 ||
        EVP_CIPHER_CTX_ctrl(c.ctx, EVP_CTRL_GCM_SET_TAG, kTagBytes, tag.data()) != 1)
        throw std::runtime_error("decryption failed");
    total = len;
    if (EVP_DecryptFinal_ex(c.ctx, out + total, &len) != 1)
        throw std::runtime_error("sealed text was altered or sealed with another key");
    total += len;
    plain.resize(static_cast<size_t>(total));
    return plain;
}

}  // namespace squawk::crypto
