#include "api/server/api_handler.hpp"

#include "api/server/authenticator.hpp"
#include "api/server/bearer.hpp"
#include "api/server/envelope.hpp"
#include "api/server/exception_mapping.hpp"
#include "api/server/request_body.hpp"
#include "api/server/response_header.hpp"
#include "common/log/logger.hpp"
#include "common/metrics/registry.hpp"

#include <chrono>
#include <cmath>
#include <sstream>

namespace squawk::api {

namespace Http = Pistache::Http;

namespace {

// What the access log line reports about one request.
struct Exchange {
    std::string request_id;
    std::string method;
    std::string route = "-";
    std::string key_prefix;
    long long workspace_id = 0;
    std::string allow;  // the Allow header of a 405
};

std::optional<std::string> header_value(const Http::Request& request, const char* name) {
    if (auto raw = request.headers().tryGetRaw(name)) return raw->value();
    if (auto typed = request.headers().tryGet(name)) {
        std::ostringstream out;
        typed->write(out);
        return out.str();
    }
    return std::nullopt;
}

// Pistache answers "Connection: Close" unless the request named a Connection header, which
// breaks HTTP/1.1 keep-alive; HTTP/1.1 connections stay open unless the client asked to close.
void set_connection(const Http::Request& request, Http::ResponseWriter& response) {
    if (request.version() != Http::Version::Http11) return;
    const auto asked = request.headers().tryGet<Http::Header::Connection>();
    const bool close = asked && asked->control() == Http::ConnectionControl::Close;
    response.headers().remove<Http::Header::Connection>();
    response.headers().add<Http::Header::Connection>(close ? Http::ConnectionControl::Close
                                                           : Http::ConnectionControl::KeepAlive);
}

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

std::vector<std::pair<std::string, std::string>> raw_query(const Http::Request& request) {
    const auto& q = request.query();
    return {q.parameters_begin(), q.parameters_end()};
}

Reply dispatch(const Http::Request& request, const Router& router, Services& services,
               Exchange& exchange) {
    const RouteMatch match = router.match(exchange.method, request.resource());
    switch (match.outcome) {
    case RouteMatch::Outcome::malformed:
        throw ApiError(ErrorCode::InvalidRequest, "The request path is not correctly encoded.",
                       {{"reason", "malformed percent-encoding in the path"}});
    case RouteMatch::Outcome::not_found:
        throw ApiError(ErrorCode::NotFound, "No resource exists at this path.");
    case RouteMatch::Outcome::method_not_allowed:
        exchange.allow = join(match.allowed_methods);
        throw ApiError(ErrorCode::MethodNotAllowed, {},
                       {{"allowed_methods", match.allowed_methods}});
    case RouteMatch::Outcome::found:
        break;
    }
    const Route& route = *match.route;
    exchange.route = std::string(route.pattern);
    check_body_size(request.body().size(), services.config.api.max_body_bytes);

    RequestContext context;
    context.request_id = exchange.request_id;
    if (route.access.kind != Access::Kind::open) {
        const auto authorization = header_value(request, "Authorization");
        const auto token = bearer_token(authorization ? std::optional<std::string_view>(*authorization)
                                                      : std::nullopt);
        auto key = authenticate(services.mysql, token);
        exchange.key_prefix = key.prefix;
        exchange.workspace_id = key.workspace_id;
        authorize(route.access, key);
        context.workspace_id = key.workspace_id;
        context.is_test = key.type == auth::KeyType::test;
        context.key = std::move(key);
    }
    const auto content_type = header_value(request, "Content-Type");
    context.body = parse_request_body(
        exchange.method, request.body(),
        content_type ? std::optional<std::string_view>(*content_type) : std::nullopt);
    context.query = decode_query(raw_query(request));
    context.path_params = match.params;
    return route.handler(context, services);
}

void record_request_metrics(const Exchange& exchange, int status, double seconds) {
    auto& registry = metrics::Registry::global();
    registry
        .counter("squawk_http_requests_total", "API requests by route template and status.",
                 {{"method", exchange.method},
                  {"route", exchange.route},
                  {"status", std::to_string(status)}})
        .inc();
    registry
        .histogram("squawk_http_request_duration_seconds", "API request latency by route template.",
                   {{"method", exchange.method}, {"route", exchange.route}})
        .observe(seconds);
}

void send_json(Http::ResponseWriter& response, int status, const nlohmann::json& envelope) {
    response.send(static_cast<Http::Code>(status), to_wire(envelope), MIME(Application, Json));
}

void send_reply(Http::ResponseWriter& response, Reply& reply, const Meta& meta) {
    if (reply.file) {
        Http::serveFile(response, reply.file->path,
                        Http::Mime::MediaType::fromString(reply.file->mime_type));
    } else if (reply.raw) {
        response.send(static_cast<Http::Code>(reply.status), reply.raw->bytes,
                      Http::Mime::MediaType::fromString(reply.raw->mime_type));
    } else {
        send_json(response, reply.status, success_envelope(reply.data, reply.pagination, meta));
    }
}

}  // namespace

void ApiHandler::onRequest(const Http::Request& request, Http::ResponseWriter response) {
    const auto started = std::chrono::steady_clock::now();
    Exchange exchange;
    exchange.request_id = new_request_id();
    exchange.method = Http::methodString(request.method());

    set_connection(request, response);
    response.headers().add(std::make_shared<ResponseHeader>("X-Request-Id", exchange.request_id));

    int status = 0;
    try {
        Reply reply = dispatch(request, *router_, *services_, exchange);
        status = reply.status;
        send_reply(response, reply, make_meta(exchange.request_id));
    } catch (...) {
        const ApiError error = to_api_error(std::current_exception(), exchange.request_id);
        status = error.info().http_status;
        if (!exchange.allow.empty())
            response.headers().add(std::make_shared<ResponseHeader>("Allow", exchange.allow));
        try {
            send_json(response, status, error_envelope(error, make_meta(exchange.request_id)));
        } catch (const std::exception& e) {
            log::error("could not send the error response",
                       {{"request_id", exchange.request_id}, {"error", e.what()}});
        }
    }

    const auto elapsed = std::chrono::duration<double, std::milli>(
        std::chrono::steady_clock::now() - started);
    record_request_metrics(exchange, status, elapsed.count() / 1000.0);
    log::info("request", {{"request_id", exchange.request_id},
                          {"method", exchange.method},
                          {"route", exchange.route},
                          {"status", status},
                          {"duration_ms", std::round(elapsed.count() * 1000) / 1000},
                          {"key_prefix", exchange.key_prefix},
                          {"workspace_id", exchange.workspace_id}});
}

}  // namespace squawk::api
