// Reads the XML body S3 answers a failed request with:
//   <Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message>...</Error>
// Bodies come from the network: anything else, however malformed, reads as nothing.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace squawk::storage {

struct S3ErrorBody {
    std::string code;     // "NoSuchKey", "SignatureDoesNotMatch", ...
    std::string message;  // may be empty
};

// The Code and Message of the <Error> element, entities decoded; nothing without an <Error> element
// holding a non-empty <Code>. Texts are cut to 256 and 1024 bytes.
std::optional<S3ErrorBody> parse_s3_error(std::string_view xml);

}  // namespace squawk::storage
