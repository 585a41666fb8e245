#include "api/render/profile_json.hpp"

#include "api/render/optional_json.hpp"

namespace squawk::api::render {

nlohmann::json profile_json(const profiles::Profile& p) {
    return {{"id", p.id},
            {"workspace_id", p.workspace_id},
            {"name", p.name},
            {"external_id", or_null(p.external_id)},
            {"status", p.status},
            {"paused_for_billing", p.paused_for_billing},
            {"created_at", time::format_iso8601(p.created_at)}};
}

}  // namespace squawk::api::render
