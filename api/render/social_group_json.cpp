#include "api/render/social_group_json.hpp"

namespace squawk::api::render {

nlohmann::json group_json(const social::AccountGroup& g) {
    return {{"id", g.public_id},
            {"name", g.name},
            {"account_ids", g.account_ids},
            {"created_at", time::format_iso8601(g.created_at)},
            {"updated_at", time::format_iso8601(g.updated_at)}};
}

}  // namespace squawk::api::render
