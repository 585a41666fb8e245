#include "common/http/http_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <future>
#include <unordered_map>

namespace squawk::http {

struct Client::Transfer {
    Request request;
    Callback done;
    Response response;
    curl_slist* headers = nullptr;
    curl_slist* connect_to = nullptr;
    std::chrono::steady_clock::time_point started;
};

namespace {

size_t on_body(char* data, size_t size, size_t count, void* user) {
    auto* t = static_cast<Client::Transfer*>(user);
    const size_t n = size * count;
    const size_t room = t->request.max_response_bytes -
                        std::min(t->request.max_response_bytes, t->response.body.size());
    t->response.body.append(data, std::min(n, room));
    return n;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
    auto* t = static_cast<Client::Transfer*>(user);
    const size_t n = size * count;
    std::string_view line(data, n);
    // A new status line (after 100 Continue) starts a fresh header block.
    if (line.starts_with("HTTP/")) {
        t->response.headers.clear();
        return n;
    }
    const auto colon = line.find(':');
    if (colon == std::string_view::npos || t->response.headers.size() >= 100) return n;
    std::string name(line.substr(0, colon));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
        value.remove_prefix(1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
        value.remove_suffix(1);
    t->response.headers.emplace_back(std::move(name), std::string(value));
    return n;
}

}  // namespace

std::optional<std::string> Response::header(std::string_view lower_case_name) const {
    for (const auto& [name, value] : headers)
        if (name == lower_case_name) return value;
    return std::nullopt;
}

void global_init() {
    curl_global_init(CURL_GLOBAL_DEFAULT);
}

Client::Client(int max_connections) : multi_(curl_multi_init()) {
    curl_multi_setopt(multi_, CURLMOPT_MAX_TOTAL_CONNECTIONS, static_cast<long>(max_connections));
    curl_multi_setopt(multi_, CURLMOPT_MAXCONNECTS, static_cast<long>(max_connections));
    thread_ = std::thread([this] { loop(); });
}

Client::~Client() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    curl_multi_wakeup(multi_);
    if (thread_.joinable()) thread_.join();
    for (void* easy : idle_handles_) curl_easy_cleanup(easy);
    curl_multi_cleanup(multi_);
}

void Client::submit(Request request, Callback done) {
    auto t = std::make_unique<Transfer>();
    t->request = std::move(request);
    t->done = std::move(done);
    {
        std::lock_guard lock(mutex_);
        if (stopping_) {
            Response r;
            r.error = "the HTTP client is shutting down";
            t->done(std::move(r));
            return;
        }
        submitted_.push_back(std::move(t));
    }
    curl_multi_wakeup(multi_);
}

Response Client::send(Request request) {
    if (waiter_) return waiter_(*this, std::move(request));
    auto promise = std::make_shared<std::promise<Response>>();
    auto future = promise->get_future();
    submit(std::move(request), [promise](Response r) { promise->set_value(std::move(r)); });
    return future.get();
}

void Client::start_transfer(std::unique_ptr<Transfer> t) {
    CURL* easy;
    if (idle_handles_.empty()) {
        easy = curl_easy_init();
    } else {
        easy = idle_handles_.back();
        idle_handles_.pop_back();
        curl_easy_reset(easy);
    }
    const auto& r = t->request;
    curl_easy_setopt(easy, CURLOPT_URL, r.url.c_str());
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(r.timeout.count()));
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(r.timeout.count()));
    curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, r.method.c_str());
    if (r.method == "GET") {
        curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
    } else if (r.method == "HEAD") {
        curl_easy_setopt(easy, CURLOPT_NOBODY, 1L);
    } else {
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, r.body.data());
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
    }
    for (const auto& [name, value] : r.headers)
        t->headers = curl_slist_append(t->headers, (name + ": " + value).c_str());
    // Without this curl waits for 100 Continue before sending larger bodies.
    t->headers = curl_slist_append(t->headers, "Expect:");
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, t->headers);
    if (!r.connect_to.empty()) {
        t->connect_to = curl_slist_append(nullptr, ("::" + r.connect_to).c_str());
        curl_easy_setopt(easy, CURLOPT_CONNECT_TO, t->connect_to);
    }
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, t.get());
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, t.get());
    t->started = std::chrono::steady_clock::now();
    curl_easy_setopt(easy, CURLOPT_PRIVATE, t.release());
    curl_multi_add_handle(multi_, easy);
}

void Client::finish_transfer(void* easy, int result) {
    Transfer* raw = nullptr;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, &raw);
    std::unique_ptr<Transfer> t(raw);
    curl_multi_remove_handle(multi_, easy);
    t->response.duration = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - t->started);
    long request_bytes = 0;
    curl_easy_getinfo(easy, CURLINFO_REQUEST_SIZE, &request_bytes);
    t->response.request_sent = request_bytes > 0;
    if (result == CURLE_OK) {
        curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &t->response.status);
    } else {
        t->response.status = 0;
        t->response.timed_out = result == CURLE_OPERATION_TIMEDOUT;
        t->response.error = curl_easy_strerror(static_cast<CURLcode>(result));
    }
    curl_slist_free_all(t->headers);
    curl_slist_free_all(t->connect_to);
    idle_handles_.push_back(easy);
    t->done(std::move(t->response));
}

void Client::loop() {
    for (;;) {
        std::deque<std::unique_ptr<Transfer>> incoming;
        bool stopping;
        {
            std::lock_guard lock(mutex_);
            incoming.swap(submitted_);
            stopping = stopping_;
        }
        for (auto& t : incoming) start_transfer(std::move(t));
        int running = 0;
        curl_multi_perform(multi_, &running);
        int left = 0;
        while (CURLMsg* msg = curl_multi_info_read(multi_, &left))
            if (msg->msg == CURLMSG_DONE) finish_transfer(msg->easy_handle, msg->data.result);
        if (stopping) {
            if (running == 0) return;
        }
        curl_multi_poll(multi_, nullptr, 0, 1000, nullptr);
    }
}

}  // namespace squawk::http
