#include "api/render/media_json.hpp"

#include "api/render/optional_json.hpp"

namespace squawk::api::render {

nlohmann::json media_json(const media::Media& m, const std::string& public_base_url) {
    return {{"media_id", m.public_id},
            {"kind", m.kind},
            {"mime_type", m.mime_type},
            {"size_bytes", m.size_bytes},
            {"duration_seconds", or_null(m.duration_seconds)},
            {"download_url", public_base_url + "/media/" + m.public_id + "/download"},
            {"created_at", time::format_iso8601(m.created_at)}};
}

}  // namespace squawk::api::render
