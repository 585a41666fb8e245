#include "api/render/media_json.hpp"

#include "api/render/optional_json.hpp"

namespace squawk::api::render {

std::string media_download_url(const std::string& public_base_url, const std::string& media_id) {
    return public_base_url + "/media/" + media_id + "/download";
}

nlohmann::json media_json(const media::Media& m, const std::string& public_base_url) {
    return {{"media_id", m.public_id},
            {"kind", m.kind},
            {"status", m.status},
            {"mime_type", m.mime_type},
            {"filename", or_null(m.filename)},
            {"size_bytes", m.size_bytes},
            {"width", or_null(m.width)},
            {"height", or_null(m.height)},
            {"duration_seconds", or_null(m.duration_seconds)},
            {"download_url", media_download_url(public_base_url, m.public_id)},
            {"created_at", time::format_iso8601(m.created_at)}};
}

nlohmann::json upload_url_json(const media::UploadUrl& upload, const std::string& public_base_url) {
    return {{"media_id", upload.media.public_id},
            {"upload_url",
             upload.presigned_url.value_or(public_base_url + "/media/uploads/" + upload.token)},
            {"expires_at", time::format_iso8601(upload.media.upload_expires_at.value())},
            {"method", "PUT"},
            // A presigned PUT is signed for exactly this type; the API's own route sniffs bytes.
            {"headers", {{"Content-Type", upload.media.mime_type}}}};
}

}  // namespace squawk::api::render
