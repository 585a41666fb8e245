// The workspace's people: the team page lists users and open invitations, and lets owners invite
// an email with a role (the link shown once), revoke an invitation or remove a user, which ends
// their sessions. The invitation link's page lets the invitee choose a password and signs them
// in; a used, revoked, expired or unknown link answers the same 404.
#include "api/dashboard/dashboard.hpp"
#include "api/dashboard/page.hpp"
#include "api/server/services.hpp"
#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/core/error/api_error.hpp"
#include "common/domain/users/invitations.hpp"
#include "common/domain/workspace/workspace_repository.hpp"

#include <charconv>

namespace squawk::api::dashboard {
namespace {

constexpr std::string_view kTeamPath = "/dashboard/team";
constexpr std::string_view kInvitationsPath = "/dashboard/invitations";
// The invitation form's pre-session CSRF token, as the sign-in form's: its value is also the
// form's.
constexpr std::string_view kInvitationCookie = "squawk_invitation";
constexpr size_t kFormTokenBytes = 24;

// Minutes are enough on a page: "2026-11-26T14:00".
std::string shown_minutes(time::TimePoint at) {
    return time::format_iso8601(at).substr(0, 16);
}

long long id_field(const Visit& visit, std::string_view name) {
    long long id = 0;
    const std::string text = visit.field(name);
    std::from_chars(text.data(), text.data() + text.size(), id);
    return id;
}

// A refused field's problems as sentences: "The email must be an email address."
nlohmann::json field_problems(const ApiError& error) {
    nlohmann::json out = nlohmann::json::array();
    const auto fields = error.details().value("fields", nlohmann::json::object());
    for (const auto& [field, problem] : fields.items())
        out.push_back("The " + field + " " + problem.get<std::string>() + ".");
    return out;
}

void require_owner(const Visit& visit) {
    if (visit.session->user.role != users::Role::owner)
        throw ApiError(ErrorCode::Forbidden, "Only the workspace's owners manage its people.");
}

// Where a browser opens the dashboard: api.public_base_url names the API's /v1 root.
std::string dashboard_base(const Services& services) {
    std::string base = services.config.api.public_base_url;
    while (base.ends_with('/')) base.pop_back();
    if (base.ends_with("/v1")) base.resize(base.size() - 3);
    return base;
}

Reply team_page(Visit& visit, nlohmann::json errors, int status) {
    const long long workspace_id = visit.workspace_id();
    const auto [members, invitations] = visit.services.mysql.run([&](db::Session& s) {
        return std::pair(users::UserRepository::list_of_workspace(s, workspace_id),
                         users::InvitationService::open_of_workspace(s, workspace_id));
    });
    const bool owner = visit.session->user.role == users::Role::owner;
    nlohmann::json people = nlohmann::json::array();
    for (const auto& u : members)
        people.push_back({{"id", u.id},
                          {"email", u.email},
                          {"role", users::role_name(u.role)},
                          {"since", shown_minutes(u.created_at)},
                          {"removable", owner && u.id != visit.session->user.id}});
    nlohmann::json open = nlohmann::json::array();
    for (const auto& i : invitations)
        open.push_back({{"id", i.id},
                        {"email", i.email},
                        {"role", users::role_name(i.role)},
                        {"expires", shown_minutes(i.expires_at)}});
    return html_page(visit, "invitation_team", "Team",
                     {{"owner", owner},
                      {"people", people},
                      {"invitations", open},
                      {"has_invitations", !open.empty()},
                      {"errors", std::move(errors)},
                      {"invite_email", status == 422 ? visit.field("email") : std::string()}},
                     status);
}

Reply show_team(Visit& visit) {
    return team_page(visit, nlohmann::json::array(), 200);
}

Reply invite(Visit& visit) {
    require_owner(visit);
    const auto role = users::parse_role(visit.field("role"));
    if (!role || role == users::Role::operator_)
        return team_page(visit, {"Choose owner, developer or viewer."}, 422);
    try {
        const auto issued = visit.services.mysql.transaction([&](db::Session& s) {
            return users::InvitationService::invite(s, visit.workspace_id(), visit.session->user.id,
                                                    visit.field("email"), *role);
        });
        return html_page(visit, "invitation_created", "Invitation created",
                         {{"email", issued.invitation.email},
                          {"invited_role", users::role_name(issued.invitation.role)},
                          {"link", dashboard_base(visit.services) + std::string(kInvitationsPath) +
                                       "/" + issued.token},
                          {"expires", shown_minutes(issued.invitation.expires_at)}},
                         201);
    } catch (const ApiError& e) {
        if (e.code() != ErrorCode::ValidationError) throw;
        return team_page(visit, field_problems(e), 422);
    }
}

Reply revoke_invitation(Visit& visit) {
    require_owner(visit);
    const bool revoked = visit.services.mysql.transaction([&](db::Session& s) {
        return users::InvitationService::revoke(s, visit.workspace_id(),
                                                id_field(visit, "invitation_id"));
    });
    if (!revoked)
        throw ApiError(ErrorCode::NotFound, "This workspace has no open invitation with this id.");
    return Reply::redirect(std::string(kTeamPath));
}

Reply remove_member(Visit& visit) {
    require_owner(visit);
    const long long user_id = id_field(visit, "user_id");
    // An owner who could remove themselves could leave a workspace with nobody to run it.
    if (user_id == visit.session->user.id)
        return team_page(visit, {"You cannot remove yourself."}, 422);
    const bool removed = visit.services.mysql.transaction([&](db::Session& s) {
        return users::UserService::remove_member(s, visit.workspace_id(), user_id);
    });
    if (!removed) throw ApiError(ErrorCode::NotFound, "This workspace has no user with this id.");
    return Reply::redirect(std::string(kTeamPath));
}

users::Invitation open_invitation(const Visit& visit) {
    auto invitation = visit.services.mysql.run([&](db::Session& s) {
        return users::InvitationService::find_open(s, visit.param("token"));
    });
    if (!invitation)
        throw ApiError(ErrorCode::NotFound,
                       "This invitation link is not valid: it was used, revoked or has expired. "
                       "Ask the workspace's owner for a new one.");
    return *invitation;
}

Reply invitation_form(const Visit& visit, const users::Invitation& invitation,
                      const std::string& token, nlohmann::json errors, int status) {
    const auto workspace = visit.services.mysql.run([&](db::Session& s) {
        return workspace::WorkspaceRepository::find(s, invitation.workspace_id);
    });
    Reply reply = html_page(visit, "invitation", "Join the workspace",
                            {{"form_token", token},
                             {"token", visit.param("token")},
                             {"invited_email", invitation.email},
                             {"invited_role", users::role_name(invitation.role)},
                             {"workspace_name", workspace ? workspace->name : std::string()},
                             {"errors", std::move(errors)}},
                            status);
    reply.headers.emplace_back("Set-Cookie", set_cookie(visit.services, kInvitationCookie, token,
                                                        std::string(kInvitationsPath)));
    return reply;
}

Reply show_invitation(Visit& visit) {
    const auto invitation = open_invitation(visit);
    std::string token = visit.cookie(kInvitationCookie);
    if (token.size() != crypto::random_token(kFormTokenBytes).size())
        token = crypto::random_token(kFormTokenBytes);
    return invitation_form(visit, invitation, token, nlohmann::json::array(), 200);
}

Reply accept_invitation(Visit& visit) {
    const auto invitation = open_invitation(visit);
    const std::string token = visit.cookie(kInvitationCookie);
    if (token.empty() || !crypto::constant_time_equal(token, visit.field("csrf")))
        return invitation_form(visit, invitation, crypto::random_token(kFormTokenBytes),
                               {"The form had expired. Please try again."}, 403);
    const std::string password = visit.field("password");
    nlohmann::json errors = nlohmann::json::array();
    if (!users::acceptable_password(password))
        errors.push_back("The password " + users::password_rule() + ".");
    else if (password != visit.field("password_again"))
        errors.push_back("The password and its repetition differ.");
    if (!errors.empty()) return invitation_form(visit, invitation, token, std::move(errors), 422);
    const std::string previous = visit.cookie(kSessionCookie);
    users::StartedSession started;
    try {
        started = visit.services.mysql.transaction([&](db::Session& s) {
            const auto user = users::InvitationService::accept(s, visit.param("token"), password);
            return users::UserService::start_session(
                s, user,
                previous.empty() ? std::nullopt : std::optional<std::string_view>(previous));
        });
    } catch (const ApiError& e) {
        if (e.code() != ErrorCode::ValidationError) throw;
        return invitation_form(visit, invitation, token, field_problems(e), 422);
    }
    Reply reply = Reply::redirect("/dashboard/");
    reply.headers.emplace_back(
        "Set-Cookie", set_cookie(visit.services, kSessionCookie, started.id, "/dashboard"));
    reply.headers.emplace_back("Set-Cookie", clear_cookie(visit.services, kInvitationCookie,
                                                          std::string(kInvitationsPath)));
    return reply;
}

const Page kInvitationPages[] = {
    {"GET", kTeamPath, Gate::workspace_member, show_team},
    {"POST", "/dashboard/team/invitations", Gate::workspace_writer, invite},
    {"POST", "/dashboard/team/invitations/revoke", Gate::workspace_writer, revoke_invitation},
    {"POST", "/dashboard/team/members/remove", Gate::workspace_writer, remove_member},
    {"GET", "/dashboard/invitations/{token}", Gate::anyone, show_invitation},
    {"POST", "/dashboard/invitations/{token}", Gate::anyone, accept_invitation},
};

}  // namespace

std::span<const Page> invitation_pages() {
    return kInvitationPages;
}

}  // namespace squawk::api::dashboard
