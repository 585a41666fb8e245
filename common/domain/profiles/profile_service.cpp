#include "common/domain/profiles/profile_service.hpp"

#include "common/core/log/logger.hpp"
#include "common/domain/auth/identity_epoch.hpp"

namespace squawk::profiles {
namespace {

Profile found_or_404(std::optional<Profile> p) {
    if (!p) throw profile_not_found();
    return std::move(*p);
}

}  // namespace

ApiError profile_not_found() {
    return ApiError(ErrorCode::NotFound, "No profile with this id.");
}

Profile ProfileService::create(long long owner_workspace_id, const std::string& name,
                               const std::optional<std::string>& external_id) {
    return mysql_.transaction([&](db::Session& s) {
        return ProfileRepository::create(s, owner_workspace_id, name, external_id);
    });
}

ProfilePage ProfileService::list(long long owner_workspace_id, long long offset, int limit) {
    return mysql_.run([&](db::Session& s) {
        return ProfileRepository::list(s, owner_workspace_id, offset, limit);
    });
}

Profile ProfileService::get(long long owner_workspace_id, long long id) {
    return found_or_404(mysql_.run(
        [&](db::Session& s) { return ProfileRepository::find(s, owner_workspace_id, id); }));
}

Profile ProfileService::update(long long owner_workspace_id, long long id,
                               const ProfileChanges& changes, const std::string& request_id) {
    auto p = found_or_404(mysql_.transaction([&](db::Session& s) {
        return ProfileRepository::update(s, owner_workspace_id, id, changes);
    }));
    // A rename changes the profile's workspace name, which API processes cache for GET /me.
    if (changes.name) {
        try {
            redis_.run([](redis::RedisClient& r) { auth::IdentityEpoch::announce(r); });
        } catch (const redis::RedisUnavailable& e) {
            log::warn(
                "renamed, but API processes may show the old name for up to "
                "api.key_cache_seconds: redis unavailable",
                {{"request_id", request_id}, {"error", e.what()}});
        }
    }
    return p;
}

void ProfileService::remove(long long owner_workspace_id, long long id) {
    const bool removed = mysql_.transaction(
        [&](db::Session& s) { return ProfileRepository::remove(s, owner_workspace_id, id); });
    if (!removed) throw profile_not_found();
}

Profile ProfileService::set_paused(long long owner_workspace_id, long long id, bool paused) {
    return found_or_404(mysql_.transaction([&](db::Session& s) {
        return ProfileRepository::set_paused(s, owner_workspace_id, id, paused);
    }));
}

}  // namespace squawk::profiles
