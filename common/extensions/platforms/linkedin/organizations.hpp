// Posting as an organization page: LinkedIn takes a post, and the media it shows, with the
// organization as author and owner only from a member who holds an approved role on it, with the
// organization scopes granted (Community Management API).
#pragma once

#include "common/domain/social/platform_api.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace squawk::social::linkedin {

// Creating posts, and the media they show, as an organization.
inline constexpr std::string_view kOrganizationPostPermission = "w_organization_social";
// Reading an organization's posts, and its pages' statistics.
inline constexpr std::string_view kOrganizationReadPermission = "r_organization_social";
inline constexpr std::string_view kOrganizationStatisticsPermission = "rw_organization_admin";

// Nothing when the member of `target` may post as `organization` (urn:li:organization:<id>):
// their grant holds w_organization_social and the organization's access control lists them as an
// approved ADMINISTRATOR. Otherwise why not, about the option "organization"; nothing was
// published either way.
std::optional<PlatformFailure> check_administrator(PlatformApi& api, const Target& target,
                                                   const std::string& organization);

// The impressions, reach (unique impressions) and reshares of `post_urn` when a page published
// it, from the organization's lifetime share statistics, into `metrics`. A member's own post has
// none, and a grant without rw_organization_admin reads none; a failure when LinkedIn did not
// answer.
std::optional<PlatformFailure> read_page_statistics(PlatformApi& api, const Target& target,
                                                    const std::string& post_urn, Metrics& metrics);

}  // namespace squawk::social::linkedin
