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
                                      db::field<&Media::status>("status"),
                                      db::field<&Media::mime_type>("mime_type"),
                                      db::field<&Media::filename>("filename"),
                                      db::field<&Media::size_bytes>("size_bytes"),
                                      db::field<&Media::storage_path>("storage_path"),
                                      db::field<&Media::duration_seconds>("duration_seconds"),
                                      db::field<&Media::width>("width"),
                                      db::field<&Media::height>("height"),
                                      db::field<&Media::source_job_id>("source_job_id"),
                                      db::field<&Media::source_role>("source_role"),
                                      db::field<&Media::created_at>("created_at"),
                                      db::field<&Media::upload_token_hash>("upload_token_hash"),
                                      db::field<&Media::upload_expires_at>("upload_expires_at")};

// `text` matched literally by LIKE (whose escape character is the backslash).
std::string like_literal(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '%' || c == '_' || c == '\\') out.push_back('\\');
        out.push_back(c);
    }
    return out;
}

}  // namespace

std::string MediaRepository::new_public_id() {
    return "med_" + crypto::hex(crypto::random_bytes(12));
}

Media MediaRepository::upsert_for_job(db::Session& s, Media m) {
    m.public_id = new_public_id();
    m.created_at = time::now();
    s.execute(
        "INSERT INTO media (public_id, workspace_id, kind, mime_type, size_bytes, storage_path,"
        " duration_seconds, width, height, source_job_id, source_role, created_at)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
        " ON DUPLICATE KEY UPDATE mime_type = VALUES(mime_type), size_bytes = VALUES(size_bytes),"
        " storage_path = VALUES(storage_path), duration_seconds = VALUES(duration_seconds),"
        " width = VALUES(width), height = VALUES(height)",
        {m.public_id, m.workspace_id, m.kind, m.mime_type, m.size_bytes, m.storage_path,
         db::optional_param(m.duration_seconds), db::optional_param(m.width),
         db::optional_param(m.height), db::optional_param(m.source_job_id), m.source_role,
         db::time_param(m.created_at)});
    auto row = s.query_one(
        "SELECT id, public_id, created_at FROM media WHERE source_job_id = ? AND source_role = ?",
        {db::optional_param(m.source_job_id), m.source_role});
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

std::vector<Media> MediaRepository::for_job(db::Session& s, long long workspace_id,
                                            long long job_id) {
    return kMediaRows.all(s.select("SELECT " + kMediaRows.select_list() +
                                       " FROM media WHERE source_job_id = ? AND workspace_id = ?"
                                       " ORDER BY id",
                                   {job_id, workspace_id}));
}

void MediaRepository::remove_for_job(db::Session& s, long long workspace_id, long long job_id) {
    s.execute("DELETE FROM media WHERE source_job_id = ? AND workspace_id = ?",
              {job_id, workspace_id});
}

MediaPage MediaRepository::list_ready(db::Session& s, long long workspace_id,
                                      const std::optional<std::string>& kind, long long offset,
                                      int limit) {
    MediaPage page;
    const std::string filter = kind ? " AND kind = ?" : "";
    db::Params params{workspace_id};
    if (kind) params.emplace_back(*kind);
    page.total = s.query_one(
                      "SELECT COUNT(*) FROM media WHERE workspace_id = ?"
                      " AND status = 'ready'" +
                          filter,
                      params)
                     ->integer(0);
    params.emplace_back(static_cast<long long>(limit));
    params.emplace_back(offset);
    page.items = kMediaRows.all(s.select("SELECT " + kMediaRows.select_list() +
                                             " FROM media WHERE workspace_id = ?"
                                             " AND status = 'ready'" +
                                             filter + " ORDER BY id DESC LIMIT ? OFFSET ?",
                                         params));
    return page;
}

Media MediaRepository::insert(db::Session& s, Media m) {
    m.created_at = time::now();
    m.id = s.insert(
        "INSERT INTO media (public_id, workspace_id, kind, status, mime_type, filename,"
        " size_bytes, storage_path, duration_seconds, width, height, source_job_id, source_role,"
        " upload_token_hash, upload_expires_at, created_at)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        {m.public_id, m.workspace_id, m.kind, m.status, m.mime_type, db::optional_param(m.filename),
         m.size_bytes, m.storage_path, db::optional_param(m.duration_seconds),
         db::optional_param(m.width), db::optional_param(m.height),
         db::optional_param(m.source_job_id), m.source_role,
         db::optional_param(m.upload_token_hash),
         m.upload_expires_at ? db::time_param(*m.upload_expires_at) : db::Param(nullptr),
         db::time_param(m.created_at)});
    return m;
}

std::optional<Media> MediaRepository::find_by_upload_token(db::Session& s,
                                                           const std::string& token_hash) {
    return kMediaRows.first(s.select("SELECT " + kMediaRows.select_list() +
                                         " FROM media WHERE upload_token_hash = ?"
                                         " AND status = 'pending'",
                                     {token_hash}));
}

bool MediaRepository::store_upload(db::Session& s, long long id, const std::string& token_hash,
                                   const std::string& storage_path, long long size_bytes,
                                   time::TimePoint now) {
    return s.execute(
               "UPDATE media SET storage_path = ?, size_bytes = ?, upload_token_hash = NULL"
               " WHERE id = ? AND status = 'pending' AND upload_token_hash = ?"
               " AND upload_expires_at > ?",
               {storage_path, size_bytes, id, token_hash, db::time_param(now)}) > 0;
}

bool MediaRepository::mark_ready(db::Session& s, const Media& m) {
    return s.execute(
               "UPDATE media SET status = 'ready', kind = ?, mime_type = ?, storage_path = ?,"
               " size_bytes = ?, duration_seconds = ?, width = ?, height = ?,"
               " upload_expires_at = NULL"
               " WHERE id = ? AND status = 'pending' AND upload_token_hash IS NULL",
               {m.kind, m.mime_type, m.storage_path, m.size_bytes,
                db::optional_param(m.duration_seconds), db::optional_param(m.width),
                db::optional_param(m.height), m.id}) > 0;
}

bool MediaRepository::remove_by_id(db::Session& s, long long id) {
    return s.execute("DELETE FROM media WHERE id = ?", {id}) > 0;
}

std::vector<Media> MediaRepository::expired_uploads(db::Session& s, time::TimePoint now,
                                                    int limit) {
    return kMediaRows.all(s.select("SELECT " + kMediaRows.select_list() +
                                       " FROM media WHERE status = 'pending'"
                                       " AND upload_expires_at < ?"
                                       " ORDER BY upload_expires_at LIMIT ?",
                                   {db::time_param(now), static_cast<long long>(limit)}));
}

std::vector<long long> MediaRepository::scheduled_posts_using(db::Session& s,
                                                              long long workspace_id,
                                                              const std::string& url) {
    // media_urls is a JSON array of strings: the URL between quotes is one of its items.
    const auto rows = s.select(
        "SELECT id FROM social_posts WHERE workspace_id = ? AND status = 'scheduled'"
        " AND deleted_at IS NULL AND media_urls LIKE ? ORDER BY id LIMIT 100",
        {workspace_id, "%\"" + like_literal(url) + "\"%"});
    std::vector<long long> ids;
    for (const auto& row : rows.rows) ids.push_back(row.integer(0));
    return ids;
}

}  // namespace squawk::media
