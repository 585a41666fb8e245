// Profiles (spec 2.7): sub-accounts an integrator keeps for its own customers. Each profile is a
// workspace of its own whose parent is the owner's workspace; this record names it and holds its
// status. Every read is scoped by the owner, so another workspace's profile is simply absent.
#pragma once

#include "common/core/db/mysql_pool.hpp"
#include "common/core/time/clock.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::profiles {

struct Profile {
    long long id = 0;
    long long workspace_id = 0;
    long long owner_workspace_id = 0;
    std::string name;
    std::optional<std::string> external_id;
    std::string status = "active";
    bool paused_for_billing = false;
    time::TimePoint created_at;
};

struct ProfilePage {
    std::vector<Profile> items;
    long long total = 0;
};

// What PATCH may change; an absent field stays, external_id may be cleared with null.
struct ProfileChanges {
    std::optional<std::string> name;
    bool set_external_id = false;
    std::optional<std::string> external_id;
};

class ProfileRepository {
  public:
    static Profile create(db::Session& s, long long owner_workspace_id, const std::string& name,
                          const std::optional<std::string>& external_id);
    static std::optional<Profile> find(db::Session& s, long long owner_workspace_id, long long id);
    static ProfilePage list(db::Session& s, long long owner_workspace_id, long long offset,
                            int limit);
    static std::optional<Profile> update(db::Session& s, long long owner_workspace_id, long long id,
                                         const ProfileChanges& changes);
    static std::optional<Profile> set_paused(db::Session& s, long long owner_workspace_id,
                                             long long id, bool paused);
    static bool remove(db::Session& s, long long owner_workspace_id, long long id);
};

}  // namespace squawk::profiles
