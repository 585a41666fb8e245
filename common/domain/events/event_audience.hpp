// Who can receive an event: the webhook endpoints of the workspace it was raised in and, for a
// profile's workspace, those of the workspace that owns the profile. Active endpoints receive it;
// failing ones keep it, held until they are re-enabled; paused ones receive nothing.
#pragma once

#include "common/core/db/mysql_pool.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace squawk::events {

struct Subscriber {
    long long endpoint_id = 0;
    long long workspace_id = 0;
    bool failing = false;  // its deliveries are held
    std::set<std::string, std::less<>> events;
};

// The owner of a profile's workspace: events raised there also go to the owner's endpoints.
struct ProfileOwner {
    long long workspace_id = 0;
    long long profile_id = 0;
};

class Audience {
  public:
    // Reads the endpoints that can receive events raised in `workspaces` (two queries).
    static Audience of(db::Session& s, const std::set<long long>& workspaces);

    // The endpoints of `workspace_id` itself (subscribed to anything).
    const std::vector<Subscriber>& own(long long workspace_id) const;
    // The profile owner of `workspace_id`, when it is a profile's workspace.
    std::optional<ProfileOwner> owner(long long workspace_id) const;
    // Whether any endpoint, its own or its owner's, subscribes to `name`.
    bool wants(long long workspace_id, std::string_view name) const;

  private:
    std::map<long long, std::vector<Subscriber>> subscribers_;
    std::map<long long, ProfileOwner> owners_;
};

}  // namespace squawk::events
