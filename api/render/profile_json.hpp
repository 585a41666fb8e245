// The API's JSON for profiles (spec 2.7).
#pragma once

#include "common/domain/profiles/profile_repository.hpp"

#include <nlohmann/json.hpp>

namespace squawk::api::render {

nlohmann::json profile_json(const profiles::Profile& p);

}  // namespace squawk::api::render
