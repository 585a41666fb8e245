// The API's JSON for generated resources: the creation's own fields, its job's state, what the
// job made (merged at the top level) and its files.
#pragma once

#include "common/domain/generation/creation.hpp"
#include "common/domain/jobs/job.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace squawk::api::render {

nlohmann::json creation_json(const generation::Creation& c, const std::string& public_base_url);
// The 202 answer of a generate call: the job to poll and the resource it will fill.
nlohmann::json accepted_creation_json(const generation::Creation& c, const jobs::Job& job);

}  // namespace squawk::api::render
