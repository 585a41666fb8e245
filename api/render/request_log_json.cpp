#include "api/render/request_log_json.hpp"

#include "api/render/optional_json.hpp"

namespace squawk::api::render {

nlohmann::json request_log_json(const request_log::Entry& e) {
    return {{"id", e.id},
            {"request_id", e.request_id},
            {"method", e.method},
            {"route", e.route},
            {"status", e.status},
            {"duration_ms", static_cast<double>(e.duration_us) / 1000.0},
            {"key_prefix", e.key_prefix.empty() ? nlohmann::json() : nlohmann::json(e.key_prefix)},
            {"profile_id", or_null(e.profile_id)},
            {"created_at", time::format_iso8601(e.created_at)}};
}

}  // namespace squawk::api::render
