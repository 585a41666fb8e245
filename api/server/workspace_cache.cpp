#include "api/server/workspace_cache.hpp"

namespace squawk::api {

std::optional<workspace::Workspace> WorkspaceCache::find(db::MysqlPool& mysql, long long id,
                                                         std::optional<long long> epoch) {
    const std::string slot = std::to_string(id);
    if (epoch)
        if (auto cached = entries_.get(slot, *epoch)) return cached;
    auto found =
        mysql.run([&](db::Session& s) { return workspace::WorkspaceRepository::find(s, id); });
    if (found && epoch) entries_.put(slot, *found, *epoch);
    return found;
}

}  // namespace squawk::api
