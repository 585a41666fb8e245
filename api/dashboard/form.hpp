// The body of a dashboard form (application/x-www-form-urlencoded), which is untrusted input:
// bounded in fields and decoded to valid UTF-8 before any page sees it.
#pragma once

#include "common/core/http/form_encoding.hpp"

#include <string_view>

namespace squawk::api::dashboard {

inline constexpr size_t kMaxFormFields = 256;

// Throws ApiError INVALID_REQUEST on a malformed escape, invalid UTF-8 or too many fields.
http::FormFields parse_form(std::string_view body);

}  // namespace squawk::api::dashboard
