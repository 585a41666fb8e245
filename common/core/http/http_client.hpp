// The one client for outgoing HTTP (webhook receivers, platforms, providers): one libcurl multi
// handle runs every transfer; callers submit and get the result by callback. The loop runs on a
// thread of the client's own, or on the thread that owns the client, between its other work (a
// fiber scheduler does, so a delivery and its transfer never change threads).
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace squawk::http {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

struct Request {
    std::string method = "GET";
    std::string url;
    HeaderList headers;
    std::string body;
    std::chrono::milliseconds timeout{10000};
    // "address:port" (IPv6 in brackets): connect there whatever the URL's host resolves to, so
    // the address a caller checked is the one used, never through a proxy. Empty: resolve
    // normally.
    std::string connect_to;
    size_t max_response_bytes = 65536;  // the rest of a longer body is read and dropped
};

struct Response {
    long status = 0;     // 0 when no HTTP answer arrived
    HeaderList headers;  // names in lower case
    std::string body;    // at most max_response_bytes
    std::string error;   // empty when an answer arrived
    bool timed_out = false;
    // Whether the request went out: a failure before that is a sure non-acceptance, one after it
    // (timeout, reset) leaves the outcome unknown.
    bool request_sent = false;
    std::chrono::microseconds duration{0};

    std::optional<std::string> header(std::string_view lower_case_name) const;
};

class Client {
  public:
    using Callback = std::function<void(Response)>;
    enum class Loop { own_thread, owner_thread };

    // At most `max_connections` requests are in flight, on as many connections across all hosts;
    // the others wait their turn in order, each within its own timeout counted from submission.
    // A transfer holds its connection until answered, and libcurl looks up a reusable connection
    // by walking those open to the host, so more than needed only costs.
    // With Loop::owner_thread nothing moves until the owner calls run_once().
    explicit Client(int max_connections = 512, Loop loop = Loop::own_thread);
    ~Client();
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    // Runs `request`; `done` is called once on the loop's thread, so it must be short (fulfil a
    // promise, push to a queue). Redirects are never followed; only http and https are spoken.
    // A request whose method is not idempotent (POST, PATCH) goes out at most once: when the
    // connection closes before an answer it fails with request_sent, never resent by curl.
    void submit(Request request, Callback done);

    // Loop::owner_thread only, always from the same thread: starts what was submitted, services
    // ready transfers and calls their callbacks, waiting until `until` at most when none is ready.
    void run_once(std::chrono::steady_clock::time_point until);
    // Ends a run_once() waiting on another thread early; safe from any thread.
    void wake();
    // Submits and waits for the answer: by default the calling thread blocks (synchronous API
    // paths); a waiter set with set_waiter() decides instead, e.g. parking only a fiber. The
    // owner of a Loop::owner_thread client must not block in it: nothing would run the loop.
    Response send(Request request);

    // Lets callers that share code with synchronous paths (connectors) wait without blocking
    // their thread. The waiter must answer through submit(). Set before the first send().
    using Waiter = Response (*)(Client& client, Request request);
    void set_waiter(Waiter waiter) { waiter_ = waiter; }

    struct Transfer;  // one request in flight; defined in the implementation

  private:
    void loop();
    // One turn of the loop; false once stopping with nothing left to do.
    bool turn(int most_wait_ms);
    void start_waiting();
    void start_transfer(std::unique_ptr<Transfer> transfer);
    void fail_unsent(std::unique_ptr<Transfer> transfer);
    void finish_transfer(void* easy, int result);
    int wait_ms() const;

    static constexpr std::chrono::milliseconds kExpiryCheckInterval{100};

    Waiter waiter_ = nullptr;
    int max_in_flight_;
    void* multi_;
    // curl's sockets and the wakeup event, watched by the loop; only ready sockets are serviced,
    // so a transfer costs nothing while it waits for its answer.
    int epoll_fd_ = -1;
    int wake_fd_ = -1;
    std::optional<std::chrono::steady_clock::time_point> timer_;  // curl's next timeout
    int active_ = 0;                                              // transfers added to multi_
    std::mutex mutex_;
    std::deque<std::unique_ptr<Transfer>> submitted_;
    // Owned by the loop: submitted, not yet handed to curl.
    std::deque<std::unique_ptr<Transfer>> waiting_;
    std::chrono::steady_clock::time_point next_expiry_check_;
    bool stopping_ = false;
    std::vector<void*> idle_handles_;
    // The thread that runs the loop: its own submissions need no wakeup, the loop takes them
    // before it waits next.
    std::atomic<std::thread::id> loop_thread_;
    std::thread thread_;
};

// curl_global_init; call once from main() before any thread starts.
void global_init();

}  // namespace squawk::http
