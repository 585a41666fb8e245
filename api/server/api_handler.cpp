#include "api/server/api_handler.hpp"

#include "api/dashboard/dashboard.hpp"
#include "api/server/answer.hpp"
#include "api/server/authenticator.hpp"
#include "api/server/bearer.hpp"
#include "api/server/connection_control.hpp"
#include "api/server/envelope.hpp"
#include "api/server/exception_mapping.hpp"
#include "api/server/header_limits.hpp"
#include "api/server/idempotency_gate.hpp"
#include "api/server/key_cache.hpp"
#include "api/server/pistache_internals.hpp"
#include "api/server/profile_delegation.hpp"
#include "api/server/rate_limit_gate.hpp"
#include "api/server/request_body.hpp"
#include "common/core/config/config.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/metrics/registry.hpp"
#include "common/core/text/ascii.hpp"

#include <pistache/peer.h>

#include <sys/socket.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace squawk::api {

namespace Http = Pistache::Http;

namespace {

// What the access log line reports about one request.
struct Exchange {
    std::string request_id;
    std::string method;
    std::string route = "-";
    std::string key_prefix;
    long long workspace_id = 0;  // the caller's
    std::optional<long long> profile_id;
    std::string allow;  // the Allow header of a 405
    std::optional<rate_limit::Decision> rate;
    bool replayed = false;
};

std::optional<std::string> owned(std::optional<std::string_view> value) {
    return value ? std::optional<std::string>(*value) : std::nullopt;
}

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

Reply dispatch(const RequestHead& head, RequestBody body, const Router& router, Services& services,
               UploadRegistry& uploads, Exchange& exchange) {
    const RouteMatch match = router.match(exchange.method, head.path());
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
    RequestContext context;
    if (route.upload == Route::Upload::none)
        check_body_size(static_cast<size_t>(body.size), services.config.api.max_body_bytes);
    context.request_id = exchange.request_id;
    if (route.access.kind != Access::Kind::open) {
        const auto token = bearer_token(head.field("Authorization"));
        authenticate(route, token, context, services, exchange.rate);
        exchange.key_prefix = context.api_key().prefix;
        exchange.workspace_id = context.caller_workspace_id;
        refuse_if_limited(exchange.rate);
        authorize(route.access, context.api_key());
        act_in_profile(route, head.field("X-Profile-Id"), context, services);
        exchange.profile_id = context.profile_id;
    }
    if (route.upload != Route::Upload::none) {
        // An upload is answered for after its caller is known: a stranger learns nothing of it.
        const auto ticket = owned(head.field(kUploadTicketField));
        context.upload = ticket ? uploads.claim(*ticket) : nullptr;
        if (!context.upload)
            throw ApiError(ErrorCode::InvalidRequest, "The upload's body could not be read.",
                           {{"reason", "send it with a Content-Length or chunked"}});
        require_received(*context.upload, services.config.media.max_upload_bytes);
    }
    const auto content_type = head.field("Content-Type");
    if (route.upload == Route::Upload::none)
        context.body = parse_request_body(exchange.method, body.bytes, content_type);
    context.content_type = owned(content_type);
    context.range = owned(head.field("Range"));
    context.query = decode_query(head.raw_query());
    context.path_params = match.params;

    std::string_view key_name = "X-Idempotency-Key";
    auto key_value = head.field("X-Idempotency-Key");
    if (!key_value && route.request_id_is_key) {
        key_name = "X-Request-Id";
        key_value = head.field("X-Request-Id");
    }
    const auto claim = claim_idempotency(
        services, context, exchange.method, head.path(),
        key_value ? std::optional<KeyHeader>(KeyHeader{key_name, *key_value}) : std::nullopt);
    if (claim && claim->replay) {
        exchange.replayed = true;
        Reply replay = *claim->replay;
        if (route.request_id_is_key && replay.data.is_object()) {
            replay.status = 200;
            replay.data["idempotent_replay"] = true;
        }
        return replay;
    }
    context.billable_as = route.billable_as;
    try {
        Reply reply;
        {
            const auto mark = mark_effects_of(claim);
            reply = route.handler(context, services);
        }
        if (claim) finish_idempotency(services, *claim, &reply);
        return reply;
    } catch (...) {
        if (claim) finish_idempotency(services, *claim, nullptr);
        throw;
    }
}

// The dashboard's pages use cookie sessions instead of keys: they share the transport, metrics
// and access log with the API, but none of its key, rate-limit or idempotency steps.
dashboard::PageRequest dashboard_request(const RequestHead& head, RequestBody body,
                                         const Pistache::Tcp::Peer& peer) {
    dashboard::PageRequest page;
    page.method = head.method;
    page.path = head.path();
    page.raw_query = head.raw_query();
    // "Cookie: a=1; b=2" (RFC 6265 5.4).
    std::string_view cookies = head.field("Cookie").value_or("");
    while (!cookies.empty()) {
        const size_t end = cookies.find(';');
        const std::string_view pair = text::trim_blanks(cookies.substr(0, end));
        cookies = end == std::string_view::npos ? std::string_view() : cookies.substr(end + 1);
        const size_t equals = pair.find('=');
        if (equals != std::string_view::npos && equals > 0)
            page.cookies[std::string(pair.substr(0, equals))] = pair.substr(equals + 1);
    }
    page.body = body.bytes;
    page.address = peer.address().host();
    return page;
}

void add_rate_headers(Answer& answer, const rate_limit::Decision& d) {
    answer.add_header("X-RateLimit-Limit", std::to_string(d.limit));
    answer.add_header("X-RateLimit-Remaining", std::to_string(d.remaining));
    answer.add_header("X-RateLimit-Reset", std::to_string(d.reset_unix()));
    if (!d.allowed) answer.add_header("Retry-After", std::to_string(d.retry_after_seconds));
}

// The series of one method, route and status.
struct RequestSeries {
    metrics::Counter* requests = nullptr;
    metrics::Histogram* duration = nullptr;
};

void record_request_metrics(const Exchange& exchange, int status, double seconds) {
    // Looked up once per reactor thread: the registry's lookup takes a process-wide lock.
    thread_local std::unordered_map<std::string, RequestSeries> known;
    const std::string id = exchange.method + ' ' + exchange.route + ' ' + std::to_string(status);
    auto& series = known[id];
    if (!series.requests) {
        auto& registry = metrics::Registry::global();
        series.requests = &registry.counter("squawk_http_requests_total",
                                            "API requests by route template and status.",
                                            {{"method", exchange.method},
                                             {"route", exchange.route},
                                             {"status", std::to_string(status)}});
        series.duration = &registry.histogram(
            "squawk_http_request_duration_seconds", "API request latency by route template.",
            {{"method", exchange.method}, {"route", exchange.route}});
    }
    series.requests->inc();
    series.duration->observe(seconds);
}

// Headers an error's details call for: when to retry a 503 expected to clear soon (a full
// upload budget), and the size of the file a 416's range missed.
void add_error_headers(Answer& answer, const ApiError& error) {
    const auto& details = error.details();
    if (error.code() == ErrorCode::ServiceUnavailable && details.contains("retry_after_seconds"))
        answer.add_header("Retry-After", details["retry_after_seconds"].dump());
    if (error.code() == ErrorCode::RangeNotSatisfiable && details.contains("size")) {
        answer.add_header("Accept-Ranges", "bytes");
        answer.add_header("Content-Range", "bytes */" + details["size"].dump());
    }
}

// A range is read and sent from memory; whole files go with sendfile.
void send_file_slice(Answer& answer, const FileBody& file) {
    const auto& slice = *file.slice;
    std::string bytes(static_cast<size_t>(slice.last - slice.first + 1), '\0');
    std::ifstream in(file.path, std::ios::binary);
    in.seekg(slice.first);
    if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size())))
        throw std::runtime_error("cannot read bytes " + std::to_string(slice.first) + "-" +
                                 std::to_string(slice.last) + " of " + file.path);
    answer.add_header("Content-Range", "bytes " + std::to_string(slice.first) + "-" +
                                           std::to_string(slice.last) + "/" +
                                           std::to_string(slice.size));
    answer.send(206, bytes, file.mime_type);
}

constexpr std::string_view kJson = "application/json";

void send_json(Answer& answer, int status, const nlohmann::json& envelope) {
    answer.send(status, to_wire(envelope), kJson);
}

// Moves the reply's JSON into the envelope: `reply` is spent afterwards.
void send_reply(Answer& answer, Reply& reply, const Meta& meta) {
    for (const auto& [name, value] : reply.headers) answer.add_header(name, value);
    if (reply.bare) {
        answer.send(reply.status, to_wire(reply.data), kJson);
    } else if (reply.file) {
        answer.add_header("Accept-Ranges", "bytes");
        if (reply.file->slice)
            send_file_slice(answer, *reply.file);
        else
            answer.send_file(reply.file->path, reply.file->mime_type);
    } else if (reply.redirect_to) {
        answer.add_header("Location", *reply.redirect_to);
        answer.send(302);
    } else if (reply.raw) {
        answer.send(reply.status, reply.raw->bytes, reply.raw->mime_type);
    } else if (reply.data_wire) {
        answer.send(reply.status, success_wire(*reply.data_wire, meta), kJson);
    } else {
        send_json(answer, reply.status,
                  success_envelope(std::move(reply.data), std::move(reply.pagination), meta,
                                   std::move(reply.usage)));
    }
}

constexpr const char* kRequestStreamData = "squawk.stream";
// Per reactor thread, outside the upload memory budget like Pistache's own read buffer.
constexpr size_t kBulkReadBytes = 256 * 1024;
constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";

}  // namespace

// Pistache's own HTTP reading (Http::Handler::onInput) fed by the RequestStream: a second handler
// object, since Pistache keeps that function private to the class that overrides it.
class ApiHandler::Parser : public Http::Handler {
  public:
    HTTP_PROTOTYPE(Parser)

    explicit Parser(ApiHandler& owner) : owner_(&owner) {}

    void parse(std::string_view bytes, const std::shared_ptr<Pistache::Tcp::Peer>& peer) {
        static_cast<Pistache::Tcp::Handler&>(*this).onInput(bytes.data(), bytes.size(), peer);
    }
    void onRequest(const Http::Request& request, Http::ResponseWriter response) override {
        owner_->onRequest(request, std::move(response));
    }

  private:
    ApiHandler* owner_;
};

ApiHandler::ApiHandler(Services& services, std::shared_ptr<const Router> router,
                       const UploadLimits& limits)
    : services_(&services),
      router_(std::move(router)),
      uploads_(std::make_shared<UploadRegistry>()),
      limits_(std::make_shared<const UploadLimits>(limits)),
      parser_(std::make_shared<Parser>(*this)) {}

ApiHandler::ApiHandler(const ApiHandler& prototype)
    : Http::Handler(prototype),
      services_(prototype.services_),
      router_(prototype.router_),
      uploads_(prototype.uploads_),
      limits_(prototype.limits_),
      parser_(std::make_shared<Parser>(*this)) {}

void ApiHandler::onInput(const char* buffer, size_t length,
                         const std::shared_ptr<Pistache::Tcp::Peer>& peer) {
    use_transport(*parser_, transport());
    auto stream = std::static_pointer_cast<RequestStream>(peer->tryGetData(kRequestStreamData));
    if (!stream) {
        // The stream lives in the peer's data: it holds the peer weakly.
        std::weak_ptr<Pistache::Tcp::Peer> weak = peer;
        stream = std::make_shared<RequestStream>(
            RequestStream::Hooks{
                .deliver =
                    [this, weak](const RequestHead& head, RequestBody body) {
                        if (auto p = weak.lock()) serve(head, body, p);
                    },
                .forward =
                    [this, weak](std::string_view bytes) {
                        if (auto p = weak.lock()) parser_->parse(bytes, p);
                    },
                .receiver = [this](const RequestHead& head) { return upload_receiver(head); },
                .send_continue =
                    [weak] {
                        if (auto p = weak.lock())
                            p->send(Pistache::RawBuffer(kContinue.data(), kContinue.size()));
                    },
            },
            services_->config.api.max_body_bytes);
        peer->putData(kRequestStreamData, stream);
    }
    const bool request_starts = stream->between_requests();
    stream->feed({buffer, length});
    // An upload's body is drained here in large reads until the socket has no more for now:
    // Pistache reads 4 KiB per call, which costs a 200 MB upload fifty thousand round trips through
    // the reactor. The next readiness event brings the rest; an end or error of the connection is
    // left for Pistache's own read to meet.
    thread_local std::vector<char> bulk(kBulkReadBytes);
    while (stream->taking_body()) {
        const ssize_t n = ::recv(peer->fd(), bulk.data(), bulk.size(), MSG_DONTWAIT);
        if (n <= 0) break;
        stream->feed({bulk.data(), static_cast<size_t>(n)});
    }
    // A request answered within these bytes winds the clock once, to idle.
    if (stream->forwarding()) return;
    if (stream->between_requests())
        restart_clock(peer, Activity::idle);
    else if (request_starts || stream->taking_body())
        restart_clock(peer, Activity::request);
}

// Pistache's transport checks every connection twice a second against the clock of its parser:
// a request still incomplete after the request timeout is answered 408, a connection idle past
// the keep-alive timeout is closed. Requests the stream reads never pass through that parser, so
// the stream winds its clock: else every connection would be answered 408 and closed a minute
// after it opened, however busy, and a request in flight would get that 408 as its answer.
void ApiHandler::restart_clock(const std::shared_ptr<Pistache::Tcp::Peer>& peer,
                               Activity activity) {
    peer->setIdle(activity == Activity::idle);
    if (auto parser = Http::Handler::getParser(peer)) parser->reset();
}

// Pistache queues answers by the connection's file descriptor and, when a client hangs up, closes
// the descriptor at once; the kernel hands that number to the next connection accepted, and an
// answer still queued would be written to it, to a stranger. Writing the queue out first sends
// every such answer to the connection it was meant for (where it is dropped).
void ApiHandler::onDisconnection(const std::shared_ptr<Pistache::Tcp::Peer>& peer) {
    transport()->flush();
    Http::Handler::onDisconnection(peer);
}

std::unique_ptr<BodyReceiver> ApiHandler::upload_receiver(const RequestHead& head) {
    if (head.method != "POST" && head.method != "PUT") return nullptr;
    const RouteMatch match = router_->match(head.method, head.path());
    if (match.outcome != RouteMatch::Outcome::found || match.route->upload == Route::Upload::none)
        return nullptr;
    const bool caller_known =
        match.route->access.kind == Access::Kind::open || presents_known_key(head);
    return std::make_unique<UploadReceiver>(head, match.route->upload, caller_known, *limits_,
                                            *uploads_);
}

bool ApiHandler::presents_known_key(const RequestHead& head) {
    try {
        const std::string_view secret = bearer_token(head.field("Authorization"));
        const auto found = services_->key_cache.find(services_->mysql, services_->redis, secret,
                                                     KeyCache::EpochRead::recent);
        return found.key && !found.key->revoked;
    } catch (const ApiError&) {
        return false;
    } catch (const std::exception&) {
        // MySQL or Redis could not say: the request's own authentication will.
        return true;
    }
}

// What Pistache parsed itself, in the form the request stream gives.
void ApiHandler::onRequest(const Http::Request& request, Http::ResponseWriter response) {
    std::string target = request.resource();
    const auto& query = request.query();
    for (auto at = query.parameters_begin(); at != query.parameters_end(); ++at)
        target.append(at == query.parameters_begin() ? "?" : "&")
            .append(at->first)
            .append("=")
            .append(at->second);
    std::vector<std::pair<std::string, std::string>> fields;
    for (const auto& [name, raw] : request.headers().rawList())
        fields.emplace_back(name, raw.value());
    // Pistache keeps the headers it knows parsed only: their text is what they write.
    for (const auto& header : request.headers().list()) {
        std::ostringstream value;
        header->write(value);
        fields.emplace_back(header->name(), value.str());
    }
    RequestHead head;
    head.method = Http::methodString(request.method());
    head.target = target;
    head.version = Http::versionString(request.version());
    // Only the stream names an upload.
    for (const auto& [name, value] : fields)
        if (!text::equals_ignoring_case(name, kUploadTicketField))
            head.fields.emplace_back(name, value);
    const std::string& body = request.body();
    serve(head, {body, static_cast<long long>(body.size())}, response.peer());
}

void ApiHandler::serve(const RequestHead& head, RequestBody body,
                       const std::shared_ptr<Pistache::Tcp::Peer>& peer) {
    const auto started = std::chrono::steady_clock::now();
    Exchange exchange;
    exchange.request_id = new_request_id();
    exchange.method = head.method;

    Answer answer(*transport(), peer,
                  head.version == "HTTP/1.0" ? Http::Version::Http10 : Http::Version::Http11,
                  connection_fate(head));
    answer.add_header("X-Request-Id", exchange.request_id);

    int status = 0;
    try {
        check_header_sizes(head);
        Reply reply =
            dashboard::owns(head.path())
                ? dashboard::serve(dashboard_request(head, body, *peer), *services_, exchange.route)
                : dispatch(head, body, *router_, *services_, *uploads_, exchange);
        status = reply.status;
        if (exchange.rate) add_rate_headers(answer, *exchange.rate);
        if (exchange.replayed) answer.add_header("X-Idempotent-Replay", "true");
        send_reply(answer, reply, make_meta(exchange.request_id));
    } catch (...) {
        const ApiError error = to_api_error(std::current_exception(), exchange.request_id);
        status = error.info().http_status;
        if (exchange.rate) add_rate_headers(answer, *exchange.rate);
        if (!exchange.allow.empty()) answer.add_header("Allow", exchange.allow);
        add_error_headers(answer, error);
        // A client that sent an oversized header block is not trusted with another request.
        if (error.code() == ErrorCode::HeadersTooLarge) answer.close_connection();
        try {
            if (!error.info().has_body)
                answer.send(status);
            else
                send_json(answer, status, error_envelope(error, make_meta(exchange.request_id)));
        } catch (const std::exception& e) {
            log::error("could not send the error response",
                       {{"request_id", exchange.request_id}, {"error", e.what()}});
        }
    }

    const auto elapsed = std::chrono::steady_clock::now() - started;
    request_log::Entry entry;
    if (exchange.workspace_id != 0) entry.workspace_id = exchange.workspace_id;
    entry.profile_id = exchange.profile_id;
    entry.key_prefix = exchange.key_prefix;
    entry.request_id = exchange.request_id;
    entry.method = exchange.method;
    entry.route = exchange.route;
    entry.status = status;
    entry.duration_us = std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count();
    entry.created_at = time::now();
    services_->request_log.push(std::move(entry));
    record_request_metrics(exchange, status, std::chrono::duration<double>(elapsed).count());
    // In the order of their names, as a line of log::info with a JSON object would have them.
    log::write_fields(
        log::Level::info, "request",
        {{"duration_ms",
          std::round(std::chrono::duration<double, std::milli>(elapsed).count() * 1000) / 1000},
         {"key_prefix", exchange.key_prefix},
         {"method", exchange.method},
         {"request_id", exchange.request_id},
         {"route", exchange.route},
         {"status", status},
         {"workspace_id", exchange.workspace_id}});
}

}  // namespace squawk::api
