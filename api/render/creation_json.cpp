#include "api/render/creation_json.hpp"

#include "api/render/job_json.hpp"
#include "api/render/media_json.hpp"

namespace squawk::api::render {

nlohmann::json creation_json(const generation::Creation& c, const std::string& public_base_url) {
    nlohmann::json out = c.output.is_object() ? c.output : nlohmann::json::object();
    nlohmann::json media = nlohmann::json::array();
    for (const auto& m : c.media) {
        auto item = media_json(m, public_base_url);
        item["role"] = m.source_role;
        if (m.source_role == "main") out["media_id"] = m.public_id;
        media.push_back(std::move(item));
    }
    out["id"] = c.public_id;
    out["kind"] = c.kind;
    out["status"] = c.status;
    out["progress"] = c.progress;
    out["job_id"] = c.job_public_id;
    out["request"] = c.request;
    out["media"] = std::move(media);
    out["error"] = c.error;
    out["cost"] = cost_json(c.reserved_units, c.charged_units, c.refunded);
    out["created_at"] = time::format_iso8601(c.created_at);
    out["updated_at"] = time::format_iso8601(c.updated_at);
    return out;
}

nlohmann::json accepted_creation_json(const generation::Creation& c, const jobs::Job& job) {
    auto out = accepted_job_json(job);
    out["id"] = c.public_id;
    out["kind"] = c.kind;
    return out;
}

}  // namespace squawk::api::render
