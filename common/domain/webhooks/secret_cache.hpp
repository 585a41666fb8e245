// Opened signing secrets by their sealed text. An endpoint's deliveries come in runs, and opening a
// sealed secret (AES-256-GCM) costs more than signing with it, so each sender opens it once.
// Not thread-safe: one cache per thread.
#pragma once

#include <string>
#include <unordered_map>

namespace squawk::webhooks {

class SecretCache {
  public:
    // `key_bytes` is the configured secret key (crypto::secret_key_bytes); an unusable key makes
    // every open() throw, so deliveries fail visibly instead of going unsigned.
    explicit SecretCache(std::string key_bytes, size_t capacity = 1024);

    const std::string& open(const std::string& sealed);

  private:
    std::string key_bytes_;
    size_t capacity_;
    std::unordered_map<std::string, std::string> opened_;
};

}  // namespace squawk::webhooks
