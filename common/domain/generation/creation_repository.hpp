// Creations in SQL: written with their job in one transaction, completed by the job, read with
// their job's state and their media, always within one workspace.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/domain/generation/creation.hpp"

#include <optional>
#include <string>

namespace squawk::generation {

class CreationRepository {
  public:
    // Inside the transaction that writes `job_id`'s row.
    static Creation insert(db::Session& s, long long workspace_id, CreationKind kind,
                           long long job_id, const nlohmann::json& request);
    // What the job made; a rerun of the job overwrites it. Returns the creation's public id, or
    // nothing when it was deleted meanwhile (the job's work is then to be thrown away).
    static std::optional<std::string> set_output(db::Session& s, long long job_id,
                                                 const nlohmann::json& output);
    static std::optional<Creation> find(db::Session& s, long long workspace_id, CreationKind kind,
                                        const std::string& public_id);
    // Newest first.
    static CreationPage list(db::Session& s, long long workspace_id, CreationKind kind,
                             long long offset, int limit);
    // Removes the creation and its media rows; false when there was none.
    static bool remove(db::Session& s, const Creation& creation);
};

}  // namespace squawk::generation
