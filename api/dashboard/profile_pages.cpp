// Profiles of the session's workspace (spec 2.7): listed a page at a time, created, paused and
// resumed through the same ProfileService, validation and JSON as /v1/profiles. Another
// workspace's profile id answers 404 as the API does.
#include "api/dashboard/page.hpp"
#include "api/render/profile_json.hpp"
#include "api/server/pagination.hpp"
#include "api/server/request_headers.hpp"
#include "api/server/services.hpp"
#include "api/server/validation.hpp"
#include "common/domain/profiles/profile_service.hpp"

namespace squawk::api::dashboard {
namespace {

constexpr std::string_view kListPath = "/dashboard/profiles";

profiles::ProfileService profile_service(Visit& visit) {
    return profiles::ProfileService(visit.services.mysql, visit.services.redis);
}

std::string_view field_label(const std::string& field) {
    return field == "name" ? "Name" : field == "external_id" ? "External id" : "";
}

std::string page_link(int page, int per_page) {
    return std::string(kListPath) + "?page=" + std::to_string(page) +
           "&per_page=" + std::to_string(per_page);
}

// `name` and `external_id` refill the create form after a refusal, so nothing typed is lost.
Reply list_page(Visit& visit, nlohmann::json errors, const std::string& name,
                const std::string& external_id, int status) {
    Validator query(visit.query);
    const api::PageRequest page = read_page(query);
    query.finish();
    const auto found =
        profile_service(visit).list(visit.workspace_id(), page.offset(), page.per_page);
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& p : found.items) {
        auto row = render::profile_json(p);
        row["paused"] = p.status == "paused";
        row["created_at"] = row["created_at"].get<std::string>().substr(0, 10);
        rows.push_back(std::move(row));
    }
    const auto pagination = pagination_json(page, found.total);
    const long long total_pages = pagination["total_pages"].get<long long>();
    nlohmann::json pager = nlohmann::json::object();
    if (page.page > 1) pager["previous"] = page_link(page.page - 1, page.per_page);
    if (page.page < total_pages) pager["next"] = page_link(page.page + 1, page.per_page);
    return html_page(visit, "profiles", "Profiles",
                     {{"profiles", rows},
                      {"has_profiles", !rows.empty()},
                      {"total", found.total},
                      {"page", page.page},
                      {"total_pages", total_pages},
                      {"pager", pager.empty() ? nlohmann::json() : pager},
                      {"errors", std::move(errors)},
                      {"form_name", name},
                      {"form_external_id", external_id}},
                     status);
}

Reply show_profiles(Visit& visit) {
    return list_page(visit, nlohmann::json::array(), "", "", 200);
}

// The form's fields as the API's JSON body, checked by the API's own rules.
Reply create_profile(Visit& visit) {
    nlohmann::json body = {{"name", visit.field("name")}};
    if (const auto external_id = visit.field("external_id"); !external_id.empty())
        body["external_id"] = external_id;
    Validator check(body);
    const std::string name = check.required_string("name", profiles::kMaxProfileName);
    const auto external_id = check.optional_string("external_id", profiles::kMaxExternalId);
    if (!check.problems().empty()) {
        nlohmann::json errors = nlohmann::json::array();
        for (const auto& [field, reason] : check.problems())
            errors.push_back(std::string(field_label(field)) + " " + reason + ".");
        return list_page(visit, std::move(errors), visit.field("name"), visit.field("external_id"),
                         422);
    }
    profile_service(visit).create(visit.workspace_id(), name, external_id);
    return Reply::redirect(std::string(kListPath));
}

Reply set_paused(Visit& visit, bool paused) {
    const auto id = parse_profile_id(visit.param("id"));
    if (!id) throw profiles::profile_not_found();
    profile_service(visit).set_paused(visit.workspace_id(), *id, paused);
    return Reply::redirect(std::string(kListPath));
}

Reply pause_profile(Visit& visit) {
    return set_paused(visit, true);
}

Reply resume_profile(Visit& visit) {
    return set_paused(visit, false);
}

const Page kProfilePages[] = {
    {"GET", kListPath, Gate::workspace_member, show_profiles},
    {"POST", kListPath, Gate::workspace_writer, create_profile},
    {"POST", "/dashboard/profiles/{id}/pause", Gate::workspace_writer, pause_profile},
    {"POST", "/dashboard/profiles/{id}/resume", Gate::workspace_writer, resume_profile},
};

}  // namespace

std::span<const Page> profile_pages() {
    return kProfilePages;
}

}  // namespace squawk::api::dashboard
