// Fake social platforms for tests: the Telegram Bot API (/telegram/bot<token>/<method>), Discord
// (/discord/webhooks/..., /discord/channels/...) and the WhatsApp Cloud API (/whatsapp/<id>...)
// on one loopback port, each following its public API's paths, answers and error shapes, and a
// media host (/media/<name>?type=&bytes=, media_host.cpp) that platforms would fetch from.
//
// Control API: POST /_control/telegram/bot {token, bot}; /_control/telegram/chat {chat};
// /_control/discord/webhook {id, token, webhook}; /_control/discord/channel {channel, bot_tokens};
// /_control/discord/message {channel_id, content, id?} (a message posted or edited natively);
// /_control/whatsapp/phone {phone, tokens}; /_control/revoke {token} (every platform);
// /_control/program {match, responses: [{status, body, delay_ms, retry_after, reset}]};
// GET /_control/calls?match=S (every call received; a multipart/form-data call as its fields and
// file sizes under "form"); POST /_control/calls/clear;
// GET /_control/messages (Telegram messages by chat id, Discord messages by channel id);
// POST /_control/reset.
// Usage: fake_social_platforms [--port N]; prints "port <n>" on stdout.
#include "tests/fakes/social/platform_state.hpp"

#include <algorithm>

#include <chrono>
#include <cstdlib>

namespace squawk::fakes::social {

State& state() {
    static State s;
    return s;
}

HttpAnswer json_answer(int status, const nlohmann::json& body) {
    HttpAnswer a;
    a.status = status;
    a.body = body.dump();
    return a;
}

std::optional<nlohmann::json> take_program(const HttpRequest& request) {
    for (auto& [match, answers] : state().programs) {
        if (answers.empty() || request.path.find(match) == std::string::npos) continue;
        auto answer = answers.front();
        answers.pop_front();
        return answer;
    }
    return std::nullopt;
}

namespace {

void revoke(const std::string& token) {
    auto& s = state();
    s.telegram_bots.erase(token);
    for (auto it = s.discord_webhooks.begin(); it != s.discord_webhooks.end();)
        it = it.key().ends_with("/" + token) ? s.discord_webhooks.erase(it) : std::next(it);
    for (auto& [id, channel] : s.discord_channels.items()) {
        auto& tokens = channel["bot_tokens"];
        tokens.erase(std::remove(tokens.begin(), tokens.end(), token), tokens.end());
    }
    for (auto& [id, phone] : s.whatsapp_phones.items()) {
        auto& tokens = phone["tokens"];
        tokens.erase(std::remove(tokens.begin(), tokens.end(), token), tokens.end());
    }
}

HttpAnswer control(const HttpRequest& request) {
    auto& s = state();
    const auto body =
        nlohmann::json::parse(request.body.empty() ? "{}" : request.body, nullptr, false);
    const std::string& path = request.path;
    if (path == "/_control/calls") {
        const std::string match = request.query("match");
        nlohmann::json out = nlohmann::json::array();
        for (const auto& call : s.calls)
            if (match.empty() || call["path"].get<std::string>().find(match) != std::string::npos)
                out.push_back(call);
        return json_answer(200, out);
    }
    if (path == "/_control/messages")
        return json_answer(200,
                           {{"telegram", s.telegram_messages}, {"discord", s.discord_messages}});
    if (!body.is_object()) return json_answer(400, {{"error", "body must be a JSON object"}});
    if (path == "/_control/reset") {
        s = State();
    } else if (path == "/_control/calls/clear") {
        s.calls = nlohmann::json::array();
    } else if (path == "/_control/telegram/bot") {
        s.telegram_bots[body.at("token").get<std::string>()] = body.at("bot");
    } else if (path == "/_control/telegram/chat") {
        s.telegram_chats.push_back(body.at("chat"));
    } else if (path == "/_control/discord/webhook") {
        s.discord_webhooks[body.at("id").get<std::string>() + "/" +
                           body.at("token").get<std::string>()] = body.at("webhook");
    } else if (path == "/_control/discord/channel") {
        auto channel = body.at("channel");
        channel["bot_tokens"] = body.value("bot_tokens", nlohmann::json::array());
        s.discord_channels[channel.at("id").get<std::string>()] = channel;
    } else if (path == "/_control/discord/message") {
        return json_answer(200, discord_native_message(body));
    } else if (path == "/_control/whatsapp/phone") {
        auto phone = body.at("phone");
        phone["tokens"] = body.value("tokens", nlohmann::json::array());
        s.whatsapp_phones[phone.at("id").get<std::string>()] = phone;
    } else if (path == "/_control/revoke") {
        revoke(body.at("token").get<std::string>());
    } else if (path == "/_control/program") {
        auto& answers = s.programs[body.at("match").get<std::string>()];
        for (const auto& a : body.at("responses")) answers.push_back(a);
    } else {
        return json_answer(404, {{"error", "unknown control path"}});
    }
    return json_answer(200, nlohmann::json::object());
}

HttpAnswer route(const HttpRequest& request) {
    const std::string& path = request.path;
    if (path.starts_with("/telegram/")) return telegram(request, path.substr(9));
    if (path.starts_with("/discord/")) return discord(request, path.substr(8));
    if (path.starts_with("/whatsapp/")) return whatsapp(request, path.substr(9));
    if (path.starts_with("/media/")) return media(request);
    return json_answer(404, {{"message", "404: Not Found"}});
}

HttpAnswer handle(const HttpRequest& request) {
    if (request.path.starts_with("/_control/")) return control(request);
    nlohmann::json headers = nlohmann::json::object();
    for (const auto& [k, v] : request.headers) headers[k] = v;
    nlohmann::json call = {
        {"method", request.method},
        {"path", request.path},
        {"target", request.target},
        {"headers", headers},
        {"body", request.body},
        {"received_at_ms", std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count()}};
    // An upload is recorded as its fields and the files' sizes, not megabytes of bytes.
    if (const auto form = parse_form(request)) {
        call["body"] = "";
        call["form"] = {{"fields", form->fields}, {"files", form->files}};
    }
    state().calls.push_back(std::move(call));
    const auto program = take_program(request);
    if (!program) return route(request);
    HttpAnswer answer = program->contains("status")
                            ? json_answer(program->value("status", 200),
                                          program->value("body", nlohmann::json::object()))
                            : route(request);
    answer.delay_ms = program->value("delay_ms", 0);
    answer.reset = program->value("reset", false);
    if (program->contains("retry_after"))
        answer.headers.emplace_back("Retry-After", program->value("retry_after", "1"));
    return answer;
}

}  // namespace
}  // namespace squawk::fakes::social

int main(int argc, char** argv) {
    int port = 0;
    for (int i = 1; i + 1 < argc; i += 2)
        if (std::string(argv[i]) == "--port") port = std::atoi(argv[i + 1]);
    return squawk::fakes::serve(port, squawk::fakes::social::handle);
}
