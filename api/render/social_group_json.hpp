// The API's JSON for account groups: the group with the public ids of its connected members.
#pragma once

#include "common/domain/social/group_repository.hpp"

#include <nlohmann/json.hpp>

namespace squawk::api::render {

nlohmann::json group_json(const social::AccountGroup& g);

}  // namespace squawk::api::render
