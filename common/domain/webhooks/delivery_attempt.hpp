// One delivery attempt, shared by the delivery workers and the synchronous test call: check the
// target again, sign the unchanged body with every valid secret, and judge the receiver's answer.
#pragma once

#include "common/core/http/http_client.hpp"
#include "common/core/net/target_url.hpp"
#include "common/domain/webhooks/delivery.hpp"
#include "common/domain/webhooks/secret_cache.hpp"
#include "common/domain/webhooks/webhook_settings.hpp"

#include <optional>
#include <string>
#include <vector>

namespace squawk::webhooks {

// The signing secrets in force now: the current one, and the previous one during its grace.
std::vector<std::string> valid_secrets(const ClaimedDelivery& d, SecretCache& secrets,
                                       time::TimePoint now);

// The POST to send to the checked address (the address is pinned; redirects are not followed).
http::Request build_request(const ClaimedDelivery& d, const net::CheckedTarget& target,
                            const std::vector<std::string>& secrets,
                            const config::WebhookSettings& settings);

// The next state after an attempt that got `response`, or was refused before sending
// (`refusal`: the target check failed).
DeliveryResult judge(const ClaimedDelivery& d, time::TimePoint started,
                     const std::optional<http::Response>& response, const std::string& refusal,
                     const config::WebhookSettings& settings);

// A run that sent nothing because the endpoint is not active: held (or failed when deleted).
DeliveryResult not_sent(const ClaimedDelivery& d);

// Seconds from a Retry-After header (delta seconds or an HTTP date), if it parses.
std::optional<long long> parse_retry_after(const std::string& value, time::TimePoint now);

}  // namespace squawk::webhooks
