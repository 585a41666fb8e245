// Operator pages: the queues, workers (the worker registry) and job counts that `squawkctl stats`
// and /metrics read, refreshed in place by ops.js from stats.json, and the dead letters of every
// workspace (jobs through JobAdmin like `squawkctl dead-letters list` / `jobs retry`, webhook
// deliveries through WebhookService::replay in their own workspace), retried or discarded one by
// one or by filter.
#include "api/dashboard/page.hpp"
#include "api/server/services.hpp"
#include "common/core/daemon/worker_settings.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/log/logger.hpp"
#include "common/core/queue/job_queue.hpp"
#include "common/core/queue/worker_registry.hpp"
#include "common/domain/events/event_catalog.hpp"
#include "common/domain/jobs/job_admin.hpp"
#include "common/domain/jobs/job_types.hpp"
#include "common/domain/webhooks/dead_delivery_admin.hpp"
#include "common/domain/webhooks/webhook_service.hpp"

#include <charconv>

namespace squawk::api::dashboard {
namespace {

// A listing shows the newest kListLimit; one "retry all" queues at most kRetryBatch, so a flood
// of dead letters is requeued a press at a time rather than all in one request.
constexpr int kListLimit = 100;
constexpr int kRetryBatch = 500;

// The figures of `squawkctl stats --json` (same keys, workers included), plus what waits in the
// delayed sets and the dead-lettered deliveries.
nlohmann::json collect_stats(Services& services) {
    nlohmann::json stats = {{"generated_at", time::format_iso8601(time::now())},
                            {"queues", nlohmann::json::object()},
                            {"jobs", nlohmann::json::object()}};
    long long delayed = 0;
    services.redis.run([&](redis::RedisClient& r) {
        queue::JobQueue queue(r);
        for (const char* pool : config::kPoolNames) {
            const auto d = queue.depth(pool);
            stats["queues"][pool] = {{"ready", d.ready},
                                     {"pending", d.pending},
                                     {"delayed", d.delayed},
                                     {"oldest_ready_age_ms", d.oldest_ready_age_ms}};
            if (config::queued_in_redis(pool)) {
                stats["queues"][pool]["added"] = d.added;
                stats["queues"][pool]["finished"] = d.finished;
            }
            delayed += d.delayed;
        }
        stats["workers"] = queue::to_json(queue::WorkerRegistry(r).alive());
    });
    for (const auto* status : wire_names(jobs::JobStatus{})) stats["jobs"][status] = 0;
    services.mysql.run([&](db::Session& s) {
        for (const auto& [status, count] : jobs::JobRepository::count_by_status(s))
            stats["jobs"][name_of(status)] = count;
        stats["dead_letters"] = jobs::JobRepository::count_dead_letters(s);
        stats["dead_deliveries"] = webhooks::DeadDeliveryAdmin::count(s);
    });
    stats["delayed"] = delayed;
    return stats;
}

// "generate 2 × 16, publish 1 × 8": each pool with its threads and fibers per thread.
std::string pool_sizes(const nlohmann::json& pools) {
    std::string out;
    for (const auto& p : pools)
        out += (out.empty() ? "" : ", ") + p["name"].get<std::string>() + " " +
               std::to_string(p["threads"].get<int>()) + " × " +
               std::to_string(p["fibers"].get<int>());
    return out;
}

Reply show_ops(Visit& visit) {
    const auto stats = collect_stats(visit.services);
    nlohmann::json queues = nlohmann::json::array();
    for (const auto& [pool, d] : stats["queues"].items())
        queues.push_back({{"pool", pool},
                          {"ready", d["ready"]},
                          {"pending", d["pending"]},
                          {"delayed", d["delayed"]},
                          {"oldest_s", d["oldest_ready_age_ms"].get<long long>() / 1000},
                          {"counted", d.contains("added")},
                          {"added", d.value("added", 0LL)},
                          {"finished", d.value("finished", 0LL)}});
    nlohmann::json job_rows = nlohmann::json::array();
    for (const auto& [status, count] : stats["jobs"].items())
        job_rows.push_back({{"status", status}, {"count", count}});
    nlohmann::json workers = nlohmann::json::array();
    for (const auto& w : stats["workers"])
        workers.push_back({{"id", w["id"]},
                           {"host", w["host"]},
                           {"pid", w["pid"]},
                           {"pools", pool_sizes(w["pools"])},
                           {"in_flight", w["in_flight"]},
                           {"started_at", w["started_at"]}});
    return html_page(visit, "ops", "Operations",
                     {{"generated_at", stats["generated_at"]},
                      {"queues", queues},
                      {"job_rows", job_rows},
                      {"workers", workers},
                      {"has_workers", !workers.empty()},
                      {"delayed", stats["delayed"]},
                      {"retrying", stats["jobs"]["retrying"]},
                      {"dead_letters", stats["dead_letters"]},
                      {"dead_deliveries", stats["dead_deliveries"]}});
}

Reply stats_json(Visit& visit) {
    Reply reply;
    reply.raw = RawBody{collect_stats(visit.services).dump(), "application/json"};
    reply.headers.emplace_back("Cache-Control", "no-store");
    return reply;
}

// The listing's filter, read from the query (GET) or the form (POST); `problems` names each
// value that is not one.
struct DeadLetterFilter {
    std::string kind = "jobs";  // jobs or deliveries
    std::string type;           // a job type, or an event name for deliveries
    std::string workspace;
    std::optional<long long> workspace_id;
    std::vector<std::string> problems;
};

std::optional<long long> positive_number(const std::string& text) {
    long long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < 1) return std::nullopt;
    return value;
}

DeadLetterFilter read_filter(const std::string& kind, std::string type, std::string workspace) {
    DeadLetterFilter f;
    if (!kind.empty()) f.kind = kind;
    f.type = std::move(type);
    f.workspace = std::move(workspace);
    if (f.kind != "jobs" && f.kind != "deliveries") {
        f.problems.push_back("Choose jobs or webhook deliveries.");
        f.kind = "jobs";
    }
    if (!f.type.empty()) {
        const bool known =
            f.kind == "jobs" ? jobs::find_job_type(f.type).has_value() : events::is_known(f.type);
        if (!known)
            f.problems.push_back(
                (f.kind == "jobs" ? "There is no job type " : "There is no event ") + f.type + ".");
    }
    if (!f.workspace.empty()) {
        f.workspace_id = positive_number(f.workspace);
        if (!f.workspace_id) f.problems.push_back("A workspace is a number, from 1.");
    }
    return f;
}

DeadLetterFilter filter_of_query(const Visit& visit) {
    return read_filter(visit.query_value("kind"), visit.query_value("type"),
                       visit.query_value("workspace"));
}

DeadLetterFilter filter_of_form(const Visit& visit) {
    return read_filter(visit.field("kind"), visit.field("type"), visit.field("workspace"));
}

jobs::JobFilter job_filter(const DeadLetterFilter& f, int limit) {
    jobs::JobFilter filter;
    filter.status = jobs::JobStatus::failed;
    filter.dead_lettered_only = true;
    filter.workspace_id = f.workspace_id;
    if (!f.type.empty()) filter.type = f.type;
    filter.limit = limit;
    return filter;
}

webhooks::DeadDeliveryFilter delivery_filter(const DeadLetterFilter& f, int limit) {
    webhooks::DeadDeliveryFilter filter;
    filter.workspace_id = f.workspace_id;
    if (!f.type.empty()) filter.event_name = f.type;
    filter.limit = limit;
    return filter;
}

std::string minute(time::TimePoint t) {
    return time::format_iso8601(t).substr(0, 16);
}

nlohmann::json letter_rows(Visit& visit, const DeadLetterFilter& f) {
    nlohmann::json rows = nlohmann::json::array();
    visit.services.mysql.run([&](db::Session& s) {
        if (f.kind == "jobs") {
            for (const auto& j : jobs::JobAdmin::list(s, job_filter(f, kListLimit)))
                rows.push_back(
                    {{"id", j.public_id},
                     {"workspace_id", j.workspace_id},
                     {"what", j.type},
                     {"attempts",
                      std::to_string(j.attempts) + "/" + std::to_string(j.max_attempts)},
                     {"error", j.error_code.empty() ? j.error_message
                                                    : j.error_code + ": " + j.error_message},
                     {"failed_at", minute(j.updated_at)}});
            return;
        }
        for (const auto& d : webhooks::DeadDeliveryAdmin::list(s, delivery_filter(f, kListLimit))) {
            std::string error = d.last_error;
            if (d.last_status_code)
                error = "HTTP " + std::to_string(*d.last_status_code) +
                        (error.empty() ? "" : ": " + error);
            rows.push_back({{"id", std::to_string(d.id)},
                            {"workspace_id", d.workspace_id},
                            {"what", d.event_name + " to " + d.endpoint_id},
                            {"attempts", std::to_string(d.attempts)},
                            {"error", error},
                            {"failed_at", minute(d.updated_at)}});
        }
    });
    return rows;
}

Reply letters_page(Visit& visit, const DeadLetterFilter& f, std::string notice, int status) {
    nlohmann::json errors = nlohmann::json::array();
    for (const auto& p : f.problems) errors.push_back(p);
    // A filter that is not one lists nothing rather than everything.
    const auto rows = f.problems.empty() ? letter_rows(visit, f) : nlohmann::json::array();
    return html_page(visit, "ops_dead_letters", "Dead letters",
                     {{"kind", f.kind},
                      {"jobs_kind", f.kind == "jobs"},
                      {"type", f.type},
                      {"workspace", f.workspace},
                      {"letters", rows},
                      {"has_letters", !rows.empty()},
                      {"notice", std::move(notice)},
                      {"errors", std::move(errors)}},
                     status);
}

Reply show_letters(Visit& visit) {
    const auto f = filter_of_query(visit);
    return letters_page(visit, f, {}, f.problems.empty() ? 200 : 422);
}

// Puts the job back on its pool's queue; MySQL already says queued, so a Redis outage only
// delays it until the scheduler's reconciler enqueues it.
void enqueue(Services& services, const jobs::QueueRef& ref) {
    try {
        services.redis.run(
            [&](redis::RedisClient& r) { queue::JobQueue(r).enqueue(ref.pool, {ref.id}); });
    } catch (const redis::RedisUnavailable& e) {
        log::warn("dead letter requeued, Redis refused it; the scheduler will enqueue it",
                  {{"job_id", ref.id}, {"error", e.what()}});
    }
}

bool retry_job(Services& services, const std::string& public_id) {
    const auto ref = services.mysql.transaction(
        [&](db::Session& s) { return jobs::JobAdmin::requeue_dead_letter(s, public_id); });
    if (ref) enqueue(services, *ref);
    return ref.has_value();
}

// WebhookService::replay's refusals (in flight, endpoint deleted) are the API's own errors.
void retry_delivery(Services& services, long long id) {
    const auto workspace = services.mysql.run(
        [&](db::Session& s) { return webhooks::DeadDeliveryAdmin::workspace_of(s, id); });
    if (!workspace) throw ApiError(ErrorCode::NotFound, "No dead-lettered delivery has this id.");
    webhooks::WebhookService(services.mysql, services.config, services.http).replay(*workspace, id);
}

long long delivery_id(const std::string& text) {
    const auto id = positive_number(text);
    if (!id) throw ApiError(ErrorCode::NotFound, "No dead-lettered delivery has this id.");
    return *id;
}

// The form's filter; a POST with a filter that is not one writes nothing.
std::optional<Reply> refused(Visit& visit, const DeadLetterFilter& f) {
    if (f.problems.empty()) return std::nullopt;
    return letters_page(visit, f, {}, 422);
}

Reply retry_one(Visit& visit) {
    const auto f = filter_of_form(visit);
    if (auto reply = refused(visit, f)) return std::move(*reply);
    const std::string id = visit.field("id");
    if (f.kind == "jobs") {
        if (!retry_job(visit.services, id))
            throw ApiError(ErrorCode::NotFound, "No dead-lettered job has this id.");
    } else {
        retry_delivery(visit.services, delivery_id(id));
    }
    return letters_page(visit, f, "Queued " + id + " again.", 200);
}

Reply retry_all(Visit& visit) {
    const auto f = filter_of_form(visit);
    if (auto reply = refused(visit, f)) return std::move(*reply);
    long long retried = 0;
    if (f.kind == "jobs") {
        const auto found = visit.services.mysql.run(
            [&](db::Session& s) { return jobs::JobAdmin::list(s, job_filter(f, kRetryBatch)); });
        for (const auto& j : found)
            if (retry_job(visit.services, j.public_id)) ++retried;
    } else {
        const auto found = visit.services.mysql.run([&](db::Session& s) {
            return webhooks::DeadDeliveryAdmin::list(s, delivery_filter(f, kRetryBatch));
        });
        for (const auto& d : found) {
            // One refused (its endpoint deleted meanwhile) must not stop the others.
            try {
                retry_delivery(visit.services, d.id);
                ++retried;
            } catch (const ApiError& e) {
                log::info("dead delivery not retried", {{"delivery_id", d.id}, {"why", e.what()}});
            }
        }
    }
    return letters_page(visit, f,
                        "Queued " + std::to_string(retried) + " " +
                            (f.kind == "jobs" ? "jobs" : "deliveries") + " again.",
                        200);
}

Reply discard_one(Visit& visit) {
    const auto f = filter_of_form(visit);
    if (auto reply = refused(visit, f)) return std::move(*reply);
    const std::string id = visit.field("id");
    const bool discarded = visit.services.mysql.transaction([&](db::Session& s) {
        return f.kind == "jobs" ? jobs::JobAdmin::discard_dead_letter(s, id)
                                : webhooks::DeadDeliveryAdmin::discard(s, delivery_id(id));
    });
    if (!discarded) throw ApiError(ErrorCode::NotFound, "There is no dead letter with this id.");
    return letters_page(visit, f, "Deleted " + id + " from the dead letters.", 200);
}

const Page kOpsPages[] = {
    {"GET", "/dashboard/ops", Gate::operator_only, show_ops},
    {"GET", "/dashboard/ops/stats.json", Gate::operator_only, stats_json},
    {"GET", "/dashboard/ops/dead-letters", Gate::operator_only, show_letters},
    {"POST", "/dashboard/ops/dead-letters/retry", Gate::operator_only, retry_one},
    {"POST", "/dashboard/ops/dead-letters/retry-all", Gate::operator_only, retry_all},
    {"POST", "/dashboard/ops/dead-letters/delete", Gate::operator_only, discard_one},
};

}  // namespace

std::span<const Page> ops_pages() {
    return kOpsPages;
}

}  // namespace squawk::api::dashboard
