// Workspaces (tenants) and their wallet balances.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"

#include <optional>
#include <string>

namespace squawk::workspace {

struct Workspace {
    long long id = 0;
    std::string name;
    std::optional<long long> parent_workspace_id;
    time::TimePoint created_at;
};

// Credits are integers of 1/10,000 credit so sums never drift.
struct Balance {
    long long purchased_units = 0;
    long long monthly_units = 0;
    std::string currency = "USD";
    long long total_units() const { return purchased_units + monthly_units; }
};

// "12.3400" from 123400 units.
std::string format_credits(long long units);

class WorkspaceRepository {
  public:
    static Workspace create(db::Session& s, const std::string& name,
                            std::optional<long long> parent_workspace_id = std::nullopt);
    static std::optional<Workspace> find(db::Session& s, long long id);
    static Balance balance(db::Session& s, long long workspace_id);
};

}  // namespace squawk::workspace
