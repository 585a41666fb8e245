#include "tests/support/http_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>

namespace squawk::testing {
namespace {

size_t append_body(char* data, size_t size, size_t count, void* user) {
    static_cast<std::string*>(user)->append(data, size * count);
    return size * count;
}

size_t append_header(char* data, size_t size, size_t count, void* user) {
    auto& headers = *static_cast<std::map<std::string, std::string>*>(user);
    std::string line(data, size * count);
    const auto colon = line.find(':');
    if (colon != std::string::npos) {
        std::string name = line.substr(0, colon);
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        std::string value = line.substr(colon + 1);
        value.erase(0, value.find_first_not_of(" \t"));
        value.erase(value.find_last_not_of(" \t\r\n") + 1);
        headers[name] = value;
    }
    return size * count;
}

struct HeaderList {
    curl_slist* list = nullptr;
    ~HeaderList() { curl_slist_free_all(list); }
    void add(const std::string& line) { list = curl_slist_append(list, line.c_str()); }
};

}  // namespace

std::string HttpResponse::header(const std::string& lower_case_name) const {
    const auto it = headers.find(lower_case_name);
    return it == headers.end() ? std::string() : it->second;
}

HttpClient::HttpClient(std::string base_url) : base_url_(std::move(base_url)) {
    static std::once_flag global_init;
    std::call_once(global_init, [] { curl_global_init(CURL_GLOBAL_ALL); });
    handle_ = curl_easy_init();
    if (!handle_) throw std::runtime_error("curl_easy_init failed");
}

HttpClient::~HttpClient() {
    curl_easy_cleanup(static_cast<CURL*>(handle_));
}

HttpResponse HttpClient::send(const std::string& method, const std::string& path,
                              const std::optional<std::string>& body, const Headers& headers,
                              std::chrono::milliseconds timeout) {
    CURL* curl = static_cast<CURL*>(handle_);
    curl_easy_reset(curl);
    HttpResponse response;
    const std::string url = base_url_ + path;
    HeaderList header_list;
    // curl would otherwise wait for "100 Continue" before sending a large body.
    header_list.add("Expect:");
    for (const auto& [name, value] : headers) header_list.add(name + ": " + value);

    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, header_list.list);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, append_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response.headers);
    if (method == "HEAD") curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    if (body) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body->size()));
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body->data());
    }
    const CURLcode code = curl_easy_perform(curl);
    if (code != CURLE_OK)
        throw std::runtime_error(method + " " + url + ": " + curl_easy_strerror(code));
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    response.json = nlohmann::json::parse(response.body, nullptr, false);
    return response;
}

}  // namespace squawk::testing
