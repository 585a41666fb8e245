// Every event name a webhook may subscribe to (spec 6.5 plus job events). The OpenAPI document's
// `webhooks` object describes each payload; a test keeps the two in step.
#pragma once

#include <span>
#include <string_view>

namespace squawk::events {

std::span<const std::string_view> catalog();
bool is_known(std::string_view name);

inline constexpr std::string_view kJobCompleted = "job.completed";
inline constexpr std::string_view kJobFailed = "job.failed";
inline constexpr std::string_view kWebhookTest = "webhook.test";

}  // namespace squawk::events
