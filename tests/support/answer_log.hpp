// The answers the end-to-end tests receive from squawk-api, kept for the check of each against the
// OpenAPI document (tests/openapi/check_responses.sh). Written only when the environment variable
// SQUAWK_RESPONSE_LOG names a folder (CTest sets it for the end-to-end suite).
#pragma once

#include "tests/support/http_client.hpp"

#include <string>

namespace squawk::testing {

void log_answer(const std::string& method, const std::string& path, const HttpResponse& response);

}  // namespace squawk::testing
