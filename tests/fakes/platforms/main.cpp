// Fake social platforms for tests on one loopback port: every platform in fake_platforms() under
// its base path (/telegram/..., /discord/..., /whatsapp/...), each following its public API's
// paths, answers and error shapes, and a media host (/media/<name>?type=&bytes=, media_host.cpp)
// that platforms would fetch from.
//
// Control API: POST /_control/<platform>/<action> (see each platform's fake: telegram bot, chat;
// discord webhook, channel, message; whatsapp phone); /_control/revoke {token} (every platform);
// /_control/program {match, responses: [{status, body, delay_ms, retry_after, reset}]};
// GET /_control/calls?match=S (every call received with its body's size as "bytes"; a
// multipart/form-data call as its fields and file sizes under "form", a body that is not UTF-8
// text as ""); GET /_control/publishes (every post the platforms' APIs published,
// publish_log()); POST /_control/calls/clear (both records);
// GET /_control/messages (by platform: Telegram messages by chat id, Discord by channel id);
// POST /_control/media/file {name, content_type, path} (a real file on the media host);
// POST /_control/reset.
// Usage: fake_social_platforms [--port N]; prints "port <n>" on stdout.
#include "tests/fakes/platforms/fake_clock.hpp"
#include "tests/fakes/platforms/fake_platform.hpp"

#include <cstdlib>
#include <vector>

namespace squawk::fakes::platforms {
namespace {

std::vector<const FakePlatform*>& registered() {
    static std::vector<const FakePlatform*> platforms;
    return platforms;
}

}  // namespace

FakeRegistration::FakeRegistration(const FakePlatform& platform) {
    registered().push_back(&platform);
}

std::span<const FakePlatform* const> fake_platforms() {
    return registered();
}

Record& record() {
    static Record r;
    return r;
}

long long next_message_id() {
    return ++record().last_message_id;
}

void publish_log(std::string_view platform, const std::string& text,
                 std::optional<long long> received_at_ms) {
    record().publishes.push_back({{"platform", platform},
                                  {"text", text},
                                  {"received_at_ms", received_at_ms.value_or(unix_now_ms())}});
}

HttpAnswer json_answer(int status, const nlohmann::json& body) {
    HttpAnswer a;
    a.status = status;
    a.body = body.dump();
    return a;
}

std::optional<nlohmann::json> take_program(const HttpRequest& request) {
    for (auto& [match, answers] : record().programs) {
        if (answers.empty() || request.path.find(match) == std::string::npos) continue;
        auto answer = answers.front();
        answers.pop_front();
        return answer;
    }
    return std::nullopt;
}

namespace {

// POST /_control/<platform>/<action>, when `path` names a platform of the fake.
std::optional<HttpAnswer> platform_control(const std::string& path, const nlohmann::json& body) {
    for (const auto* platform : fake_platforms()) {
        const std::string prefix = "/_control/" + std::string(platform->name) + "/";
        if (path.starts_with(prefix)) return platform->control(path.substr(prefix.size()), body);
    }
    return std::nullopt;
}

// Whether `value` can be written as JSON, whose strings are UTF-8 text only.
bool writable(const nlohmann::json& value) {
    try {
        (void)value.dump();
        return true;
    } catch (const nlohmann::json::type_error&) {
        return false;
    }
}

HttpAnswer control(const HttpRequest& request) {
    auto& r = record();
    const auto body =
        nlohmann::json::parse(request.body.empty() ? "{}" : request.body, nullptr, false);
    const std::string& path = request.path;
    if (path == "/_control/calls") {
        const std::string match = request.query("match");
        nlohmann::json out = nlohmann::json::array();
        for (const auto& call : r.calls)
            if (match.empty() || call["path"].get<std::string>().find(match) != std::string::npos)
                out.push_back(call);
        // JSON holds only UTF-8 text: a body of other bytes (a video) is shown by its size alone.
        // Checked here rather than when the call arrives, which must not be slowed.
        for (auto& call : out)
            if (!writable(call["body"])) call["body"] = "";
        return json_answer(200, out);
    }
    if (path == "/_control/publishes") return json_answer(200, r.publishes);
    if (path == "/_control/messages") {
        nlohmann::json out = nlohmann::json::object();
        for (const auto* platform : fake_platforms())
            if (platform->messages) out[std::string(platform->name)] = platform->messages();
        return json_answer(200, out);
    }
    if (!body.is_object()) return json_answer(400, {{"error", "body must be a JSON object"}});
    if (path == "/_control/reset") {
        r = Record();
        for (const auto* platform : fake_platforms()) platform->reset();
    } else if (path == "/_control/calls/clear") {
        r.calls = nlohmann::json::array();
        r.publishes = nlohmann::json::array();
    } else if (path == "/_control/revoke") {
        const auto token = body.at("token").get<std::string>();
        for (const auto* platform : fake_platforms()) platform->revoke(token);
    } else if (path == "/_control/program") {
        auto& answers = r.programs[body.at("match").get<std::string>()];
        for (const auto& a : body.at("responses")) answers.push_back(a);
    } else if (path == "/_control/media/file") {
        return store_media_file(body);
    } else if (auto answer = platform_control(path, body)) {
        return *answer;
    } else {
        return json_answer(404, {{"error", "unknown control path"}});
    }
    return json_answer(200, nlohmann::json::object());
}

HttpAnswer route(const HttpRequest& request) {
    const std::string& path = request.path;
    for (const auto* platform : fake_platforms()) {
        const std::string base = "/" + std::string(platform->name);
        if (path.starts_with(base + "/")) return platform->serve(request, path.substr(base.size()));
    }
    if (path.starts_with("/media/")) return media(request);
    return json_answer(404, {{"message", "404: Not Found"}});
}

HttpAnswer handle(const HttpRequest& request) {
    if (request.path.starts_with("/_control/")) return control(request);
    nlohmann::json headers = nlohmann::json::object();
    for (const auto& [k, v] : request.headers) headers[k] = v;
    nlohmann::json call = {{"method", request.method}, {"path", request.path},
                           {"target", request.target}, {"headers", headers},
                           {"body", request.body},     {"received_at_ms", unix_now_ms()}};
    // An upload is recorded as its fields and the files' sizes, not megabytes of bytes.
    if (const auto form = parse_form(request)) {
        call["body"] = "";
        call["form"] = {{"fields", form->fields}, {"files", form->files}};
    }
    call["bytes"] = request.body.size();
    record().calls.push_back(std::move(call));
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
}  // namespace squawk::fakes::platforms

int main(int argc, char** argv) {
    int port = 0;
    for (int i = 1; i + 1 < argc; i += 2)
        if (std::string(argv[i]) == "--port") port = std::atoi(argv[i + 1]);
    return squawk::fakes::serve(port, squawk::fakes::platforms::handle);
}
