// Reading the string members of a generation job's payload, the one way every request type does.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace squawk::generation {

// The member `name`; `fallback` when it is missing or null. Any other non-string throws
// std::invalid_argument naming the member.
std::string string_member(const nlohmann::json& payload, const char* name,
                          std::string fallback = {});

// As string_member, but a missing or null member throws std::invalid_argument too.
std::string required_string_member(const nlohmann::json& payload, const char* name);

}  // namespace squawk::generation
