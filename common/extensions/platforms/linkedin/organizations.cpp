#include "common/extensions/platforms/linkedin/organizations.hpp"

#include "common/core/http/form_encoding.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/extensions/platforms/linkedin/rest.hpp"

#include <nlohmann/json.hpp>

namespace squawk::social::linkedin {
namespace {

using nlohmann::json;

// The roleAssignee finder pages its answer; a member administering more pages than these pages
// hold is unheard of, and each page is a call made before every post.
constexpr int kAclPageSize = 100;
constexpr int kMostAclPages = 10;

std::string organization_id(const std::string& urn) {
    return urn.substr(urn.rfind(':') + 1);
}

}  // namespace

std::optional<PlatformFailure> check_administrator(PlatformApi& api, const Target& target,
                                                   const std::string& organization) {
    const std::string_view needed[] = {kOrganizationPostPermission};
    // A grant that names its scopes shows the missing one before any call; one that names none
    // (issued elsewhere) is tried, and LinkedIn's 403 names it.
    if (!missing_scopes(target.credentials, needed).empty())
        return refusal("posting as a LinkedIn organization needs the permission " +
                           std::string(kOrganizationPostPermission) +
                           ", which this account did not grant: reconnect it with the "
                           "organization scopes",
                       403, "organization");
    for (int page = 0; page < kMostAclPages; ++page) {
        auto answer = read_resource(
            api.send("GET",
                     "/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED"
                     "&start=" +
                         std::to_string(page * kAclPageSize) +
                         "&count=" + std::to_string(kAclPageSize),
                     rest_headers(target.credentials, "FINDER")),
            kOrganizationPostPermission);
        if (answer.failure) return nothing_published(std::move(*answer.failure));
        const auto elements = answer.body.value("elements", json::array());
        for (const auto& acl : elements)
            if (json_text(acl, "organization") == organization &&
                json_text(acl, "role") == "ADMINISTRATOR" && json_text(acl, "state") == "APPROVED")
                return std::nullopt;
        if (!elements.is_array() || elements.size() < static_cast<size_t>(kAclPageSize)) break;
    }
    const auto& who = target.identity.display_name.empty() ? target.identity.external_id
                                                           : target.identity.display_name;
    return refusal(who + " is not an administrator of LinkedIn organization " +
                       organization_id(organization) + " (organization)",
                   403, "organization");
}

std::optional<PlatformFailure> read_page_statistics(PlatformApi& api, const Target& target,
                                                    const std::string& post_urn, Metrics& metrics) {
    const std::string_view needed[] = {kOrganizationStatisticsPermission};
    if (!missing_scopes(target.credentials, needed).empty()) return std::nullopt;
    // The statistics are the author's: the post names it.
    auto post = read_resource(
        api.send("GET", "/rest/posts/" + urn_segment(post_urn), rest_headers(target.credentials)),
        kOrganizationReadPermission);
    if (post.failure) return std::move(post.failure);
    const auto author = json_text(post.body, "author");
    if (!author.starts_with("urn:li:organization:")) return std::nullopt;
    const char* listed = post_urn.starts_with("urn:li:ugcPost:") ? "ugcPosts" : "shares";
    auto statistics =
        read_resource(api.send("GET",
                               "/rest/organizationalEntityShareStatistics?q=organizationalEntity"
                               "&organizationalEntity=" +
                                   http::percent_encode(author) + "&" + listed + "=List(" +
                                   http::percent_encode(post_urn) + ")",
                               rest_headers(target.credentials, "FINDER")),
                      kOrganizationStatisticsPermission);
    if (statistics.failure) return std::move(statistics.failure);
    for (const auto& element : statistics.body.value("elements", json::array())) {
        const auto totals = element.value("totalShareStatistics", json::object());
        metrics.impressions = json_integer(totals, "impressionCount");
        metrics.reach = json_integer(totals, "uniqueImpressionsCount");
        metrics.shares = json_integer(totals, "shareCount");
    }
    return std::nullopt;
}

}  // namespace squawk::social::linkedin
