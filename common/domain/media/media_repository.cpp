#include "common/domain/media/media_repository.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/db/sql_text.hpp"

namespace squawk::media {

nlohmann::json to_api_json(const Media& m, const std::string& download_url) {
    return {{"media_id", m.public_id},
            {"kind", m.kind},
            {"mime_type", m.mime_type},
            {"size_bytes", m.size_bytes},
            {"duration_seconds",
             m.duration_seconds ? nlohmann::json(*m.duration_seconds) : nlohmann::json(nullptr)},
            {"download_url", download_url},
            {"created_at", time::format_iso8601(m.created_at)}};
}

Media MediaRepository::upsert_for_job(db::Session& s, Media m) {
    m.public_id = "med_" + crypto::hex(crypto::random_bytes(12));
    m.created_at = time::now();
    s.execute(
        "INSERT INTO media (public_id, workspace_id, kind, mime_type, size_bytes, storage_path,"
        " duration_seconds, source_job_id, created_at) VALUES (?,?,?,?,?,?,?,?,?)"
        " ON DUPLICATE KEY UPDATE mime_type = VALUES(mime_type), size_bytes = VALUES(size_bytes),"
        " storage_path = VALUES(storage_path), duration_seconds = VALUES(duration_seconds)",
        {m.public_id, m.workspace_id, m.kind, m.mime_type, m.size_bytes, m.storage_path,
         m.duration_seconds ? db::Param(*m.duration_seconds) : db::Param(nullptr),
         m.source_job_id ? db::Param(*m.source_job_id) : db::Param(nullptr),
         db::time_param(m.created_at)});
    auto row = s.query_one("SELECT id, public_id, created_at FROM media WHERE source_job_id = ?",
                           {m.source_job_id ? db::Param(*m.source_job_id) : db::Param(nullptr)});
    if (row) {
        m.id = row->integer(0);
        m.public_id = row->text(1);
        m.created_at = db::time_column(*row, 2);
    }
    return m;
}

std::optional<Media> MediaRepository::find(db::Session& s, long long workspace_id,
                                           const std::string& public_id) {
    auto r = s.query_one(
        "SELECT id, public_id, workspace_id, kind, mime_type, size_bytes,"
        " storage_path, duration_seconds, source_job_id, created_at FROM media"
        " WHERE public_id = ? AND workspace_id = ?",
        {public_id, workspace_id});
    if (!r) return std::nullopt;
    Media m;
    m.id = r->integer(0);
    m.public_id = r->text(1);
    m.workspace_id = r->integer(2);
    m.kind = r->text(3);
    m.mime_type = r->text(4);
    m.size_bytes = r->integer(5);
    m.storage_path = r->text(6);
    if (!r->is_null(7)) m.duration_seconds = r->real(7);
    m.source_job_id = r->optional_integer(8);
    m.created_at = db::time_column(*r, 9);
    return m;
}

bool MediaRepository::remove(db::Session& s, long long workspace_id, const std::string& public_id) {
    return s.execute("DELETE FROM media WHERE public_id = ? AND workspace_id = ?",
                     {public_id, workspace_id}) > 0;
}

}  // namespace squawk::media
