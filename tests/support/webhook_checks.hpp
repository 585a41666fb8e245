// What the webhook end-to-end tests do again and again: register endpoints through the API, raise
// events through the real outbox, and wait for deliveries to reach a state.
#pragma once

#include "common/domain/profiles/profile_repository.hpp"
#include "tests/support/stack.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>

namespace squawk::testing {

// StackOptions running the webhooks pool (and `extra_pools`) with a small time_scale.
StackOptions webhook_stack_options(double time_scale = 0.002, const std::string& extra_pools = "");

// POST /v1/webhooks; checks the 201 and returns `data` (with the one-time `secret`).
nlohmann::json create_webhook(Stack& stack, const std::string& key, const std::string& url,
                              const nlohmann::json& events);

// events::emit in its own transaction, as a feature would; returns the event id. Throws when no
// endpoint subscribes (then nothing was written).
std::string emit_event(Stack& stack, long long workspace_id, const std::string& name,
                       const nlohmann::json& data);

// A profile of `owner`, made by the same repository POST /profiles uses.
profiles::Profile create_profile(Stack& stack, long long owner);

// Deliveries of the event (by public id) in `status`.
long long deliveries_in(Stack& stack, const std::string& event_id, const std::string& status);

// The delivery of `event_id` to the endpoint `webhook_id`, as GET /webhooks/logs shows it.
nlohmann::json delivery_log(Stack& stack, const std::string& key, const std::string& event_id,
                            const std::string& webhook_id);

}  // namespace squawk::testing
