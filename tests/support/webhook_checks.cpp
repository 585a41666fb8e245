#include "tests/support/webhook_checks.hpp"

#include "common/core/db/sql_text.hpp"
#include "common/domain/events/event_outbox.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/fake_receiver.hpp"

#include <catch2/catch.hpp>

namespace squawk::testing {

StackOptions webhook_stack_options(double time_scale, const std::string& extra_pools) {
    StackOptions options;
    options.time_scale = time_scale;
    options.worker_arguments = {
        "--pools", extra_pools.empty() ? "webhooks" : "webhooks," + extra_pools, "--fibers", "32"};
    options.extra_config = webhook_config();
    return options;
}

nlohmann::json create_webhook(Stack& stack, const std::string& key, const std::string& url,
                              const nlohmann::json& events) {
    const auto r = stack.request("POST", "/v1/webhooks", {{"url", url}, {"events", events}}, key);
    INFO(r.body);
    check_success_envelope(r, 201);
    return r.json["data"];
}

std::string emit_event(Stack& stack, long long workspace_id, const std::string& name,
                       const nlohmann::json& data) {
    const auto id = stack.db().transaction(
        [&](db::Session& s) { return events::emit(s, workspace_id, name, data); });
    if (!id) throw std::runtime_error("no endpoint of the workspace subscribes to " + name);
    return *id;
}

profiles::Profile create_profile(Stack& stack, long long owner) {
    return stack.db().transaction([&](db::Session& s) {
        return profiles::ProfileRepository::create(s, owner, "profile", std::nullopt);
    });
}

long long deliveries_in(Stack& stack, const std::string& event_id, const std::string& status) {
    return stack.count(
        "SELECT COUNT(*) FROM webhook_deliveries d JOIN events e ON e.id = d.event_id"
        " WHERE e.public_id = ? AND d.status = ?",
        {event_id, status});
}

nlohmann::json delivery_log(Stack& stack, const std::string& key, const std::string& event_id,
                            const std::string& webhook_id) {
    const auto r = stack.request("GET", "/v1/webhooks/logs?per_page=100&webhook_id=" + webhook_id,
                                 nullptr, key);
    check_success_envelope(r, 200);
    for (const auto& d : r.json["data"])
        if (d["event_id"] == event_id) return d;
    return nullptr;
}

}  // namespace squawk::testing
