#include "api/dashboard/dashboard.hpp"

#include "api/dashboard/files.hpp"
#include "api/dashboard/form.hpp"
#include "api/dashboard/page.hpp"
#include "api/server/request_body.hpp"
#include "api/server/router.hpp"
#include "api/server/services.hpp"
#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"

#include <vector>

namespace squawk::api::dashboard {
namespace {

constexpr std::string_view kPrefix = "/dashboard";
constexpr std::string_view kAssets = "/dashboard/assets/";
constexpr std::string_view kAssetRoute = "/dashboard/assets/{name}";

const std::vector<Page>& pages() {
    static const std::vector<Page> all = [] {
        std::vector<Page> joined;
        for (const auto family :
             {session_pages(), home_pages(), key_pages(), job_pages(), log_pages(), ops_pages(),
              usage_pages(), profile_pages(), webhook_pages(), post_pages(), account_pages(),
              invitation_pages()})
            joined.insert(joined.end(), family.begin(), family.end());
        return joined;
    }();
    return all;
}

// On every answer, assets and errors included: no inline script or style, no framing, no
// guessing of types, no URL with a path leaking to other sites.
void add_security_headers(Reply& reply) {
    reply.headers.emplace_back("Content-Security-Policy",
                               "default-src 'self'; script-src 'self'; style-src 'self'; "
                               "frame-ancestors 'none'; form-action 'self'; base-uri 'none'");
    reply.headers.emplace_back("X-Frame-Options", "DENY");
    reply.headers.emplace_back("X-Content-Type-Options", "nosniff");
    reply.headers.emplace_back("Referrer-Policy", "same-origin");
}

Reply asset(std::string_view name) {
    const auto text = embedded_file(name);
    std::string_view type;
    if (name.ends_with(".css")) type = "text/css; charset=utf-8";
    if (name.ends_with(".js")) type = "text/javascript; charset=utf-8";
    if (name.ends_with(".svg")) type = "image/svg+xml";
    if (!text || type.empty()) throw ApiError(ErrorCode::NotFound, "No such asset.");
    Reply reply;
    reply.raw = RawBody{std::string(*text), std::string(type)};
    reply.headers.emplace_back("Cache-Control", "public, max-age=300");
    return reply;
}

std::optional<users::SignedIn> resume(const PageRequest& request, Services& services) {
    const auto cookie = request.cookies.find(std::string(kSessionCookie));
    if (cookie == request.cookies.end() || cookie->second.empty()) return std::nullopt;
    // No transaction: one read, and at most one write a minute that stands on its own.
    return services.mysql.run(
        [&](db::Session& s) { return users::UserService::resume(s, cookie->second); });
}

Reply through_gate(const Page& page, Visit& visit) {
    if (page.gate == Gate::anyone) return page.handler(visit);
    visit.session = resume(visit.request, visit.services);
    if (!visit.session) {
        if (visit.request.method == "GET") return Reply::redirect("/dashboard/login");
        return message_page(visit, 403, "Signed out",
                            "Your session has ended. Sign in again to continue.");
    }
    // Every form of a session carries its token: a page elsewhere cannot post as the user.
    if (visit.request.method == "POST") {
        const std::string token = visit.field("csrf");
        if (token.empty() || !crypto::constant_time_equal(token, visit.session->csrf_token))
            return message_page(visit, 403, "Form refused",
                                "The form did not come from this session of the dashboard. "
                                "Reload the page and try again.");
    }
    const bool in_workspace = visit.session->user.workspace_id.has_value();
    if (page.gate == Gate::operator_only) {
        if (visit.session->user.role != users::Role::operator_)
            return message_page(visit, 403, "Not available",
                                "This page is for the server's operators.");
        return page.handler(visit);
    }
    if (page.gate != Gate::signed_in && !in_workspace)
        return message_page(visit, 403, "Not available",
                            "This page belongs to a workspace; operators have none.");
    if (page.gate == Gate::workspace_writer && !visit.can_write())
        return message_page(visit, 403, "Not allowed",
                            "Your role can look at this page but not change anything.");
    return page.handler(visit);
}

Reply dispatch(Visit& visit, Services& services, std::string& route) {
    const auto& request = visit.request;
    if (request.path == kPrefix) return Reply::redirect("/dashboard/");
    if (request.path.starts_with(kAssets)) {
        route = kAssetRoute;
        return asset(std::string_view(request.path).substr(kAssets.size()));
    }
    static const PathMatcher matcher = [] {
        PathMatcher m;
        for (const auto& page : pages()) m.add(page.method, page.path);
        return m;
    }();
    auto match = matcher.match(request.method, request.path);
    if (match.outcome == PathMatch::Outcome::method_not_allowed)
        return message_page(visit, 405, "Not allowed", "Use the page's forms.");
    if (match.outcome != PathMatch::Outcome::found)
        return message_page(visit, 404, "Not found", "There is no dashboard page here.");
    const Page* found = &pages()[match.row];
    visit.params = std::move(match.params);
    visit.query = decode_query(request.raw_query);
    route = std::string(found->path);
    if (request.method == "POST") {
        check_body_size(request.body.size(), services.config.api.max_body_bytes);
        visit.form = parse_form(request.body);
    }
    return through_gate(*found, visit);
}

}  // namespace

bool owns(std::string_view path) {
    return path == kPrefix || (path.starts_with(kPrefix) && path[kPrefix.size()] == '/');
}

Reply serve(const PageRequest& request, Services& services, std::string& route) {
    route = std::string(kPrefix) + "/";
    Visit visit{request, {}, {}, {}, std::nullopt, services};
    Reply reply;
    try {
        try {
            reply = dispatch(visit, services, route);
        } catch (const ApiError& e) {
            reply = message_page(visit, e.info().http_status, "Request refused", e.what());
        } catch (const std::exception& e) {
            log::error("dashboard page failed", {{"path", request.path}, {"error", e.what()}});
            reply = message_page(visit, 500, "Something went wrong",
                                 "The page could not be shown. Try again in a moment.");
        }
    } catch (const std::exception& e) {
        log::error("dashboard error page failed", {{"path", request.path}, {"error", e.what()}});
        reply = Reply();
        reply.status = 500;
        reply.raw = RawBody{"The dashboard could not answer.", "text/plain; charset=utf-8"};
    }
    if (reply.raw && reply.raw->mime_type.starts_with("text/html"))
        // A page may show a key once; no cache may keep a copy.
        reply.headers.emplace_back("Cache-Control", "no-store");
    add_security_headers(reply);
    return reply;
}

}  // namespace squawk::api::dashboard
