// A programmable webhook receiver for tests and benchmarks, served by loopback_http: it answers
// each path from a programmed sequence (status, delay, Retry-After, connection reset), then a
// default, and records every request so tests can check signatures.
//
// Control API (same port): POST /_control/program {"path", "responses": [...], "default": {...}}
// where a response is {"status", "delay_ms", "retry_after", "reset", "body"};
// GET /_control/requests?path=P (recorded requests); GET /_control/count; POST /_control/clear.
// Usage: fake_webhook_receiver [--port N] [--record false]; prints "port <n>" on stdout.
#include "tests/fakes/loopback_http.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <deque>
#include <map>
#include <string>

namespace {

using squawk::fakes::HttpAnswer;
using squawk::fakes::HttpRequest;

struct Answer {
    int status = 200;
    int delay_ms = 0;
    std::string retry_after;
    bool reset = false;
    std::string body = "ok";
};

struct Program {
    std::deque<Answer> sequence;
    Answer fallback;
};

std::map<std::string, Program> programs;
nlohmann::json recorded = nlohmann::json::array();
long long total_requests = 0;
bool record = true;

Answer parse_answer(const nlohmann::json& j) {
    Answer a;
    if (!j.is_object()) return a;
    a.status = j.value("status", 200);
    a.delay_ms = j.value("delay_ms", 0);
    a.retry_after = j.value("retry_after", "");
    a.reset = j.value("reset", false);
    a.body = j.value("body", "ok");
    return a;
}

HttpAnswer json_answer(const nlohmann::json& body) {
    HttpAnswer a;
    a.body = body.dump();
    return a;
}

HttpAnswer handle(const HttpRequest& request) {
    const std::string& path = request.path;
    if (path == "/_control/program" && request.method == "POST") {
        const auto j = nlohmann::json::parse(request.body, nullptr, false);
        Program p;
        for (const auto& a : j.value("responses", nlohmann::json::array()))
            p.sequence.push_back(parse_answer(a));
        p.fallback = parse_answer(j.value("default", nlohmann::json::object()));
        programs[j.value("path", "/")] = p;
        return json_answer(nlohmann::json::object());
    }
    if (path == "/_control/requests") {
        const std::string want = request.query("path");
        nlohmann::json out = nlohmann::json::array();
        for (const auto& r : recorded)
            if (want.empty() || r["path"] == want) out.push_back(r);
        return json_answer(out);
    }
    if (path == "/_control/count") return json_answer({{"total", total_requests}});
    if (path == "/_control/clear" && request.method == "POST") {
        recorded = nlohmann::json::array();
        total_requests = 0;
        programs.clear();
        return json_answer(nlohmann::json::object());
    }
    ++total_requests;
    Answer a;
    auto it = programs.find(path);
    if (it != programs.end()) {
        if (!it->second.sequence.empty()) {
            a = it->second.sequence.front();
            it->second.sequence.pop_front();
        } else {
            a = it->second.fallback;
        }
    }
    if (record) {
        nlohmann::json h = nlohmann::json::object();
        for (const auto& [k, v] : request.headers) h[k] = v;
        recorded.push_back(
            {{"path", path},
             {"method", request.method},
             {"headers", h},
             {"body", request.body},
             {"status_sent", a.reset ? 0 : a.status},
             {"received_at_ms", std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count()}});
    }
    HttpAnswer out;
    out.status = a.status;
    out.body = a.body;
    out.delay_ms = a.delay_ms;
    out.reset = a.reset;
    if (!a.retry_after.empty()) out.headers.emplace_back("Retry-After", a.retry_after);
    if (a.status >= 300 && a.status < 400)
        out.headers.emplace_back("Location", "http://127.0.0.1:1/elsewhere");
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    int port = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--port") port = std::atoi(argv[i + 1]);
        if (flag == "--record") record = std::string(argv[i + 1]) != "false";
    }
    return squawk::fakes::serve(port, handle);
}
