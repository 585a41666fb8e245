// LinkedIn's organization share statistics as the fake serves it: the organizationalEntity finder
// gives an organization's lifetime organic counts for the posts listed in `shares=List(...)` or
// `ugcPosts=List(...)` (Rest.li 2.0, URNs encoded), to a member who administers the organization
// with rw_organization_admin granted. Shares of another author are left out, as LinkedIn does.
#include "tests/fakes/platforms/linkedin/linkedin_fake.hpp"

namespace squawk::fakes::platforms::linkedin {
namespace {

constexpr std::string_view kShareStatistics = "/rest/organizationalEntityShareStatistics";

// The URNs of a Rest.li list, List(a,b), each decoded.
std::optional<std::vector<std::string>> restli_list(const std::string& text) {
    if (!text.starts_with("List(") || !text.ends_with(")")) return std::nullopt;
    std::vector<std::string> out;
    const std::string inner = text.substr(5, text.size() - 6);
    for (size_t start = 0; start <= inner.size();) {
        const auto comma = inner.find(',', start);
        const auto end = comma == std::string::npos ? inner.size() : comma;
        if (end > start) out.push_back(url_decode(inner.substr(start, end - start)));
        start = end + 1;
    }
    return out;
}

json statistics_of(const json& post) {
    const auto count = [&](const char* name) { return post.value(name, 0LL); };
    const long long impressions = count("impressions");
    const long long engaged =
        count("likes") + count("comments") + count("reshares") + count("clicks");
    return {
        {"impressionCount", impressions},
        {"uniqueImpressionsCount", count("unique_impressions")},
        {"likeCount", count("likes")},
        {"commentCount", count("comments")},
        {"shareCount", count("reshares")},
        {"clickCount", count("clicks")},
        {"engagement",
         impressions == 0 ? 0.0 : static_cast<double>(engaged) / static_cast<double>(impressions)}};
}

HttpAnswer find_by_organization(const HttpRequest& request, const Grant& grant) {
    if (request.query("q") != "organizationalEntity")
        return error(400, 0, "BAD_REQUEST", "Unsupported finder " + request.query("q"));
    const std::string organization = url_decode(request.query("organizationalEntity"));
    const std::string prefix = "urn:li:organization:";
    if (!organization.starts_with(prefix) ||
        !state().organizations.contains(organization.substr(prefix.size())))
        return error(400, 0, "BAD_REQUEST", "organizationalEntity must be an organization URN");
    const auto& roles = state().organizations[organization.substr(prefix.size())]["roles"];
    if (roles.value(grant.member, "") != "ADMINISTRATOR")
        return error(403, 100, "ACCESS_DENIED",
                     "Not enough permissions to access: "
                     "organizationalEntityShareStatistics.FINDER-organizationalEntity");
    const std::string kind = request.query("shares").empty() ? "ugcPosts" : "shares";
    const auto listed = restli_list(request.query(kind));
    if (!listed) return error(400, 0, "BAD_REQUEST", kind + " must be a List(...) of post URNs");
    json elements = json::array();
    for (const auto& urn : *listed) {
        const json* post = find_post(urn);
        if (!post || (*post)["author"] != organization) continue;
        elements.push_back({{kind == "shares" ? "share" : "ugcPost", urn},
                            {"organizationalEntity", organization},
                            {"totalShareStatistics", statistics_of(*post)}});
    }
    return json_answer(200, {{"elements", elements},
                             {"paging", {{"start", 0}, {"count", 10}, {"links", json::array()}}}});
}

}  // namespace

std::optional<HttpAnswer> serve_share_statistics(const HttpRequest& request,
                                                 const std::string& path) {
    if (path != kShareStatistics) return std::nullopt;
    if (request.method != "GET") return error(405, 0, "METHOD_NOT_ALLOWED", "Use GET");
    auto who = authorized(request, {"rw_organization_admin"},
                          "organizationalEntityShareStatistics.FINDER-organizationalEntity");
    if (auto* refusal = std::get_if<HttpAnswer>(&who)) return *refusal;
    return find_by_organization(request, std::get<Grant>(who));
}

}  // namespace squawk::fakes::platforms::linkedin
