#include "common/domain/workspace/workspace_repository.hpp"

#include "common/core/db/sql_text.hpp"

#include <cstdio>

namespace squawk::workspace {

std::string format_credits(long long units) {
    const bool negative = units < 0;
    const unsigned long long magnitude = negative ? 0ULL - static_cast<unsigned long long>(units)
                                                  : static_cast<unsigned long long>(units);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%s%llu.%04llu", negative ? "-" : "", magnitude / 10000,
                  magnitude % 10000);
    return buf;
}

Workspace WorkspaceRepository::create(db::Session& s, const std::string& name,
                                      std::optional<long long> parent_workspace_id) {
    Workspace w;
    w.name = name;
    w.parent_workspace_id = parent_workspace_id;
    w.created_at = time::now();
    w.id = s.insert("INSERT INTO workspaces (name, parent_workspace_id, created_at) VALUES (?,?,?)",
                    {name, db::optional_param(parent_workspace_id), db::time_param(w.created_at)});
    s.execute("INSERT INTO wallets (workspace_id, updated_at) VALUES (?,?)",
              {w.id, db::time_param(w.created_at)});
    return w;
}

std::optional<Workspace> WorkspaceRepository::find(db::Session& s, long long id) {
    auto row = s.query_one(
        "SELECT id, name, parent_workspace_id, created_at FROM workspaces WHERE id = ?", {id});
    if (!row) return std::nullopt;
    Workspace w;
    w.id = row->integer(0);
    w.name = row->text(1);
    w.parent_workspace_id = row->optional_integer(2);
    w.created_at = db::time_column(*row, 3);
    return w;
}

Balance WorkspaceRepository::balance(db::Session& s, long long workspace_id) {
    Balance b;
    if (auto row = s.query_one("SELECT purchased_units, monthly_units, currency FROM wallets"
                               " WHERE workspace_id = ?",
                               {workspace_id})) {
        b.purchased_units = row->integer(0);
        b.monthly_units = row->integer(1);
        b.currency = row->text(2);
    }
    return b;
}

}  // namespace squawk::workspace
