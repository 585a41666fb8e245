// Object keys: relative paths such as "ws_12/med_abc.png", the same for the local filesystem and a
// bucket, so a key can never climb out of the store's root or mean two different objects.
#pragma once

#include <stdexcept>
#include <string_view>

namespace squawk::storage {

class InvalidObjectKey : public std::invalid_argument {
  public:
    using std::invalid_argument::invalid_argument;
};

// S3's own limit on a key, in bytes.
inline constexpr size_t kMaxObjectKeyBytes = 1024;

// Throws InvalidObjectKey unless `key` is 1 to 1024 bytes of segments separated by single '/', none
// empty, "." or "..", with no leading or trailing '/'. Bytes are printable ASCII other than '\' or
// well-formed UTF-8 beyond ASCII: never control characters.
void validate_object_key(std::string_view key);

}  // namespace squawk::storage
