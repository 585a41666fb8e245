#include "common/domain/generation/payload_members.hpp"

#include <stdexcept>

namespace squawk::generation {

std::string string_member(const nlohmann::json& payload, const char* name, std::string fallback) {
    const auto found = payload.find(name);
    if (found == payload.end() || found->is_null()) return fallback;
    if (!found->is_string()) throw std::invalid_argument(std::string(name) + " must be a string");
    return found->get<std::string>();
}

std::string required_string_member(const nlohmann::json& payload, const char* name) {
    const auto found = payload.find(name);
    if (found == payload.end() || found->is_null())
        throw std::invalid_argument(std::string(name) + " is required");
    return string_member(payload, name);
}

}  // namespace squawk::generation
