#include "common/domain/generation/creation_repository.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/db/row_mapper.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/core/text/concat.hpp"

namespace squawk::generation {
namespace {

const db::RowMapper<Creation> kCreationRows{db::field<&Creation::id>("id"),
                                            db::field<&Creation::public_id>("public_id"),
                                            db::field<&Creation::workspace_id>("workspace_id"),
                                            db::field<&Creation::kind>("kind"),
                                            db::field<&Creation::job_id>("job_id"),
                                            db::field<&Creation::job_public_id>("job_public_id"),
                                            db::field<&Creation::status>("status"),
                                            db::field<&Creation::progress>("progress"),
                                            db::field<&Creation::request>("request"),
                                            db::field<&Creation::output>("output"),
                                            db::field<&Creation::error>("error"),
                                            db::field<&Creation::reserved_units>("reserved_units"),
                                            db::field<&Creation::charged_units>("charged_units"),
                                            db::field<&Creation::refunded>("refunded"),
                                            db::field<&Creation::created_at>("created_at"),
                                            db::field<&Creation::updated_at>("updated_at")};

// A creation with its job's state; the caller appends the WHERE clause on `c`.
constexpr const char* kSelect =
    "SELECT c.id AS id, c.public_id AS public_id, c.workspace_id AS workspace_id, c.kind AS kind,"
    " c.job_id AS job_id, j.public_id AS job_public_id, j.status AS status,"
    " j.progress AS progress, c.request AS request, c.output AS output, j.error AS error,"
    " j.reserved_units AS reserved_units, j.charged_units AS charged_units,"
    " j.refunded AS refunded,"
    " c.created_at AS created_at, GREATEST(c.updated_at, j.updated_at) AS updated_at"
    " FROM creations c JOIN jobs j ON j.id = c.job_id";

void attach_media(db::Session& s, Creation& c) {
    c.media = media::MediaRepository::for_job(s, c.workspace_id, c.job_id);
}

}  // namespace

Creation CreationRepository::insert(db::Session& s, long long workspace_id, CreationKind kind,
                                    long long job_id, const nlohmann::json& request) {
    Creation c;
    c.public_id = std::string(id_prefix(kind)) + crypto::hex(crypto::random_bytes(12));
    c.workspace_id = workspace_id;
    c.kind = kind;
    c.job_id = job_id;
    c.request = request;
    c.created_at = c.updated_at = time::now();
    c.id = s.insert(
        "INSERT INTO creations (public_id, workspace_id, kind, job_id, request, created_at,"
        " updated_at) VALUES (?,?,?,?,?,?,?)",
        {c.public_id, workspace_id, name_of(kind), job_id, db::json_text(request),
         db::time_param(c.created_at), db::time_param(c.updated_at)});
    return c;
}

std::optional<std::string> CreationRepository::set_output(db::Session& s, long long job_id,
                                                          const nlohmann::json& output) {
    const auto row =
        s.query_one("SELECT id, public_id FROM creations WHERE job_id = ? FOR UPDATE", {job_id});
    if (!row) return std::nullopt;
    s.execute("UPDATE creations SET output = ?, updated_at = ? WHERE id = ?",
              {db::json_text(output), db::time_param(time::now()), row->integer(0)});
    return row->text(1);
}

std::optional<Creation> CreationRepository::find(db::Session& s, long long workspace_id,
                                                 CreationKind kind, const std::string& public_id) {
    auto found = kCreationRows.first(s.select(
        text::concat({kSelect, " WHERE c.public_id = ? AND c.workspace_id = ? AND c.kind = ?"}),
        {public_id, workspace_id, name_of(kind)}));
    if (found) attach_media(s, *found);
    return found;
}

CreationPage CreationRepository::list(db::Session& s, long long workspace_id, CreationKind kind,
                                      long long offset, int limit) {
    CreationPage page;
    page.total = s.query_one("SELECT COUNT(*) FROM creations WHERE workspace_id = ? AND kind = ?",
                             {workspace_id, name_of(kind)})
                     ->integer(0);
    page.items = kCreationRows.all(
        s.select(text::concat({kSelect,
                               " WHERE c.workspace_id = ? AND c.kind = ?"
                               " ORDER BY c.id DESC LIMIT ? OFFSET ?"}),
                 {workspace_id, name_of(kind), static_cast<long long>(limit), offset}));
    for (auto& c : page.items) attach_media(s, c);
    return page;
}

bool CreationRepository::remove(db::Session& s, const Creation& creation) {
    media::MediaRepository::remove_for_job(s, creation.workspace_id, creation.job_id);
    return s.execute("DELETE FROM creations WHERE id = ? AND workspace_id = ?",
                     {creation.id, creation.workspace_id}) > 0;
}

}  // namespace squawk::generation
