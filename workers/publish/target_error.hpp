// The error one post target records, {code, message, detail}, as post.* events and the publish
// pool's job results show it.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace squawk::workers::publish {

inline nlohmann::json target_error(const std::string& code, const std::string& message,
                                   nlohmann::json detail = nullptr) {
    return {{"code", code}, {"message", message}, {"detail", std::move(detail)}};
}

}  // namespace squawk::workers::publish
