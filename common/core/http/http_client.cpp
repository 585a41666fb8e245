#include "common/core/http/http_client.hpp"

#include "common/core/http/response_headers.hpp"

#include <curl/curl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <future>
#include <system_error>
#include <unordered_map>

namespace squawk::http {

struct Client::Transfer {
    Request request;
    Callback done;
    Response response;
    curl_slist* headers = nullptr;
    curl_slist* connect_to = nullptr;
    std::chrono::steady_clock::time_point started;
    std::chrono::steady_clock::time_point deadline;  // the request's timeout, from submission
    int sends = 0;                                   // how often curl was about to send the request
};

namespace {

constexpr long kMostIdleSecondsForUnsafe = 2;

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
    add_header_line(std::string_view(data, n), t->response.headers);
    return n;
}

int on_socket(CURL*, curl_socket_t socket, int what, void* epoll_fd, void*) {
    const int epoll = *static_cast<int*>(epoll_fd);
    if (what == CURL_POLL_REMOVE) {
        epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nullptr);
        return 0;
    }
    epoll_event event{};
    event.data.fd = socket;
    event.events =
        ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u);
    // A socket closed without a REMOVE left the set by itself; its number may come back.
    if (epoll_ctl(epoll, EPOLL_CTL_MOD, socket, &event) != 0 && errno == ENOENT)
        epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event);
    return 0;
}

// RFC 9110's idempotent methods: sending one twice has the effect of sending it once.
bool is_idempotent(std::string_view method) {
    return method == "GET" || method == "HEAD" || method == "PUT" || method == "DELETE" ||
           method == "OPTIONS";
}

// curl sends a request again on a new connection when a reused one closes before any answer.
// The server may have acted on the first before closing (a publish), so a request that is not
// idempotent goes out once and fails with its outcome unknown instead.
int before_send(void* user, char*, char*, int, int) {
    auto* t = static_cast<Client::Transfer*>(user);
    if (++t->sends > 1 && !is_idempotent(t->request.method)) return CURL_PREREQFUNC_ABORT;
    return CURL_PREREQFUNC_OK;
}

int on_timer(CURLM*, long timeout_ms, void* timer) {
    auto& deadline = *static_cast<std::optional<std::chrono::steady_clock::time_point>*>(timer);
    if (timeout_ms < 0)
        deadline.reset();
    else
        deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    return 0;
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

Client::Client(int max_connections, Loop loop)
    : max_in_flight_(std::max(1, max_connections)),
      multi_(curl_multi_init()),
      epoll_fd_(epoll_create1(EPOLL_CLOEXEC)),
      wake_fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
    if (epoll_fd_ < 0 || wake_fd_ < 0)
        throw std::system_error(errno, std::generic_category(), "http client event loop");
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = wake_fd_;
    epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &event);
    curl_multi_setopt(multi_, CURLMOPT_MAX_TOTAL_CONNECTIONS, static_cast<long>(max_in_flight_));
    curl_multi_setopt(multi_, CURLMOPT_MAXCONNECTS, static_cast<long>(max_in_flight_));
    curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, on_socket);
    curl_multi_setopt(multi_, CURLMOPT_SOCKETDATA, &epoll_fd_);
    curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, on_timer);
    curl_multi_setopt(multi_, CURLMOPT_TIMERDATA, &timer_);
    if (loop == Loop::own_thread) thread_ = std::thread([this] { this->loop(); });
}

Client::~Client() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake();
    if (thread_.joinable()) thread_.join();
    // An owner-run loop runs here what its owner left in flight, as the own thread does above.
    while (turn(1000)) {
    }
    for (void* easy : idle_handles_) curl_easy_cleanup(easy);
    curl_multi_cleanup(multi_);
    close(wake_fd_);
    close(epoll_fd_);
}

void Client::wake() {
    const uint64_t one = 1;
    // A full counter already means a wakeup is pending, so a failed write loses nothing.
    [[maybe_unused]] const auto written = write(wake_fd_, &one, sizeof one);
}

void Client::submit(Request request, Callback done) {
    auto t = std::make_unique<Transfer>();
    t->request = std::move(request);
    t->done = std::move(done);
    t->deadline = std::chrono::steady_clock::now() + t->request.timeout;
    bool first;
    {
        std::lock_guard lock(mutex_);
        if (stopping_) {
            Response r;
            r.error = "the HTTP client is shutting down";
            t->done(std::move(r));
            return;
        }
        first = submitted_.empty();
        submitted_.push_back(std::move(t));
    }
    // The loop takes the whole queue at once, so one wakeup per batch of submissions is enough.
    if (first && loop_thread_.load() != std::this_thread::get_id()) wake();
}

Response Client::send(Request request) {
    if (waiter_) return waiter_(*this, std::move(request));
    auto promise = std::make_shared<std::promise<Response>>();
    auto future = promise->get_future();
    submit(std::move(request), [promise](Response r) { promise->set_value(std::move(r)); });
    return future.get();
}

void Client::fail_unsent(std::unique_ptr<Transfer> t) {
    t->response.timed_out = true;
    t->response.error = "timed out waiting for a free connection; not sent";
    t->done(std::move(t->response));
}

void Client::start_waiting() {
    const auto now = std::chrono::steady_clock::now();
    // Those whose time ran out while they waited fail now rather than when their turn comes.
    if (!waiting_.empty() && now >= next_expiry_check_) {
        next_expiry_check_ = now + kExpiryCheckInterval;
        std::deque<std::unique_ptr<Transfer>> still;
        for (auto& t : waiting_) {
            if (t->deadline <= now)
                fail_unsent(std::move(t));
            else
                still.push_back(std::move(t));
        }
        waiting_.swap(still);
    }
    while (!waiting_.empty() && active_ < max_in_flight_) {
        auto t = std::move(waiting_.front());
        waiting_.pop_front();
        start_transfer(std::move(t));
    }
}

void Client::start_transfer(std::unique_ptr<Transfer> t) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(
        t->deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return fail_unsent(std::move(t));
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
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(left.count()));
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(left.count()));
    curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, r.method.c_str());
    if (r.method == "GET") {
        curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
    } else if (r.method == "HEAD") {
        curl_easy_setopt(easy, CURLOPT_NOBODY, 1L);
    } else {
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, r.body.data());
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
    }
    std::string line;  // one buffer for every header line; curl keeps a copy of each
    for (const auto& [name, value] : r.headers) {
        line.assign(name).append(": ").append(value);
        t->headers = curl_slist_append(t->headers, line.c_str());
    }
    // Without this curl waits for 100 Continue before sending larger bodies.
    t->headers = curl_slist_append(t->headers, "Expect:");
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, t->headers);
    if (!r.connect_to.empty()) {
        t->connect_to = curl_slist_append(nullptr, ("::" + r.connect_to).c_str());
        curl_easy_setopt(easy, CURLOPT_CONNECT_TO, t->connect_to);
        // A proxy from the environment would connect wherever the name resolves for it, not to
        // the address the caller checked.
        curl_easy_setopt(easy, CURLOPT_PROXY, "");
    }
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, t.get());
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, t.get());
    curl_easy_setopt(easy, CURLOPT_PREREQFUNCTION, before_send);
    curl_easy_setopt(easy, CURLOPT_PREREQDATA, t.get());
    if (!is_idempotent(r.method))
        // Servers close idle connections after a few seconds (Node after 5); one idle for less
        // is rarely closed just as the request goes out, which would leave its outcome unknown.
        curl_easy_setopt(easy, CURLOPT_MAXAGE_CONN, kMostIdleSecondsForUnsafe);
    t->started = std::chrono::steady_clock::now();
    curl_easy_setopt(easy, CURLOPT_PRIVATE, t.release());
    curl_multi_add_handle(multi_, easy);
    ++active_;
}

void Client::finish_transfer(void* easy, int result) {
    Transfer* raw = nullptr;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, &raw);
    std::unique_ptr<Transfer> t(raw);
    curl_multi_remove_handle(multi_, easy);
    --active_;
    t->response.duration = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - t->started);
    long request_bytes = 0;
    curl_easy_getinfo(easy, CURLINFO_REQUEST_SIZE, &request_bytes);
    t->response.request_sent = request_bytes > 0 || t->sends > 1;
    if (result == CURLE_OK) {
        curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &t->response.status);
    } else {
        t->response.status = 0;
        t->response.timed_out = result == CURLE_OPERATION_TIMEDOUT;
        t->response.error = result == CURLE_ABORTED_BY_CALLBACK
                                ? "the connection closed before an answer; not sent again"
                                : curl_easy_strerror(static_cast<CURLcode>(result));
    }
    curl_slist_free_all(t->headers);
    curl_slist_free_all(t->connect_to);
    idle_handles_.push_back(easy);
    t->done(std::move(t->response));
}

int Client::wait_ms() const {
    const long long most = waiting_.empty() ? 1000 : kExpiryCheckInterval.count();
    if (!timer_) return static_cast<int>(most);
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(*timer_ - std::chrono::steady_clock::now());
    return static_cast<int>(std::clamp<long long>(left.count(), 0, most));
}

void Client::run_once(std::chrono::steady_clock::time_point until) {
    loop_thread_ = std::this_thread::get_id();
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
    turn(static_cast<int>(std::clamp<long long>(left.count(), 0, 1000)));
}

void Client::loop() {
    loop_thread_ = std::this_thread::get_id();
    while (turn(1000)) {
    }
}

bool Client::turn(int most_wait_ms) {
    std::array<epoll_event, 128> ready;
    std::deque<std::unique_ptr<Transfer>> incoming;
    bool stopping;
    {
        std::lock_guard lock(mutex_);
        incoming.swap(submitted_);
        stopping = stopping_;
    }
    for (auto& t : incoming) waiting_.push_back(std::move(t));
    start_waiting();
    if (stopping && active_ == 0 && waiting_.empty()) return false;
    const int n = epoll_wait(epoll_fd_, ready.data(), static_cast<int>(ready.size()),
                             std::min(most_wait_ms, wait_ms()));
    int running = 0;
    for (int i = 0; i < n; ++i) {
        const int fd = ready[i].data.fd;
        if (fd == wake_fd_) {
            uint64_t count;
            [[maybe_unused]] const auto drained = read(wake_fd_, &count, sizeof count);
            continue;
        }
        const auto events = ready[i].events;
        const int flags = ((events & EPOLLIN) ? CURL_CSELECT_IN : 0) |
                          ((events & EPOLLOUT) ? CURL_CSELECT_OUT : 0) |
                          ((events & (EPOLLERR | EPOLLHUP)) ? CURL_CSELECT_ERR : 0);
        curl_multi_socket_action(multi_, fd, flags, &running);
    }
    if (timer_ && std::chrono::steady_clock::now() >= *timer_) {
        timer_.reset();
        curl_multi_socket_action(multi_, CURL_SOCKET_TIMEOUT, 0, &running);
    }
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi_, &left))
        if (msg->msg == CURLMSG_DONE) finish_transfer(msg->easy_handle, msg->data.result);
    return true;
}

}  // namespace squawk::http
