// LinkedIn's organization access control as the fake serves it: the roleAssignee finder lists
// the roles the token's member holds on organizations, filtered by role and state and paged by
// start and count; it needs one of the organization scopes.
#include "tests/fakes/platforms/linkedin/linkedin_fake.hpp"

#include <cstdlib>

namespace squawk::fakes::platforms::linkedin {
namespace {

constexpr std::string_view kAcls = "/rest/organizationAcls";
constexpr std::string_view kAclScopes[] = {"r_organization_social", "w_organization_social",
                                           "rw_organization_admin", "r_organization_admin"};

HttpAnswer find_by_role_assignee(const HttpRequest& request, const Grant& grant) {
    if (request.query("q") != "roleAssignee")
        return error(400, 0, "BAD_REQUEST", "Unsupported finder " + request.query("q"));
    const auto method = request.headers.find("x-restli-method");
    if (method == request.headers.end() || method->second != "FINDER")
        return error(400, 0, "BAD_REQUEST", "A finder needs X-RestLi-Method: FINDER");
    const std::string role = request.query("role");
    const std::string wanted_state = request.query("state");
    const long long start = std::atoll(request.query("start").c_str());
    const long long count =
        request.query("count").empty() ? 10 : std::atoll(request.query("count").c_str());
    if (start < 0 || count < 1 || count > 100)
        return error(400, 0, "BAD_REQUEST", "start must be 0 or more and count 1 to 100");
    json all = json::array();
    for (const auto& [id, organization] : state().organizations.items()) {
        const std::string held = organization["roles"].value(grant.member, "");
        if (held.empty() || (!role.empty() && held != role) ||
            (!wanted_state.empty() && wanted_state != "APPROVED"))
            continue;
        all.push_back({{"roleAssignee", person_urn(grant.member)},
                       {"state", "APPROVED"},
                       {"role", held},
                       {"organization", "urn:li:organization:" + id}});
    }
    json elements = json::array();
    for (long long i = start; i < static_cast<long long>(all.size()) && i < start + count; ++i)
        elements.push_back(all[static_cast<size_t>(i)]);
    return json_answer(
        200,
        {{"elements", elements},
         {"paging",
          {{"start", start}, {"count", count}, {"total", all.size()}, {"links", json::array()}}}});
}

}  // namespace

std::optional<HttpAnswer> serve_organizations(const HttpRequest& request, const std::string& path) {
    if (path != kAcls) return std::nullopt;
    if (request.method != "GET") return error(405, 0, "METHOD_NOT_ALLOWED", "Use GET");
    auto who = authorized(request, {}, "organizationAcls.FINDER-roleAssignee");
    if (auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
    const Grant& grant = std::get<Grant>(who);
    for (const auto scope : kAclScopes)
        if (has(grant.scopes, scope)) return find_by_role_assignee(request, grant);
    return error(403, 100, "ACCESS_DENIED",
                 "Not enough permissions to access: organizationAcls.FINDER-roleAssignee.20261001");
}

}  // namespace squawk::fakes::platforms::linkedin
