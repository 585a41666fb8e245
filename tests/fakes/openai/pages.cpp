// Web pages a test sets up for articles grounded on a URL: POST /_control/pages {"path", "body",
// "content_type", "status", "location"} makes GET <path> answer that, so one loopback fake serves
// both the page and the provider that reads it.
#include "tests/fakes/openai/fake_openai.hpp"

#include <map>

namespace squawk::fakes::openai {
namespace {

std::map<std::string, HttpAnswer>& pages() {
    static std::map<std::string, HttpAnswer> set;
    return set;
}

}  // namespace

HttpAnswer set_page(const nlohmann::json& body) {
    const auto path = body.value("path", "");
    if (!path.starts_with("/pages/"))
        return error_answer(400, "path must start with /pages/", "control", "path");
    HttpAnswer page;
    page.status = body.value("status", 200);
    page.body = body.value("body", "");
    page.content_type = body.value("content_type", "text/html; charset=utf-8");
    if (const auto location = body.value("location", ""); !location.empty())
        page.headers.emplace_back("Location", location);
    pages()[path] = std::move(page);
    return json_answer(nlohmann::json::object());
}

std::optional<HttpAnswer> page(const HttpRequest& request) {
    if (request.method != "GET") return std::nullopt;
    const auto it = pages().find(request.path);
    if (it == pages().end()) return std::nullopt;
    return it->second;
}

}  // namespace squawk::fakes::openai
