// Webhook endpoints of the session's workspace: listed, created and edited, paused and resumed,
// tested, their secret rotated (each new secret shown once), deleted; and the workspace's delivery
// log with replays. Everything goes through the WebhookService of /v1/webhooks, so the target
// checks, the active-endpoint limit and the tenancy rules are the API's own.
#include "api/dashboard/page.hpp"
#include "api/dashboard/shown.hpp"
#include "api/server/services.hpp"
#include "common/core/error/api_error.hpp"
#include "common/domain/events/event_catalog.hpp"
#include "common/domain/webhooks/webhook_service.hpp"

#include <algorithm>
#include <charconv>
#include <map>

namespace squawk::api::dashboard {
namespace {

using webhooks::DeliveryStatus;
using webhooks::Endpoint;
using webhooks::EndpointStatus;

constexpr size_t kMaxUrlChars = 2048;  // as POST /v1/webhooks
constexpr int kLogPageSize = 25;
constexpr std::string_view kLogPath = "/dashboard/webhooks/deliveries";

webhooks::WebhookService webhook_service(Visit& visit) {
    return webhooks::WebhookService(visit.services.mysql, visit.services.config,
                                    visit.services.http);
}

std::string webhook_path(const std::string& public_id) {
    return "/dashboard/webhooks/" + http::percent_encode(public_id);
}

// Text a template tests with {{#name}}: absent as null, since the template engine takes an empty
// string for a present value.
nlohmann::json optional_text(const std::string& text) {
    return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
}

ApiError no_webhook() {
    return ApiError(ErrorCode::NotFound, "This workspace has no webhook with this id.");
}

// The workspace's endpoint `id`: another workspace's is as unknown as one that never existed.
Endpoint endpoint_of(Visit& visit, const std::string& id) {
    for (auto& e : webhook_service(visit).list(visit.workspace_id()))
        if (e.public_id == id) return e;
    throw no_webhook();
}

long long positive_id(const std::string& text) {
    long long id = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (ec != std::errc() || end != text.data() + text.size() || id <= 0) return 0;
    return id;
}

nlohmann::json event_choices(const std::vector<std::string>& chosen) {
    nlohmann::json choices = nlohmann::json::array();
    for (const auto name : events::catalog())
        choices.push_back(
            {{"name", std::string(name)},
             {"checked", std::find(chosen.begin(), chosen.end(), name) != chosen.end()}});
    return choices;
}

nlohmann::json endpoint_json(const Endpoint& e) {
    const bool stopped = e.status == EndpointStatus::paused || e.status == EndpointStatus::failing;
    return {{"id", e.public_id},
            {"path", webhook_path(e.public_id)},
            {"url", e.url},
            {"events", joined(e.events)},
            {"status", name_of(e.status)},
            {"failures", e.consecutive_failures},
            {"created_at", shown_time(e.created_at)},
            {"can_pause", e.status == EndpointStatus::active},
            {"can_resume", stopped}};
}

// A create or edit form, checked as the API checks its body; what is wrong goes in `errors`.
struct EndpointForm {
    std::string url;
    std::vector<std::string> events;
    nlohmann::json errors = nlohmann::json::array();
    int status = 422;
};

EndpointForm read_endpoint_form(const Visit& visit) {
    EndpointForm form;
    form.url = visit.field("url");
    if (form.url.empty())
        form.errors.push_back("Enter the URL that receives the events.");
    else if (form.url.size() > kMaxUrlChars)
        form.errors.push_back("The URL is longer than " + std::to_string(kMaxUrlChars) +
                              " characters.");
    for (const auto& [name, value] : visit.form) {
        if (name != "events") continue;
        if (!events::is_known(value))
            form.errors.push_back("Unknown event " + value + ".");
        else if (std::find(form.events.begin(), form.events.end(), value) == form.events.end())
            form.events.push_back(value);
    }
    if (form.events.empty()) form.errors.push_back("Choose at least one event.");
    return form;
}

// The service's refusals that belong on the form they came from: a target it will not send to,
// the active-endpoint limit.
bool shown_on_form(const ApiError& e) {
    return e.code() == ErrorCode::ValidationError || e.code() == ErrorCode::Conflict;
}

// Shows the refusal with the API's own reason.
void refused(EndpointForm& form, const ApiError& e) {
    std::string text = e.what();
    if (const auto fields = e.details().find("fields");
        fields != e.details().end() && fields->is_object())
        for (const auto& reason : *fields)
            if (reason.is_string()) text += " " + reason.get<std::string>() + ".";
    form.errors.push_back(text);
    form.status = e.info().http_status;
}

Reply list_page(Visit& visit, const EndpointForm& form, int status) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& e : webhook_service(visit).list(visit.workspace_id()))
        rows.push_back(endpoint_json(e));
    return html_page(visit, "webhooks", "Webhooks",
                     {{"endpoints", rows},
                      {"has_endpoints", !rows.empty()},
                      {"url", form.url},
                      {"events", event_choices(form.events)},
                      {"errors", form.errors}},
                     status);
}

Reply show_webhooks(Visit& visit) {
    return list_page(visit, EndpointForm{}, 200);
}

Reply secret_page(Visit& visit, const webhooks::EndpointWithSecret& made, bool rotated,
                  int status) {
    nlohmann::json data = {
        {"endpoint", endpoint_json(made.endpoint)}, {"secret", made.secret}, {"rotated", rotated}};
    if (made.previous_secret_expires_at)
        data["previous_expires_at"] = shown_time(*made.previous_secret_expires_at);
    return html_page(visit, "webhook_secret",
                     rotated ? "The webhook's new secret" : "Your new webhook", std::move(data),
                     status);
}

Reply create_webhook(Visit& visit) {
    EndpointForm form = read_endpoint_form(visit);
    if (form.errors.empty()) {
        try {
            return secret_page(
                visit, webhook_service(visit).create(visit.workspace_id(), form.url, form.events),
                false, 201);
        } catch (const ApiError& e) {
            if (!shown_on_form(e)) throw;
            refused(form, e);
        }
    }
    return list_page(visit, form, form.status);
}

// The endpoint's page; `form` holds the edit form's values when it was refused, and `test` the
// outcome of a test just sent.
Reply detail_page(Visit& visit, const Endpoint& e, const EndpointForm* form, nlohmann::json test,
                  int status) {
    nlohmann::json data = {{"endpoint", endpoint_json(e)},
                           {"url", form ? form->url : e.url},
                           {"events", event_choices(form ? form->events : e.events)},
                           {"errors", form ? form->errors : nlohmann::json::array()},
                           {"log_path", std::string(kLogPath) + "?" +
                                            http::form_encode({{"webhook_id", e.public_id}})},
                           {"test", std::move(test)}};
    return html_page(visit, "webhook", "Webhook", std::move(data), status);
}

Reply show_webhook(Visit& visit) {
    return detail_page(visit, endpoint_of(visit, visit.param("webhook_id")), nullptr, nullptr, 200);
}

Reply edit_webhook(Visit& visit) {
    const Endpoint current = endpoint_of(visit, visit.param("webhook_id"));
    EndpointForm form = read_endpoint_form(visit);
    if (form.errors.empty()) {
        webhooks::EndpointChange change;
        // An unchanged URL is not checked again: its host may resolve differently today, and
        // only the events were edited.
        if (form.url != current.url) change.url = form.url;
        change.events = form.events;
        try {
            webhook_service(visit).update(visit.workspace_id(), current.public_id, change);
            return Reply::redirect(webhook_path(current.public_id));
        } catch (const ApiError& e) {
            if (!shown_on_form(e)) throw;
            refused(form, e);
        }
    }
    return detail_page(visit, current, &form, nullptr, form.status);
}

Reply set_status(Visit& visit, EndpointStatus status) {
    const std::string& id = visit.param("webhook_id");
    webhooks::EndpointChange change;
    change.status = status;
    webhook_service(visit).update(visit.workspace_id(), id, change);
    return Reply::redirect(webhook_path(id));
}

Reply pause_webhook(Visit& visit) {
    return set_status(visit, EndpointStatus::paused);
}

Reply resume_webhook(Visit& visit) {
    return set_status(visit, EndpointStatus::active);
}

Reply test_webhook(Visit& visit) {
    const std::string& id = visit.param("webhook_id");
    const auto sent = webhook_service(visit).test(visit.workspace_id(), id);
    nlohmann::json test = {
        {"success", sent.success},
        {"status_code", sent.status_code ? std::to_string(*sent.status_code) : "no answer"},
        {"duration_ms", sent.duration_ms},
        {"error", optional_text(sent.error)},
        {"response_excerpt", optional_text(sent.response_excerpt)},
        {"delivery_path", std::string(kLogPath) + "/" + std::to_string(sent.delivery_id)}};
    return detail_page(visit, endpoint_of(visit, id), nullptr, std::move(test), 200);
}

Reply rotate_secret(Visit& visit) {
    return secret_page(
        visit,
        webhook_service(visit).rotate_secret(visit.workspace_id(), visit.param("webhook_id")), true,
        200);
}

Reply delete_webhook(Visit& visit) {
    webhook_service(visit).remove(visit.workspace_id(), visit.param("webhook_id"));
    return Reply::redirect("/dashboard/webhooks");
}

// What the delivery log shows: a filter and where the page starts.
struct LogView {
    webhooks::LogFilter filter;
    std::optional<long long> before;
    bool single = false;  // one delivery by id: no filter, no pages
};

LogView read_view(Visit& visit, const std::string& webhook_id, const std::string& status,
                  const std::string& before) {
    LogView view;
    if (!webhook_id.empty())
        view.filter.endpoint_public_id = endpoint_of(visit, webhook_id).public_id;
    if (!status.empty()) {
        view.filter.status = parse_name<DeliveryStatus>(status);
        if (!view.filter.status)
            throw validation_error({{"status", "is not a delivery status"}},
                                   "Choose a delivery status from the list.");
    }
    if (!before.empty()) {
        view.before = positive_id(before);
        if (*view.before == 0)
            throw validation_error({{"before", "is not a delivery id"}},
                                   "The page asked for starts at no delivery.");
    }
    return view;
}

// The query of the log with this filter, plus `extra`.
std::string log_query(const webhooks::LogFilter& filter, http::FormFields extra = {}) {
    http::FormFields fields;
    if (!filter.endpoint_public_id.empty())
        fields.emplace_back("webhook_id", filter.endpoint_public_id);
    if (filter.status) fields.emplace_back("status", name_of(*filter.status));
    fields.insert(fields.end(), extra.begin(), extra.end());
    return fields.empty() ? std::string(kLogPath)
                          : std::string(kLogPath) + "?" + http::form_encode(fields);
}

nlohmann::json delivery_json(const webhooks::DeliveryLog& d,
                             const std::map<std::string, std::string>& urls) {
    const auto url = urls.find(d.endpoint_id);
    nlohmann::json attempts = nlohmann::json::array();
    for (const auto& a : d.attempts)
        attempts.push_back(
            {{"attempt", a.attempt},
             {"started_at", shown_time(a.started_at)},
             {"status_code", a.status_code ? std::to_string(*a.status_code) : "no answer"},
             {"duration_ms", a.duration_ms},
             {"error", optional_text(a.error.value_or(""))},
             {"excerpt", optional_text(a.response_excerpt.value_or(""))}});
    return {
        {"delivery_id", d.delivery_id},
        {"path", std::string(kLogPath) + "/" + std::to_string(d.delivery_id)},
        {"endpoint", url == urls.end() ? "a deleted webhook" : url->second},
        {"endpoint_path", optional_text(url == urls.end() ? "" : webhook_path(d.endpoint_id))},
        {"event", d.event},
        {"status", name_of(d.status)},
        {"attempt_count", d.attempt_count},
        {"max_attempts", d.max_attempts},
        {"created_at", shown_time(d.created_at)},
        {"next_attempt_at", optional_text(d.next_attempt_at ? shown_time(*d.next_attempt_at) : "")},
        {"attempts", attempts},
        {"has_attempts", !attempts.empty()},
        // A delivery being sent finishes first; a deleted webhook's is never sent again.
        {"can_replay", d.status != DeliveryStatus::delivering && url != urls.end()}};
}

Reply log_page(Visit& visit, const LogView& view, std::vector<webhooks::DeliveryLog> items,
               const std::string& notice, nlohmann::json errors, int status) {
    const auto endpoints = webhook_service(visit).list(visit.workspace_id());
    std::map<std::string, std::string> urls;
    nlohmann::json choices = nlohmann::json::array();
    for (const auto& e : endpoints) {
        urls[e.public_id] = e.url;
        choices.push_back({{"id", e.public_id},
                           {"url", e.url},
                           {"selected", e.public_id == view.filter.endpoint_public_id}});
    }
    nlohmann::json statuses = nlohmann::json::array();
    for (const char* name : wire_names(DeliveryStatus{}))
        statuses.push_back({{"name", name},
                            {"selected", view.filter.status &&
                                             name_of(*view.filter.status) == std::string(name)}});
    const bool more = items.size() > static_cast<size_t>(kLogPageSize);
    if (more) items.resize(kLogPageSize);
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& d : items) rows.push_back(delivery_json(d, urls));
    nlohmann::json data = {
        {"deliveries", rows},
        {"has_deliveries", !rows.empty()},
        {"single", view.single},
        {"endpoints", choices},
        {"has_endpoints", !choices.empty()},
        {"statuses", statuses},
        {"filter_webhook_id", view.filter.endpoint_public_id},
        {"filter_status", view.filter.status ? name_of(*view.filter.status) : ""},
        {"since", time::format_iso8601(time::now() - std::chrono::hours(24)).substr(0, 16)},
        {"notice", optional_text(notice)},
        {"errors", std::move(errors)},
        {"older_path",
         optional_text(
             more ? log_query(view.filter, {{"before", std::to_string(items.back().delivery_id)}})
                  : "")},
        {"newest_path", optional_text(view.before ? log_query(view.filter) : "")}};
    return html_page(visit, "webhook_deliveries",
                     view.single ? "Webhook delivery" : "Webhook deliveries", std::move(data),
                     status);
}

std::vector<webhooks::DeliveryLog> read_page(Visit& visit, const LogView& view) {
    return webhook_service(visit).logs_before(visit.workspace_id(), view.filter, view.before,
                                              kLogPageSize + 1);
}

Reply show_deliveries(Visit& visit) {
    const LogView view = read_view(visit, visit.query_value("webhook_id"),
                                   visit.query_value("status"), visit.query_value("before"));
    return log_page(visit, view, read_page(visit, view), "", nlohmann::json::array(), 200);
}

Reply show_delivery(Visit& visit) {
    const long long id = positive_id(visit.param("delivery_id"));
    if (id == 0) throw ApiError(ErrorCode::NotFound, "No delivery with this id.");
    LogView view;
    view.single = true;
    return log_page(visit, view, {webhook_service(visit).delivery(visit.workspace_id(), id)}, "",
                    nlohmann::json::array(), 200);
}

// The replay forms carry the log's filter so the answer shows the same view.
LogView posted_view(Visit& visit) {
    return read_view(visit, visit.field("webhook_id"), visit.field("status"), "");
}

Reply replay_delivery(Visit& visit) {
    const long long id = positive_id(visit.param("delivery_id"));
    if (id == 0) throw ApiError(ErrorCode::NotFound, "No delivery with this id.");
    const LogView view = posted_view(visit);
    const auto replayed = webhook_service(visit).replay(visit.workspace_id(), id);
    const std::string notice =
        replayed.status == DeliveryStatus::held
            ? "Delivery " + std::to_string(id) + " waits until its webhook is resumed."
            : "Delivery " + std::to_string(id) + " will be sent again.";
    return log_page(visit, view, read_page(visit, view), notice, nlohmann::json::array(), 200);
}

// A datetime-local field ("2026-11-26T14:30", seconds optional) read as UTC, or an ISO 8601
// instant with its offset.
std::optional<time::TimePoint> read_since(const std::string& text) {
    if (auto t = time::parse_iso8601(text)) return t;
    if (text.size() == 16) return time::parse_iso8601(text + ":00Z");
    return time::parse_iso8601(text + "Z");
}

Reply replay_dead_letters(Visit& visit) {
    LogView view;
    view.filter.endpoint_public_id = endpoint_of(visit, visit.field("webhook_id")).public_id;
    const std::string since_text = visit.field("since");
    const auto since = read_since(since_text);
    if (!since)
        return log_page(visit, view, read_page(visit, view), "",
                        nlohmann::json::array(
                            {"Give the time from which to replay, as a date and time in UTC."}),
                        422);
    const auto ids = webhook_service(visit).replay_dead_letters(
        visit.workspace_id(), view.filter.endpoint_public_id, *since);
    const std::string notice =
        ids.empty() ? "No dead letters of this webhook since " + shown_time(*since) + "."
                    : std::to_string(ids.size()) + " dead letter" + (ids.size() == 1 ? "" : "s") +
                          " since " + shown_time(*since) + " will be sent again.";
    return log_page(visit, view, read_page(visit, view), notice, nlohmann::json::array(), 200);
}

// Literal paths before the {webhook_id} ones: the first row that matches answers.
const Page kWebhookPages[] = {
    {"GET", "/dashboard/webhooks", Gate::workspace_member, show_webhooks},
    {"POST", "/dashboard/webhooks", Gate::workspace_writer, create_webhook},
    {"GET", "/dashboard/webhooks/deliveries", Gate::workspace_member, show_deliveries},
    {"POST", "/dashboard/webhooks/deliveries/replay-dead-letters", Gate::workspace_writer,
     replay_dead_letters},
    {"GET", "/dashboard/webhooks/deliveries/{delivery_id}", Gate::workspace_member, show_delivery},
    {"POST", "/dashboard/webhooks/deliveries/{delivery_id}/replay", Gate::workspace_writer,
     replay_delivery},
    {"GET", "/dashboard/webhooks/{webhook_id}", Gate::workspace_member, show_webhook},
    {"POST", "/dashboard/webhooks/{webhook_id}", Gate::workspace_writer, edit_webhook},
    {"POST", "/dashboard/webhooks/{webhook_id}/pause", Gate::workspace_writer, pause_webhook},
    {"POST", "/dashboard/webhooks/{webhook_id}/resume", Gate::workspace_writer, resume_webhook},
    {"POST", "/dashboard/webhooks/{webhook_id}/test", Gate::workspace_writer, test_webhook},
    {"POST", "/dashboard/webhooks/{webhook_id}/rotate-secret", Gate::workspace_writer,
     rotate_secret},
    {"POST", "/dashboard/webhooks/{webhook_id}/delete", Gate::workspace_writer, delete_webhook},
};

}  // namespace

std::span<const Page> webhook_pages() {
    return kWebhookPages;
}

}  // namespace squawk::api::dashboard
