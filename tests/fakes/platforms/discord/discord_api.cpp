// The fake Discord API: webhook get, execute (?wait=true answers the message), message edit and
// delete, and bot channel reads and messages, with Discord's {message, code} errors.
#include "tests/fakes/platforms/fake_clock.hpp"
#include "tests/fakes/platforms/fake_platform.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace squawk::fakes::platforms::discord {
namespace {

using nlohmann::json;

struct State {
    json webhooks = json::object();  // "id/token" -> {id, name, channel_id, guild_id}
    json channels = json::object();  // id -> {id, name, guild_id, bot_tokens[]}
    // "channel/nonce" -> the message created with that nonce (enforce_nonce).
    json nonces = json::object();
    // channel id -> messages posted there (by bots, webhooks or natively), oldest first.
    json messages = json::object();
    // message id -> the bot token that sent it (a bot edits only its own messages).
    std::map<std::string, std::string> bot_authors;
};

State& state() {
    return fake_state<State>();
}

HttpAnswer error(int status, const std::string& message, int code) {
    return json_answer(status, {{"message", message}, {"code", code}});
}

std::string next_snowflake() {
    return "1200000000000" + std::to_string(next_message_id());
}

json store_message(const std::string& channel_id, const std::string& content, const json& embeds,
                   const std::string& webhook_id = "") {
    json message = {{"id", next_snowflake()},
                    {"channel_id", channel_id},
                    {"content", content},
                    {"embeds", embeds},
                    {"timestamp", utc_now(6, "+00:00")},
                    {"edited_timestamp", nullptr}};
    if (!webhook_id.empty()) message["webhook_id"] = webhook_id;
    state().messages[channel_id].push_back(message);
    return message;
}

HttpAnswer unknown_message() {
    return error(404, "Unknown Message", 10008);
}

json* find_message(const std::string& channel_id, const std::string& id) {
    for (auto& message : state().messages[channel_id])
        if (message["id"] == id) return &message;
    return nullptr;
}

// PATCH (edit the content) or DELETE of a message already found and allowed.
HttpAnswer change_message(const HttpRequest& request, const json& body, json& message) {
    if (request.method == "DELETE") {
        auto& all = state().messages[message["channel_id"].get<std::string>()];
        const std::string id = message["id"];
        all.erase(
            std::remove_if(all.begin(), all.end(), [&](const json& m) { return m["id"] == id; }),
            all.end());
        HttpAnswer none;
        none.status = 204;
        return none;
    }
    if (request.method != "PATCH") return error(405, "405: Method Not Allowed", 0);
    if (!body.is_object()) return error(400, "Invalid Form Body", 50035);
    if (body.contains("content")) {
        const std::string content = body.value("content", "");
        if (content.size() > 2000 * 4) return error(400, "Invalid Form Body", 50035);
        if (content.empty() && message.value("embeds", json::array()).empty())
            return error(400, "Cannot send an empty message", 50006);
        message["content"] = content;
    }
    message["edited_timestamp"] = utc_now(6, "+00:00");
    return json_answer(200, message);
}

// The newest `limit` messages of a channel, newest first (GET /channels/{id}/messages).
HttpAnswer list_messages(const HttpRequest& request, const std::string& channel_id) {
    int limit = 50;
    if (const auto text = request.query("limit"); !text.empty()) limit = std::atoi(text.c_str());
    if (limit < 1 || limit > 100) return error(400, "Invalid Form Body", 50035);
    json out = json::array();
    const json& all = state().messages.value(channel_id, json::array());
    for (auto it = all.rbegin(); it != all.rend() && static_cast<int>(out.size()) < limit; ++it)
        out.push_back(*it);
    return json_answer(200, out);
}

// The message Discord creates from an execute or create body, or the error it answers.
HttpAnswer create_message(const json& body, const std::string& channel_id, bool answer_message,
                          const std::string& webhook_id = "") {
    if (!body.is_object()) return error(400, "Invalid Form Body", 50035);
    const std::string content = body.value("content", "");
    const json embeds = body.value("embeds", json::array());
    if (content.empty() && embeds.empty()) return error(400, "Cannot send an empty message", 50006);
    if (content.size() > 2000 * 4 || embeds.size() > 10)
        return error(400, "Invalid Form Body", 50035);
    const json message = store_message(channel_id, content, embeds, webhook_id);
    publish_log("discord", content);
    if (!answer_message) {
        HttpAnswer none;
        none.status = 204;
        return none;
    }
    return json_answer(200, message);
}

bool bot_known(const std::string& token) {
    for (const auto& [id, channel] : state().channels.items())
        for (const auto& t : channel["bot_tokens"])
            if (t == token) return true;
    return false;
}

// A message a person posts (or edits, when `id` is given) in the Discord client, outside any API
// call: {channel_id, content, id?}. Returns the message.
json native_message(const json& body) {
    const std::string channel_id = body.at("channel_id").get<std::string>();
    const std::string content = body.at("content").get<std::string>();
    if (!body.contains("id")) return store_message(channel_id, content, json::array());
    for (auto& message : state().messages[channel_id])
        if (message["id"] == body["id"]) {
            message["content"] = content;
            message["edited_timestamp"] = utc_now(6, "+00:00");
            return message;
        }
    return json::object();
}

HttpAnswer serve(const HttpRequest& request, const std::string& path) {
    auto& s = state();
    const json body =
        request.body.empty() ? json::object() : json::parse(request.body, nullptr, false);
    if (path.starts_with("/webhooks/")) {
        std::string key = path.substr(10);
        std::string message_id;
        if (const auto at = key.find("/messages/"); at != std::string::npos) {
            message_id = key.substr(at + 10);
            key.resize(at);
        }
        const auto split = key.find('/');
        if (split == std::string::npos) return error(405, "405: Method Not Allowed", 0);
        if (!s.webhooks.contains(key)) {
            for (const auto& [known, hook] : s.webhooks.items())
                if (known.starts_with(key.substr(0, split + 1)))
                    return error(401, "Invalid Webhook Token", 50027);
            return error(404, "Unknown Webhook", 10015);
        }
        const json& hook = s.webhooks[key];
        const std::string hook_id = key.substr(0, split);
        if (!message_id.empty()) {
            // A webhook reaches only the messages it sent.
            json* message = find_message(hook.value("channel_id", ""), message_id);
            if (!message || message->value("webhook_id", "") != hook_id) return unknown_message();
            return change_message(request, body, *message);
        }
        if (request.method == "GET") {
            json out = hook;
            out["type"] = 1;
            out["token"] = key.substr(split + 1);
            return json_answer(200, out);
        }
        if (request.method == "POST")
            return create_message(body, hook.value("channel_id", ""),
                                  request.query("wait") == "true", hook_id);
        return error(405, "405: Method Not Allowed", 0);
    }
    if (path.starts_with("/channels/")) {
        const auto auth = request.headers.find("authorization");
        const std::string token = auth != request.headers.end() && auth->second.starts_with("Bot ")
                                      ? auth->second.substr(4)
                                      : "";
        if (token.empty() || !bot_known(token)) return error(401, "401: Unauthorized", 0);
        std::string rest = path.substr(10);
        std::string message_id;
        if (const auto at = rest.find("/messages/"); at != std::string::npos) {
            message_id = rest.substr(at + 10);
            rest.resize(at);
        }
        const bool messages = rest.ends_with("/messages");
        if (messages) rest.resize(rest.size() - 9);
        if (!s.channels.contains(rest)) return error(404, "Unknown Channel", 10003);
        const json& channel = s.channels[rest];
        const auto& tokens = channel["bot_tokens"];
        if (std::find(tokens.begin(), tokens.end(), token) == tokens.end())
            return error(403, "Missing Access", 50001);
        if (!message_id.empty()) {
            json* message = find_message(rest, message_id);
            if (!message) return unknown_message();
            // A bot edits only its own messages; deleting others' takes Manage Messages, which
            // the fake's bots hold.
            const auto author = s.bot_authors.find(message_id);
            if (request.method == "PATCH" &&
                (author == s.bot_authors.end() || author->second != token))
                return error(403, "Cannot edit a message authored by another user", 50005);
            return change_message(request, body, *message);
        }
        if (!messages && request.method == "GET") {
            json out = channel;
            out.erase("bot_tokens");
            return json_answer(200, out);
        }
        if (messages && request.method == "POST") {
            // enforce_nonce: a nonce seen on this channel answers the message it created.
            const bool dedupe = body.is_object() && body.value("enforce_nonce", false) &&
                                body.contains("nonce") && body["nonce"].is_string();
            const std::string nonce_key =
                dedupe ? rest + "/" + body["nonce"].get<std::string>() : "";
            if (dedupe && s.nonces.contains(nonce_key))
                return json_answer(200, s.nonces[nonce_key]);
            HttpAnswer answer = create_message(body, rest, true);
            if (answer.status == 200)
                s.bot_authors[json::parse(answer.body).value("id", "")] = token;
            if (dedupe && answer.status == 200) s.nonces[nonce_key] = json::parse(answer.body);
            return answer;
        }
        if (messages && request.method == "GET") return list_messages(request, rest);
        return error(405, "405: Method Not Allowed", 0);
    }
    return error(404, "404: Not Found", 0);
}

// webhook {id, token, webhook}; channel {channel, bot_tokens}; message {channel_id, content, id?}.
std::optional<HttpAnswer> control(const std::string& action, const json& body) {
    auto& s = state();
    if (action == "webhook") {
        s.webhooks[body.at("id").get<std::string>() + "/" + body.at("token").get<std::string>()] =
            body.at("webhook");
    } else if (action == "channel") {
        auto channel = body.at("channel");
        channel["bot_tokens"] = body.value("bot_tokens", json::array());
        s.channels[channel.at("id").get<std::string>()] = channel;
    } else if (action == "message") {
        return json_answer(200, native_message(body));
    } else {
        return std::nullopt;
    }
    return json_answer(200, json::object());
}

void revoke(const std::string& token) {
    auto& s = state();
    for (auto it = s.webhooks.begin(); it != s.webhooks.end();)
        it = it.key().ends_with("/" + token) ? s.webhooks.erase(it) : std::next(it);
    for (auto& [id, channel] : s.channels.items()) {
        auto& tokens = channel["bot_tokens"];
        tokens.erase(std::remove(tokens.begin(), tokens.end(), token), tokens.end());
    }
}

json messages() {
    return state().messages;
}

constexpr FakePlatform kFake{"discord", &serve, &control, &revoke, &messages, &reset_state<State>};
const FakeRegistration kRegistration(kFake);

}  // namespace
}  // namespace squawk::fakes::platforms::discord
