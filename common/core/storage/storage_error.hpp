// The one error every object store raises: the store's code (S3's own, such as NoSuchKey or
// SignatureDoesNotMatch, or ours for network and disk failures), the HTTP status and whether
// trying again later may succeed.
#pragma once

#include <stdexcept>
#include <string>

namespace squawk::storage {

class StorageError : public std::runtime_error {
  public:
    // `http_status` is 0 when no HTTP answer was involved (network, local disk).
    StorageError(std::string code, const std::string& message, long http_status, bool retryable);

    const std::string& code() const { return code_; }
    long http_status() const { return http_status_; }
    bool retryable() const { return retryable_; }

  private:
    std::string code_;
    long http_status_;
    bool retryable_;
};

}  // namespace squawk::storage
