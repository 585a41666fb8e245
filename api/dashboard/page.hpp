// How a dashboard page is declared and what its handler receives: a page is a handler, a
// template and the services the API already uses. The gate in dashboard.cpp checks the session,
// the role and, on every POST, the CSRF token before a handler runs.
#pragma once

#include "api/server/request_context.hpp"
#include "api/server/url_decode.hpp"
#include "common/core/http/form_encoding.hpp"
#include "common/domain/users/user_service.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace squawk::api {
struct Services;
}

namespace squawk::api::dashboard {

struct PageRequest;

// Who may open a page.
enum class Gate {
    anyone,            // the sign-in form
    signed_in,         // any session, operators included
    workspace_member,  // a session of a workspace's user: its pages act in that workspace only
    workspace_writer,  // owners and developers; viewers are answered 403
    operator_only,     // server-wide operators; every workspace user is answered 403
};

struct Visit {
    const PageRequest& request;
    PathParams params;                       // the page path's {name} segments, decoded
    QueryParams query;                       // the query string, decoded
    http::FormFields form;                   // a POST's decoded fields
    std::optional<users::SignedIn> session;  // present past every gate but `anyone`
    Services& services;

    // The first value of the form field `name`, or empty.
    std::string field(std::string_view name) const;
    // The path parameter `name` (the gate's router guarantees it), or a query parameter or empty.
    const std::string& param(const std::string& name) const { return params.at(name); }
    std::string query_value(const std::string& name) const;
    // The request's cookie `name`, or empty.
    std::string cookie(std::string_view name) const;
    // The workspace a workspace page acts in (its gate guarantees one).
    long long workspace_id() const { return session.value().user.workspace_id.value(); }
    bool can_write() const;
};

using PageFn = Reply (*)(Visit&);

struct Page {
    std::string_view method;
    std::string_view path;  // "/dashboard/jobs/{job_id}": {name} segments are parameters
    Gate gate;
    PageFn handler;
};

inline constexpr std::string_view kSessionCookie = "squawk_session";
// The pre-session cookie of the sign-in form: its value is also the form's CSRF token.
inline constexpr std::string_view kLoginCookie = "squawk_login";

// Set-Cookie values: HttpOnly, SameSite=Lax, and Secure unless the API is served over plain
// HTTP (api.public_base_url), as in local development where a browser would not send it back.
std::string set_cookie(const Services& services, std::string_view name, std::string_view value,
                       std::string_view path);
std::string clear_cookie(const Services& services, std::string_view name, std::string_view path);

// Each family of pages, defined beside its handlers; dashboard.cpp joins them.
std::span<const Page> session_pages();
std::span<const Page> home_pages();
std::span<const Page> key_pages();
std::span<const Page> account_pages();
std::span<const Page> invitation_pages();
std::span<const Page> post_pages();
std::span<const Page> webhook_pages();
std::span<const Page> usage_pages();
std::span<const Page> profile_pages();
std::span<const Page> job_pages();
std::span<const Page> log_pages();
std::span<const Page> ops_pages();

// The HTML of the template `name` inside the layout, with `data` plus what every page shows (the
// user, the workspace, the CSRF token for forms, the navigation).
Reply html_page(const Visit& visit, std::string_view name, std::string_view title,
                nlohmann::json data, int status = 200);
// A page that only says what went wrong (403, 404, 429...).
Reply message_page(const Visit& visit, int status, std::string_view title,
                   std::string_view message);

}  // namespace squawk::api::dashboard
