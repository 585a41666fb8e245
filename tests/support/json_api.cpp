#include "tests/support/json_api.hpp"

namespace squawk::testing {

Headers json_request_headers(const Headers& headers, const std::string& key, bool has_body) {
    Headers all = headers;
    if (!key.empty()) all.emplace("Authorization", "Bearer " + key);
    if (has_body) all.emplace("Content-Type", "application/json");
    return all;
}

HttpResponse JsonClient::request(const std::string& method, const std::string& path,
                                 const nlohmann::json& body, const std::string& key,
                                 const Headers& headers) {
    std::optional<std::string> text;
    if (!body.is_null()) text = body.dump();
    return http_.send(method, path, text, json_request_headers(headers, key, text.has_value()));
}

}  // namespace squawk::testing
