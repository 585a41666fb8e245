// The HTTP/1.1 server every fake in tests/fakes runs on: one thread, epoll, loopback only. A fake
// supplies a handler; answers may be delayed (timeouts) or replaced by a connection reset.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace squawk::fakes {

struct HttpRequest {
    std::string method;
    std::string target;                          // path and query as sent
    std::string path;                            // without the query
    std::map<std::string, std::string> headers;  // names in lower case
    std::string body;

    // A query parameter as sent (no decoding); empty when absent.
    std::string query(const std::string& name) const;
    // The query's parameters and an application/x-www-form-urlencoded body's fields, decoded
    // (Graph APIs take either; a body field wins over a query one).
    std::map<std::string, std::string> parameters() const;
};

// Form encoding as the platforms' APIs use it: %XX escapes, '+' a space when decoding. A
// malformed escape is kept as it is.
std::string url_decode(std::string_view text);
// Every byte but A-Z a-z 0-9 - . _ ~ as %XX.
std::string url_encode(std::string_view text);
// name=value pairs joined by '&' (a query or a form body), decoded; a later pair wins.
std::map<std::string, std::string> form_decode(std::string_view text);

struct HttpAnswer {
    int status = 200;
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string content_type = "application/json";
    // The Content-Length announced instead of the body's, for HEAD answers (no body follows).
    long long head_length = -1;
    int delay_ms = 0;    // answer this much later; the connection stays open meanwhile
    bool reset = false;  // after the delay, reset the connection instead of answering
};

using Handler = std::function<HttpAnswer(const HttpRequest&)>;

// Listens on 127.0.0.1:`port` (0 picks one), prints "port <n>" on stdout and serves forever.
// Returns only when the socket cannot be opened (exit code for main).
int serve(int port, const Handler& handler);

}  // namespace squawk::fakes
