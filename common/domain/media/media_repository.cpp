#include "common/domain/media/media_repository.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/db/row_mapper.hpp"
#include "common/core/db/sql_text.hpp"

namespace squawk::media {

namespace {

const db::RowMapper<Media> kMediaRows{db::field<&Media::id>("id"),
                                      db::field<&Media::public_id>("public_id"),
                                      db::field<&Media::workspace_id>("workspace_id"),
                                      db::field<&Media::kind>("kind"),
                                      db::field<&Media::mime_type>("mime_type"),
                                      db::field<&Media::size_bytes>("size_bytes"),
                                      db::field<&Media::storage_path>("storage_path"),
                                      db::field<&Media::duration_seconds>("duration_seconds"),
                                      db::field<&Media::source_job_id>("source_job_id"),
                                      db::field<&Media::created_at>("created_at")};

}  // namespace

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
    return kMediaRows.first(s.select("SELECT " + kMediaRows.select_list() +
                                         " FROM media WHERE public_id = ? AND workspace_id = ?",
                                     {public_id, workspace_id}));
}

bool MediaRepository::remove(db::Session& s, long long workspace_id, const std::string& public_id) {
    return s.execute("DELETE FROM media WHERE public_id = ? AND workspace_id = ?",
                     {public_id, workspace_id}) > 0;
}

}  // namespace squawk::media
