// Response headers as curl hands them over, one line per call, for both HTTP clients: names in
// lower case, values without the blanks around them, at most 100 kept.
#pragma once

#include "common/core/http/http_client.hpp"

#include <string_view>

namespace squawk::http {

// Adds `line` to `headers`; a status line (a new response after 100 Continue) starts them afresh.
void add_header_line(std::string_view line, HeaderList& headers);

}  // namespace squawk::http
