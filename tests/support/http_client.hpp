// The end-to-end tests' only HTTP client: one libcurl easy handle (its connection is reused)
// that sends a request and returns status, headers, the raw body and the body parsed as JSON.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <optional>
#include <string>

namespace squawk::testing {

struct HttpResponse {
    long status = 0;
    std::map<std::string, std::string> headers;  // names in lower case
    nlohmann::json json;                         // discarded (is_discarded()) unless valid JSON
    std::string body;

    std::string header(const std::string& lower_case_name) const;
};

using Headers = std::map<std::string, std::string>;

class HttpClient {
  public:
    explicit HttpClient(std::string base_url);
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    // Throws std::runtime_error when no HTTP answer arrives (refused, timed out).
    HttpResponse send(const std::string& method, const std::string& path,
                      const std::optional<std::string>& body, const Headers& headers,
                      std::chrono::milliseconds timeout = std::chrono::seconds(10));

  private:
    std::string base_url_;
    void* handle_;  // CURL*, kept out of this header so tests need not include curl
};

}  // namespace squawk::testing
