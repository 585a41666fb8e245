#include "common/domain/webhooks/delivery_attempt.hpp"

#include "common/core/retry/backoff.hpp"
#include "common/domain/webhooks/signature.hpp"

#include <algorithm>
#include <ctime>
#include <stdexcept>

namespace squawk::webhooks {
namespace {

using std::chrono::microseconds;

bool is_success(long status) {
    return status >= 200 && status < 300;
}

std::string printable_excerpt(const std::string& body, size_t limit) {
    std::string out = body.substr(0, std::min(limit, body.size()));
    // Whole UTF-8 sequences only, so the column never holds a broken character.
    while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
    if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0) out.pop_back();
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') c = ' ';
    return out;
}

}  // namespace

std::vector<std::string> valid_secrets(const ClaimedDelivery& d, SecretCache& secrets,
                                       time::TimePoint now) {
    std::vector<std::string> out{secrets.open(d.secret_sealed)};
    if (d.previous_secret_sealed && d.previous_secret_expires_at &&
        *d.previous_secret_expires_at > now)
        out.push_back(secrets.open(*d.previous_secret_sealed));
    return out;
}

http::Request build_request(const ClaimedDelivery& d, const net::CheckedTarget& target,
                            const std::vector<std::string>& secrets,
                            const config::WebhookSettings& settings) {
    http::Request r;
    r.method = "POST";
    r.url = d.url;
    r.body = d.body;
    r.timeout = std::chrono::milliseconds(settings.timeout_ms);
    r.connect_to = target.connect_to();
    r.max_response_bytes = static_cast<size_t>(settings.response_bytes_kept);
    const long long t =
        std::chrono::duration_cast<std::chrono::seconds>(time::now().time_since_epoch()).count();
    r.headers = {{"Content-Type", "application/json"},
                 {"User-Agent", "Squawk-Webhooks/1"},
                 {"X-Service-Event-Id", d.event_public_id},
                 {"X-Service-Event", d.event_name},
                 {"X-Service-Delivery-Id", std::to_string(d.id)},
                 {"X-Service-Delivery-Attempt", std::to_string(d.attempts)},
                 {"X-Service-Signature", signature_header(secrets, t, d.body)}};
    return r;
}

std::optional<long long> parse_retry_after(const std::string& value, time::TimePoint now) {
    if (value.empty()) return std::nullopt;
    if (std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        if (value.size() > 9) return 999999999;
        return std::stoll(value);
    }
    std::tm tm{};
    if (!strptime(value.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm)) return std::nullopt;
    const auto at = std::chrono::system_clock::from_time_t(timegm(&tm));
    const auto delta = std::chrono::duration_cast<std::chrono::seconds>(at - now).count();
    return std::max<long long>(0, delta);
}

DeliveryResult judge(const ClaimedDelivery& d, time::TimePoint started,
                     const std::optional<http::Response>& response, const std::string& refusal,
                     const config::WebhookSettings& settings) {
    DeliveryResult out;
    out.delivery_id = d.id;
    out.claim_token = d.claim_token;
    out.endpoint_id = d.endpoint_id;
    AttemptRecord a;
    a.delivery_id = d.id;
    a.attempt = d.attempts;
    a.started_at = started;
    const auto now = time::now();
    if (response) {
        a.duration_ms = static_cast<int>(response->duration.count() / 1000);
        if (response->status > 0) a.status_code = response->status;
        a.error = response->error;
        if (response->status > 0 && !is_success(response->status) && a.error.empty())
            a.error = "the receiver answered HTTP " + std::to_string(response->status);
        a.response_excerpt =
            printable_excerpt(response->body, static_cast<size_t>(settings.response_bytes_kept));
    } else {
        a.error = "target refused: " + refusal;
    }
    const bool ok = response && is_success(response->status);
    out.attempt = std::move(a);
    out.next_attempt_at = now;
    if (ok) {
        out.status = DeliveryStatus::delivered;
        out.effect = DeliveryResult::EndpointEffect::success;
        return out;
    }
    out.effect = d.event_name == "webhook.test" ? DeliveryResult::EndpointEffect::none
                                                : DeliveryResult::EndpointEffect::failure;
    if (d.event_name == "webhook.test") {
        out.status = DeliveryStatus::failed;
        return out;
    }
    if (d.attempts >= d.max_attempts) {
        out.status = DeliveryStatus::dead_letter;
        return out;
    }
    out.status = DeliveryStatus::retrying;
    std::optional<microseconds> wait;
    if (response && response->status == 429)
        if (auto header = response->header("retry-after"))
            if (auto seconds = parse_retry_after(*header, now)) {
                const auto cap =
                    time::scaled(std::chrono::seconds(settings.retry_after_cap_seconds));
                wait = std::min<microseconds>(std::chrono::seconds(*seconds), cap);
            }
    if (!wait)
        wait = time::scaled(
            retry::doubling_backoff(retry::Seconds(settings.backoff_base_seconds), d.attempts));
    out.next_attempt_at = now + *wait;
    return out;
}

DeliveryResult not_sent(const ClaimedDelivery& d) {
    DeliveryResult out;
    out.delivery_id = d.id;
    out.claim_token = d.claim_token;
    out.endpoint_id = d.endpoint_id;
    out.status = d.endpoint_status == EndpointStatus::deleted ? DeliveryStatus::failed
                                                              : DeliveryStatus::held;
    out.next_attempt_at = time::now();
    return out;
}

}  // namespace squawk::webhooks
