#include "api/dashboard/page.hpp"

#include "api/dashboard/dashboard.hpp"
#include "api/dashboard/files.hpp"
#include "api/dashboard/template.hpp"
#include "api/server/services.hpp"
#include "common/core/config/config.hpp"

namespace squawk::api::dashboard {
namespace {

// Whose navigation shows an item.
enum class Audience { everyone, workspace, operators };

struct NavItem {
    std::string_view href;
    std::string_view label;
    Audience audience;
};

constexpr NavItem kNav[] = {
    {"/dashboard/", "Home", Audience::everyone},
    {"/dashboard/keys", "API keys", Audience::workspace},
    {"/dashboard/webhooks", "Webhooks", Audience::workspace},
    {"/dashboard/posts", "Posts", Audience::workspace},
    {"/dashboard/jobs", "Jobs", Audience::workspace},
    {"/dashboard/logs", "Request log", Audience::workspace},
    {"/dashboard/usage", "Usage & billing", Audience::workspace},
    {"/dashboard/profiles", "Profiles", Audience::workspace},
    {"/dashboard/team", "Team", Audience::workspace},
    {"/dashboard/account", "Account", Audience::everyone},
    {"/dashboard/ops", "Operations", Audience::operators},
};

bool shown_to(const NavItem& item, const users::User& user) {
    switch (item.audience) {
        case Audience::everyone:
            return true;
        case Audience::workspace:
            return user.workspace_id.has_value();
        case Audience::operators:
            return user.role == users::Role::operator_;
    }
    return false;
}

std::string_view file(std::string_view name) {
    const auto text = embedded_file(name);
    if (!text) throw std::logic_error("dashboard: no embedded file " + std::string(name));
    return *text;
}

}  // namespace

std::optional<std::string_view> embedded_file(std::string_view name) {
    for (const auto& f : embedded::dashboard_files())
        if (f.name == name) return f.text;
    return std::nullopt;
}

std::string Visit::field(std::string_view name) const {
    for (const auto& [key, value] : form)
        if (key == name) return value;
    return {};
}

std::string Visit::query_value(const std::string& name) const {
    const auto found = query.find(name);
    return found == query.end() ? std::string() : found->second;
}

std::string Visit::cookie(std::string_view name) const {
    const auto found = request.cookies.find(std::string(name));
    return found == request.cookies.end() ? std::string() : found->second;
}

bool Visit::can_write() const {
    return session && (session->user.role == users::Role::owner ||
                       session->user.role == users::Role::developer);
}

std::string set_cookie(const Services& services, std::string_view name, std::string_view value,
                       std::string_view path) {
    std::string cookie = std::string(name) + "=" + std::string(value) +
                         "; Path=" + std::string(path) + "; HttpOnly; SameSite=Lax";
    if (services.config.api.public_base_url.starts_with("https://")) cookie += "; Secure";
    return cookie;
}

std::string clear_cookie(const Services& services, std::string_view name, std::string_view path) {
    return set_cookie(services, name, "", path) + "; Max-Age=0";
}

Reply html_page(const Visit& visit, std::string_view name, std::string_view title,
                nlohmann::json data, int status) {
    data["title"] = title;
    if (visit.session) {
        const auto& user = visit.session->user;
        data["signed_in"] = true;
        data["email"] = user.email;
        data["role"] = users::role_name(user.role);
        data["csrf"] = visit.session->csrf_token;
        data["can_write"] = visit.can_write();
        if (user.workspace_id)
            data["workspace"] = {{"id", *user.workspace_id},
                                 {"name", visit.session->workspace_name}};
        auto& nav = data["nav"] = nlohmann::json::array();
        for (const auto& item : kNav)
            if (shown_to(item, user))
                nav.push_back({{"href", item.href},
                               {"label", item.label},
                               {"current", item.href == visit.request.path}});
    }
    Reply reply;
    reply.status = status;
    reply.raw =
        RawBody{render(file("layout.html"), data, {{"page", file(std::string(name) + ".html")}}),
                "text/html; charset=utf-8"};
    return reply;
}

Reply message_page(const Visit& visit, int status, std::string_view title,
                   std::string_view message) {
    return html_page(visit, "message", title, {{"message", message}}, status);
}

}  // namespace squawk::api::dashboard
