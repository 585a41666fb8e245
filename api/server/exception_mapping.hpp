// Turns whatever a handler threw into the ApiError the client sees. Details of unexpected
// failures go to the log only: no exception text, SQL or stack ever reaches a client.
#pragma once

#include "common/core/error/api_error.hpp"

#include <exception>
#include <string>

namespace squawk::api {

ApiError to_api_error(std::exception_ptr error, const std::string& request_id);

}  // namespace squawk::api
