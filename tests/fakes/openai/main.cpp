// A fake OpenAI-style service on loopback, for the openai providers' tests: the public API's paths
// under /v1 (chat/completions, images/generations, audio/transcriptions, audio/speech), its
// bearer-key check,
// request validation and answer shapes, with deterministic answers derived from each request.
//
// Control API: POST /_control/behaviour {"mode", "count", "retry_after", "delay_ms"} sets how the
// next `count` API calls are answered: ok, rate_limit (429 with Retry-After), server_error (500),
// refuse (400 content_policy_violation), slow (the normal answer after delay_ms), bad_key (401),
// malformed (200 with a body cut short). GET /_control/requests lists the API calls received:
// method, path, the headers of interest, and the JSON body or, for uploads, the form's fields and
// files. POST /_control/completions {"contents": ["..."]} makes the next chat completions answer
// those texts, in order (an outline as JSON, a malformed one). POST /_control/pages sets a web page
// GET <path> serves (pages.cpp). POST /_control/reset forgets all but the pages.
// Usage: fake_openai [--port N] [--api-key K] [--models a,b,c]; an empty key accepts any caller.
#include "tests/fakes/openai/fake_openai.hpp"
#include "tests/fakes/platforms/fake_platform.hpp"

#include <chrono>
#include <cstdlib>
#include <deque>
#include <set>

namespace squawk::fakes::openai {
namespace {

struct Behaviour {
    std::string mode = "ok";
    int retry_after = 1;
    int delay_ms = 0;
};

struct State {
    std::string api_key;
    std::set<std::string> models{"gpt-4o-mini", "gpt-4o", "gpt-image-1",    "dall-e-3",
                                 "whisper-1",   "tts-1",  "gpt-4o-mini-tts"};
    std::deque<Behaviour> upcoming;
    nlohmann::json requests = nlohmann::json::array();
};

State& state() {
    static State s;
    return s;
}

const std::set<std::string> kModes{"ok",   "rate_limit", "server_error", "refuse",
                                   "slow", "bad_key",    "malformed"};

HttpAnswer set_behaviour(const nlohmann::json& body) {
    Behaviour b;
    b.mode = body.value("mode", "ok");
    b.retry_after = body.value("retry_after", 1);
    b.delay_ms = body.value("delay_ms", 0);
    if (!kModes.contains(b.mode)) return error_answer(400, "unknown mode", "control", "mode");
    for (int i = 0; i < body.value("count", 1); ++i) state().upcoming.push_back(b);
    return json_answer(nlohmann::json::object());
}

HttpAnswer control(const HttpRequest& request) {
    if (request.path == "/_control/requests") return json_answer(state().requests);
    if (request.method != "POST") return error_answer(405, "use POST", "control");
    if (request.path == "/_control/reset") {
        state().upcoming.clear();
        state().requests = nlohmann::json::array();
        forget_completions();
        return json_answer(nlohmann::json::object());
    }
    const auto body = nlohmann::json::parse(request.body, nullptr, false);
    if (!body.is_object()) return error_answer(400, "body must be a JSON object", "control");
    if (request.path == "/_control/behaviour") return set_behaviour(body);
    if (request.path == "/_control/completions") return queue_completions(body);
    if (request.path == "/_control/pages") return set_page(body);
    return error_answer(404, "no such control call", "control");
}

void record(const HttpRequest& request) {
    nlohmann::json headers = nlohmann::json::object();
    for (const char* name : {"authorization", "content-type", "idempotency-key"})
        if (const auto it = request.headers.find(name); it != request.headers.end())
            headers[name] = it->second;
    nlohmann::json entry{{"method", request.method}, {"path", request.path}, {"headers", headers}};
    if (const auto form = platforms::parse_form(request)) {
        entry["fields"] = form->fields;
        entry["files"] = form->files;
    } else {
        entry["body"] = nlohmann::json::parse(request.body, nullptr, false);
        if (entry["body"].is_discarded()) entry["body"] = nullptr;
    }
    state().requests.push_back(std::move(entry));
}

bool authorized(const HttpRequest& request) {
    if (state().api_key.empty()) return true;
    const auto it = request.headers.find("authorization");
    return it != request.headers.end() && it->second == "Bearer " + state().api_key;
}

HttpAnswer bad_key() {
    return error_answer(401,
                        "Incorrect API key provided. You can find your API key at "
                        "https://platform.openai.com/account/api-keys.",
                        "invalid_request_error", "", "invalid_api_key");
}

HttpAnswer route(const HttpRequest& request) {
    if (request.method != "POST")
        return error_answer(405, "Method not allowed.", "invalid_request_error");
    if (request.path == "/v1/chat/completions") return chat_completion(request);
    if (request.path == "/v1/images/generations") return image_generation(request);
    if (request.path == "/v1/audio/transcriptions") return transcription(request);
    if (request.path == "/v1/audio/speech") return speech(request);
    return error_answer(404, "Invalid URL (POST " + request.path + ")", "invalid_request_error");
}

HttpAnswer handle(const HttpRequest& request) {
    if (request.path.starts_with("/_control/")) return control(request);
    if (auto served = page(request)) {
        record(request);
        return *served;
    }
    record(request);
    Behaviour b;
    if (!state().upcoming.empty()) {
        b = state().upcoming.front();
        state().upcoming.pop_front();
    }
    if (b.mode == "bad_key" || !authorized(request)) return bad_key();
    if (b.mode == "rate_limit") {
        auto answer = error_answer(429,
                                   "Rate limit reached for requests. Please try again in " +
                                       std::to_string(b.retry_after) + "s.",
                                   "requests", "", "rate_limit_exceeded");
        answer.headers.emplace_back("Retry-After", std::to_string(b.retry_after));
        return answer;
    }
    if (b.mode == "server_error")
        return error_answer(500, "The server had an error while processing your request.",
                            "server_error");
    if (b.mode == "refuse")
        return error_answer(400, "Your request was rejected as a result of our safety system.",
                            "invalid_request_error", "prompt", "content_policy_violation");
    if (b.mode == "malformed") {
        HttpAnswer answer;
        answer.body = R"({"id":"chatcmpl-cut","object":"chat.completion","choices":[{"index":0,)";
        return answer;
    }
    HttpAnswer answer = route(request);
    answer.delay_ms = b.delay_ms;
    return answer;
}

}  // namespace

HttpAnswer error_answer(int status, const std::string& message, const std::string& type,
                        const std::string& param, const std::string& code) {
    const auto or_null = [](const std::string& text) {
        return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
    };
    HttpAnswer answer;
    answer.status = status;
    answer.body = nlohmann::json{{"error",
                                  {{"message", message},
                                   {"type", type},
                                   {"param", or_null(param)},
                                   {"code", or_null(code)}}}}
                      .dump();
    return answer;
}

HttpAnswer json_answer(const nlohmann::json& body) {
    HttpAnswer answer;
    answer.body = body.dump();
    return answer;
}

bool known_model(const std::string& model) {
    return state().models.contains(model);
}

HttpAnswer unknown_model(const std::string& model) {
    return error_answer(404,
                        "The model `" + model + "` does not exist or you do not have access to it.",
                        "invalid_request_error", "", "model_not_found");
}

long long now_seconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace squawk::fakes::openai

int main(int argc, char** argv) {
    using squawk::fakes::openai::state;
    int port = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const std::string value = argv[i + 1];
        if (flag == "--port") port = std::atoi(value.c_str());
        if (flag == "--api-key") state().api_key = value;
        if (flag == "--models") {
            state().models.clear();
            size_t start = 0;
            for (size_t comma; (comma = value.find(',', start)) != std::string::npos;
                 start = comma + 1)
                state().models.insert(value.substr(start, comma - start));
            state().models.insert(value.substr(start));
        }
    }
    return squawk::fakes::serve(port, squawk::fakes::openai::handle);
}
