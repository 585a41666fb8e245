#include "common/core/storage/storage_error.hpp"

#include <utility>

namespace squawk::storage {

StorageError::StorageError(std::string code, const std::string& message, long http_status,
                           bool retryable)
    : std::runtime_error(code + ": " + message),
      code_(std::move(code)),
      http_status_(http_status),
      retryable_(retryable) {}

}  // namespace squawk::storage
