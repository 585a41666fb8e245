// The API's JSON for accepted changes of published posts (edit, unpublish): the accepted job
// with the post it changes.
#pragma once

#include "common/domain/jobs/job.hpp"
#include "common/domain/social/post_change_service.hpp"

#include <nlohmann/json.hpp>

namespace squawk::api::render {

// The accepted social.edit job with post_id and the platforms' warnings.
nlohmann::json accepted_edit_json(const social::AcceptedEdit& accepted, long long post_id);
// An accepted edit or unpublish job with post_id.
nlohmann::json accepted_change_json(const jobs::Job& job, long long post_id);

}  // namespace squawk::api::render
