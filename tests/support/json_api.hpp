// What the fixtures that act through the API need from a deployment: JSON requests made with a
// key. A Stack is one (it also checks each answer against the OpenAPI document); a JsonClient
// reaches any base URL, such as the load balancer in front of a cluster.
#pragma once

#include "tests/support/http_client.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace squawk::testing {

class JsonApi {
  public:
    virtual ~JsonApi() = default;
    // `body` null sends no body; any other JSON is sent as application/json.
    virtual HttpResponse request(const std::string& method, const std::string& path,
                                 const nlohmann::json& body = nullptr, const std::string& key = "",
                                 const Headers& headers = {}) = 0;
};

// `headers` with the key's Authorization and, when there is a body, its Content-Type added.
Headers json_request_headers(const Headers& headers, const std::string& key, bool has_body);

// One connection to `base_url`.
class JsonClient : public JsonApi {
  public:
    explicit JsonClient(std::string base_url) : http_(std::move(base_url)) {}
    HttpResponse request(const std::string& method, const std::string& path,
                         const nlohmann::json& body = nullptr, const std::string& key = "",
                         const Headers& headers = {}) override;

  private:
    HttpClient http_;
};

}  // namespace squawk::testing
