#include "api/render/post_change_json.hpp"

#include "api/render/job_json.hpp"

namespace squawk::api::render {

nlohmann::json accepted_edit_json(const social::AcceptedEdit& accepted, long long post_id) {
    auto out = accepted_change_json(accepted.job, post_id);
    out["warnings"] = accepted.warnings;
    return out;
}

nlohmann::json accepted_change_json(const jobs::Job& job, long long post_id) {
    auto out = accepted_job_json(job);
    out["post_id"] = post_id;
    return out;
}

}  // namespace squawk::api::render
