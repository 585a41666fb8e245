#include "common/domain/social/connector.hpp"

#include "common/domain/social/connectors/discord.hpp"
#include "common/domain/social/connectors/telegram.hpp"
#include "common/domain/social/connectors/whatsapp.hpp"

#include <algorithm>
#include <charconv>

namespace squawk::social {
namespace {

// One line per platform; a platform left out of this list cannot be connected.
constexpr ConnectorFactory kFactories[] = {
    telegram::factory(),
    discord::factory(),
    whatsapp::factory(),
};

}  // namespace

std::span<const ConnectorFactory> connector_factories() {
    return kFactories;
}

const ConnectorFactory* find_factory(std::string_view platform) {
    const auto* found =
        std::find_if(std::begin(kFactories), std::end(kFactories),
                     [&](const ConnectorFactory& f) { return f.platform == platform; });
    return found == std::end(kFactories) ? nullptr : found;
}

std::unique_ptr<Connector> make_connector(std::string_view platform,
                                          const config::SocialSettings& settings,
                                          http::Client& http) {
    const auto* factory = find_factory(platform);
    if (!factory) return nullptr;
    const auto configured = settings.platforms.find(std::string(platform));
    const config::PlatformSettings fallback;
    return factory->make(configured == settings.platforms.end() ? fallback : configured->second,
                         http);
}

MessageChange Connector::edit(const Target&, const std::string&, const Message&) {
    return {PlatformFailure{FailureKind::refused,
                            std::string(platform()) + " messages cannot be edited through its API",
                            std::nullopt, 0, ""}};
}

MessageChange Connector::remove(const Target&, const std::string&) {
    return {PlatformFailure{FailureKind::refused,
                            std::string(platform()) + " messages cannot be deleted through its API",
                            std::nullopt, 0, ""}};
}

PlatformFailure transport_failure(const http::Response& response) {
    PlatformFailure f;
    f.http_status = response.status;
    if (response.request_sent) {
        f.kind = FailureKind::unknown_outcome;
        f.reason = response.timed_out
                       ? "no answer before the timeout after the request was sent"
                       : "the connection broke after the request was sent: " + response.error;
    } else {
        f.kind = FailureKind::not_accepted;
        f.reason = "the platform could not be reached: " + response.error;
    }
    return f;
}

http::Response PlatformApi::send(const char* method, const std::string& path,
                                 http::HeaderList headers, const nlohmann::json& body) {
    if (body.is_null()) return send(method, path, std::move(headers), "", "");
    return send(method, path, std::move(headers), "application/json", body.dump());
}

http::Response PlatformApi::send(const char* method, const std::string& path,
                                 http::HeaderList headers, const std::string& content_type,
                                 std::string body) {
    http::Request r;
    r.method = method;
    r.url = base_ + path;
    r.headers = std::move(headers);
    if (!content_type.empty()) r.headers.emplace_back("Content-Type", content_type);
    r.body = std::move(body);
    r.timeout = std::chrono::milliseconds(timeout_);
    return http_.send(std::move(r));
}

FailureKind failure_kind_for_status(long http_status) {
    if (http_status == 429 || http_status >= 500) return FailureKind::not_accepted;
    if (http_status >= 200 && http_status < 300) return FailureKind::unknown_outcome;
    return FailureKind::refused;
}

std::string json_text(const nlohmann::json& object, const char* name) {
    return object.is_object() && object.contains(name) && object[name].is_string()
               ? object[name].get<std::string>()
               : std::string();
}

std::optional<std::chrono::seconds> retry_after_header(const http::Response& response) {
    const auto value = response.header("retry-after");
    if (!value) return std::nullopt;
    long long seconds = 0;
    const char* end = value->data() + value->size();
    if (std::from_chars(value->data(), end, seconds).ptr != end || seconds < 0) return std::nullopt;
    return std::chrono::seconds(seconds);
}

}  // namespace squawk::social
