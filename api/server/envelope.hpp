// The response envelope of spec 2.1: success, data, pagination, error, meta. Every JSON answer of
// the API, success or failure, is built here.
#pragma once

#include "common/core/error/api_error.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace squawk::api {

struct Meta {
    std::string request_id;  // req_<uuid v4>
    std::string timestamp;   // ISO 8601 UTC
};

std::string new_request_id();
Meta make_meta(std::string request_id);

// Takes what it wraps by value: a caller done with its reply moves the data in, and a large
// answer is not copied on every request. `usage` ({cost, balance_remaining}) is added on billable
// calls (spec 1).
nlohmann::json success_envelope(nlohmann::json data, std::optional<nlohmann::json> pagination,
                                const Meta& meta,
                                std::optional<nlohmann::json> usage = std::nullopt);
nlohmann::json error_envelope(const ApiError& error, const Meta& meta);

// Serializes for the wire; invalid UTF-8 that slipped into a value is replaced, never thrown on.
std::string to_wire(const nlohmann::json& envelope);

// The bytes of to_wire(success_envelope(data, std::nullopt, meta)) around `data_wire`, data
// already serialized by to_wire: an answer kept serialized is sent without being built again.
std::string success_wire(std::string_view data_wire, const Meta& meta);

}  // namespace squawk::api
