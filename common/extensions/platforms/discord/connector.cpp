#include "common/extensions/platforms/discord/connector.hpp"

#include "common/domain/social/platform_api.hpp"
#include "common/extensions/platforms/discord/factory.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace squawk::social::discord {
namespace {

using nlohmann::json;

bool is_token_text(std::string_view text) {
    return !text.empty() && text.size() <= 200 && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
    });
}

// Discord answers the object or list asked for, or {message, code, retry_after}.
constexpr AnswerShape kAnswers{
    .speaker = "Discord",
    .accepted =
        [](long status, const json& body) {
            return status >= 200 && status < 300 && (body.is_object() || body.is_array());
        },
    .reason = [](const json& body) { return json_text(body, "message"); },
    // The body's retry_after is in seconds with a fraction; the header in whole seconds.
    .retry_after = [](const json& body) -> std::optional<std::chrono::seconds> {
        if (body.is_object() && body.contains("retry_after") && body["retry_after"].is_number())
            return std::chrono::seconds(
                static_cast<long long>(std::ceil(body["retry_after"].get<double>())));
        return std::nullopt;
    },
};

Answer read(const http::Response& response) {
    return read_answer(response, kAnswers);
}

class DiscordConnector final : public Connector {
  public:
    DiscordConnector(const config::PlatformSettings& settings, http::Client& http)
        : Connector(kFactory), api_(settings, http) {}

    std::vector<FieldProblem> check(Credentials& credentials) const override {
        std::vector<FieldProblem> problems;
        const bool has_webhook = !credentials["webhook_url"].empty();
        const bool has_bot =
            !credentials["bot_token"].empty() || !credentials["channel_id"].empty();
        if (has_webhook && has_bot) {
            problems.push_back(
                {"webhook_url", "give either webhook_url or bot_token with channel_id, not both"});
            return problems;
        }
        if (has_webhook) {
            if (!parse_webhook_url(credentials["webhook_url"]))
                problems.push_back({"webhook_url",
                                    "must be a Discord webhook URL "
                                    "(https://discord.com/api/webhooks/<id>/<token>)"});
            return problems;
        }
        if (!has_bot) {
            problems.push_back(
                {"webhook_url", "is required unless bot_token and channel_id are given"});
            return problems;
        }
        if (!is_token_text(credentials["bot_token"]))
            problems.push_back({"bot_token", credentials["bot_token"].empty()
                                                 ? "is required with channel_id"
                                                 : "is not a Discord bot token"});
        if (!is_snowflake(credentials["channel_id"]))
            problems.push_back({"channel_id", credentials["channel_id"].empty()
                                                  ? "is required with bot_token"
                                                  : "must be a Discord id of 17 to 20 digits"});
        return problems;
    }

    Verification verify(const Credentials& credentials) override {
        Verification v;
        const auto webhook = webhook_of(credentials);
        Answer answer =
            webhook
                ? read(call("GET", "/webhooks/" + webhook->id + "/" + webhook->token, "", json()))
                : read(call("GET", "/channels/" + credentials.at("channel_id"),
                            credentials.at("bot_token"), json()));
        if (answer.failure) {
            v.failure = std::move(answer.failure);
            v.failure->field = webhook                         ? "webhook_url"
                               : v.failure->http_status == 401 ? "bot_token"
                                                               : "channel_id";
            return v;
        }
        Identity identity;
        identity.handle = json_text(answer.body, "guild_id");
        if (webhook) {
            identity.external_id = json_text(answer.body, "channel_id");
            identity.display_name = json_text(answer.body, "name");
        } else {
            identity.external_id = json_text(answer.body, "id");
            identity.display_name = "#" + json_text(answer.body, "name");
        }
        if (identity.external_id.empty()) {
            v.failure =
                PlatformFailure{FailureKind::not_accepted, "Discord's answer names no channel",
                                std::nullopt, 200, webhook ? "webhook_url" : "channel_id"};
            return v;
        }
        v.identity = std::move(identity);
        return v;
    }

    Publication publish(const Target& target, const Message& message) override {
        json body{{"content", message.text}};
        if (!message.image_urls.empty()) {
            json embeds = json::array();
            for (const auto& url : message.image_urls)
                embeds.push_back({{"image", {{"url", url}}}});
            body["embeds"] = std::move(embeds);
        }
        const auto webhook = webhook_of(target.credentials);
        // Bot channel messages take a nonce: with enforce_nonce Discord answers a repeat within
        // minutes with the message it already created.
        if (!webhook && !message.idempotency_key.empty()) {
            body["nonce"] = message.idempotency_key;
            body["enforce_nonce"] = true;
        }
        // wait=true makes Discord answer with the created message instead of 204.
        Answer answer =
            webhook ? read(call("POST",
                                "/webhooks/" + webhook->id + "/" + webhook->token + "?wait=true",
                                "", body))
                    : read(call("POST", "/channels/" + target.identity.external_id + "/messages",
                                target.credentials.at("bot_token"), body));
        Publication p;
        if (answer.failure) {
            p.failure = std::move(answer.failure);
            return p;
        }
        p.message_id = json_text(answer.body, "id");
        if (p.message_id.empty()) {
            p.failure = PlatformFailure{FailureKind::unknown_outcome,
                                        "Discord accepted the message without a message id",
                                        std::nullopt, 200, ""};
            return p;
        }
        if (!target.identity.handle.empty())
            p.url = "https://discord.com/channels/" + target.identity.handle + "/" +
                    target.identity.external_id + "/" + p.message_id;
        return p;
    }

    // Only a bot can read a channel; a webhook can post but not list.
    std::optional<RemoteListing> list_recent(const Target& target) override {
        if (webhook_of(target.credentials)) return std::nullopt;
        Answer answer =
            read(call("GET", "/channels/" + target.identity.external_id + "/messages?limit=100",
                      target.credentials.at("bot_token"), json()));
        RemoteListing listing;
        if (answer.failure) {
            listing.failure = std::move(answer.failure);
            return listing;
        }
        if (!answer.body.is_array()) {
            listing.failure =
                PlatformFailure{FailureKind::not_accepted, "Discord's answer is not a message list",
                                std::nullopt, 200, ""};
            return listing;
        }
        for (const auto& message : answer.body) {
            if (!message.is_object()) continue;
            const auto sent = time::parse_iso8601(json_text(message, "timestamp"));
            RemotePost post;
            post.external_id = json_text(message, "id");
            if (post.external_id.empty() || !sent) continue;
            post.text = json_text(message, "content");
            post.published_at = *sent;
            post.edited_at = time::parse_iso8601(json_text(message, "edited_timestamp"));
            if (!target.identity.handle.empty())
                post.url = "https://discord.com/channels/" + target.identity.handle + "/" +
                           target.identity.external_id + "/" + post.external_id;
            listing.posts.push_back(std::move(post));
        }
        return listing;
    }

    // Only the content changes: the embeds (images) stay as they were sent.
    MessageChange edit(const Target& target, const std::string& external_id,
                       const Message& message) override {
        if (!is_snowflake(external_id)) return {bad_id(external_id)};
        return {read(call("PATCH", message_path(target, external_id),
                          bot_token_of(target.credentials), {{"content", message.text}}))
                    .failure};
    }

    MessageChange remove(const Target& target, const std::string& external_id) override {
        if (!is_snowflake(external_id)) return {bad_id(external_id)};
        const auto response = call("DELETE", message_path(target, external_id),
                                   bot_token_of(target.credentials), json());
        if (response.status == 204) return {};
        auto answer = read(response);
        if (answer.failure && answer.failure->http_status == 404 && answer.body.is_object() &&
            answer.body.value("code", 0) == kUnknownMessage)
            answer.failure.reset();
        return {std::move(answer.failure)};
    }

    bool resends_safely(const Target& target) const override {
        return !webhook_of(target.credentials);
    }

  private:
    // Discord's JSON error code for a message id it does not know (deleted or never sent).
    static constexpr int kUnknownMessage = 10008;

    // A webhook changes only the messages it sent, through its own token; a bot through the
    // channel.
    static std::string message_path(const Target& target, const std::string& message_id) {
        if (const auto webhook = webhook_of(target.credentials))
            return "/webhooks/" + webhook->id + "/" + webhook->token + "/messages/" + message_id;
        return "/channels/" + target.identity.external_id + "/messages/" + message_id;
    }

    static std::string bot_token_of(const Credentials& credentials) {
        if (webhook_of(credentials)) return "";
        const auto found = credentials.find("bot_token");
        return found == credentials.end() ? "" : found->second;
    }

    static PlatformFailure bad_id(const std::string& external_id) {
        return PlatformFailure{FailureKind::refused,
                               "'" + external_id + "' is not a Discord message id", std::nullopt, 0,
                               ""};
    }

    static std::optional<WebhookAddress> webhook_of(const Credentials& credentials) {
        const auto found = credentials.find("webhook_url");
        if (found == credentials.end() || found->second.empty()) return std::nullopt;
        return parse_webhook_url(found->second);
    }

    http::Response call(const char* method, const std::string& path, const std::string& bot_token,
                        const json& body) {
        http::HeaderList headers;
        if (!bot_token.empty()) headers.emplace_back("Authorization", "Bot " + bot_token);
        return api_.send(method, path, std::move(headers), body);
    }

    PlatformApi api_;
};

}  // namespace

bool is_snowflake(std::string_view text) {
    return text.size() >= 17 && text.size() <= 20 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<WebhookAddress> parse_webhook_url(std::string_view url) {
    constexpr std::string_view kScheme = "https://";
    if (!url.starts_with(kScheme)) return std::nullopt;
    url.remove_prefix(kScheme.size());
    const auto slash = url.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    const auto host = url.substr(0, slash);
    constexpr std::string_view kHosts[] = {"discord.com", "discordapp.com", "ptb.discord.com",
                                           "canary.discord.com"};
    if (std::find(std::begin(kHosts), std::end(kHosts), host) == std::end(kHosts))
        return std::nullopt;
    auto path = url.substr(slash);
    if (!path.starts_with("/api/")) return std::nullopt;
    path.remove_prefix(5);
    if (path.starts_with("v")) {
        const auto end = path.find('/');
        if (end == std::string_view::npos || end < 2 || end > 3) return std::nullopt;
        for (char c : path.substr(1, end - 1))
            if (c < '0' || c > '9') return std::nullopt;
        path.remove_prefix(end + 1);
    }
    if (!path.starts_with("webhooks/")) return std::nullopt;
    path.remove_prefix(9);
    const auto split = path.find('/');
    if (split == std::string_view::npos) return std::nullopt;
    const auto id = path.substr(0, split);
    auto token = path.substr(split + 1);
    if (token.ends_with("/")) token.remove_suffix(1);
    if (!is_snowflake(id) || token.size() < 20 || token.size() > 100) return std::nullopt;
    if (!std::all_of(token.begin(), token.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
        }))
        return std::nullopt;
    return WebhookAddress{std::string(id), std::string(token)};
}

std::unique_ptr<Connector> make(const config::PlatformSettings& settings, http::Client& http) {
    return std::make_unique<DiscordConnector>(settings, http);
}

}  // namespace squawk::social::discord
