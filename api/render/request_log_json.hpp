// The API's JSON for the request log: one logged request, its duration in
// milliseconds.
#pragma once

#include "common/domain/request_log/request_log_repository.hpp"

#include <nlohmann/json.hpp>

namespace squawk::api::render {

nlohmann::json request_log_json(const request_log::Entry& e);

}  // namespace squawk::api::render
