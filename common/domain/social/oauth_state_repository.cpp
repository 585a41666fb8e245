#include "common/domain/social/oauth_state_repository.hpp"

#include "common/core/db/sql_text.hpp"

namespace squawk::social {

void OAuthStateRepository::insert(db::Session& s, const std::string& state_hash,
                                  const PendingConnect& p) {
    s.execute(
        "INSERT INTO oauth_states (state_hash, workspace_id, platform, code_verifier_enc,"
        " created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
        {state_hash, p.workspace_id, p.platform, p.code_verifier_sealed,
         db::time_param(time::now()), db::time_param(p.expires_at)});
}

std::optional<PendingConnect> OAuthStateRepository::take(db::Session& s,
                                                         const std::string& state_hash) {
    const auto row = s.query_one(
        "SELECT id, workspace_id, platform, code_verifier_enc, expires_at FROM oauth_states"
        " WHERE state_hash = ? FOR UPDATE",
        {state_hash});
    if (!row) return std::nullopt;
    s.execute("DELETE FROM oauth_states WHERE id = ?", {row->integer(0)});
    PendingConnect p;
    p.workspace_id = row->integer(1);
    p.platform = row->text(2);
    p.code_verifier_sealed = row->text(3);
    p.expires_at = db::time_column(*row, 4);
    return p;
}

long long OAuthStateRepository::delete_expired(db::Session& s, int limit) {
    return static_cast<long long>(
        s.execute("DELETE FROM oauth_states WHERE expires_at <= ? LIMIT ?",
                  {db::time_param(time::now()), static_cast<long long>(limit)}));
}

}  // namespace squawk::social
