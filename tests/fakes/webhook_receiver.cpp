// A programmable webhook receiver for tests and benchmarks: a one-thread epoll HTTP/1.1 server on
// loopback that answers each path from a programmed sequence (status, delay, Retry-After,
// connection reset), then a default, and records every request so tests can check signatures.
//
// Control API (same port): POST /_control/program {"path", "responses": [...], "default": {...}}
// where a response is {"status", "delay_ms", "retry_after", "reset", "body"};
// GET /_control/requests?path=P (recorded requests); GET /_control/count; POST /_control/clear.
// Usage: fake_webhook_receiver [--port N] [--record false]; prints "port <n>" on stdout.
#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <deque>
#include <iostream>
#include <map>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

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

struct Connection {
    int fd = -1;
    std::string in;
    std::string out;
    bool close_after = false;
    int waiting = 0;  // responses scheduled but not yet due
};

struct Due {
    Clock::time_point at;
    int fd;
    long long generation;
    std::string bytes;
    bool reset;
    bool operator>(const Due& o) const { return at > o.at; }
};

std::map<std::string, Program> programs;
nlohmann::json recorded = nlohmann::json::array();
long long total_requests = 0;
bool record = true;
std::unordered_map<int, Connection> connections;
std::unordered_map<int, long long> generations;
std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due;
int epoll_fd = -1;

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

std::string reason(int status) {
    switch (status) {
        case 200:
            return "OK";
        case 201:
            return "Created";
        case 204:
            return "No Content";
        case 301:
            return "Moved Permanently";
        case 302:
            return "Found";
        case 400:
            return "Bad Request";
        case 404:
            return "Not Found";
        case 429:
            return "Too Many Requests";
        case 500:
            return "Internal Server Error";
        case 503:
            return "Service Unavailable";
        default:
            return "Status";
    }
}

std::string response(int status, const std::string& body, const std::string& extra = "") {
    return "HTTP/1.1 " + std::to_string(status) + " " + reason(status) +
           "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\n" + extra + "\r\n" + body;
}

void close_connection(int fd, bool reset) {
    if (reset) {
        linger l{1, 0};  // RST instead of FIN
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    }
    epoll_ctl(epoll_fd, EPOLL_CTL_DEL, fd, nullptr);
    ::close(fd);
    connections.erase(fd);
    ++generations[fd];
}

void flush(Connection& c) {
    while (!c.out.empty()) {
        const ssize_t n = ::send(c.fd, c.out.data(), c.out.size(), MSG_NOSIGNAL);
        if (n <= 0) break;
        c.out.erase(0, static_cast<size_t>(n));
    }
    epoll_event ev{};
    ev.events = EPOLLIN | (c.out.empty() ? 0u : static_cast<unsigned>(EPOLLOUT));
    ev.data.fd = c.fd;
    epoll_ctl(epoll_fd, EPOLL_CTL_MOD, c.fd, &ev);
}

std::string query_value(const std::string& target, const std::string& name) {
    const auto q = target.find('?');
    if (q == std::string::npos) return {};
    std::string rest = target.substr(q + 1);
    size_t start = 0;
    while (start <= rest.size()) {
        const auto amp = rest.find('&', start);
        const std::string item =
            rest.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
        if (item.rfind(name + "=", 0) == 0) return item.substr(name.size() + 1);
        if (amp == std::string::npos) break;
        start = amp + 1;
    }
    return {};
}

// Returns the bytes to send now, or schedules them; false when the connection must close.
void handle(Connection& c, const std::string& method, const std::string& target,
            const std::map<std::string, std::string>& headers, const std::string& body) {
    const std::string path = target.substr(0, target.find('?'));
    if (path == "/_control/program" && method == "POST") {
        const auto j = nlohmann::json::parse(body, nullptr, false);
        Program p;
        for (const auto& a : j.value("responses", nlohmann::json::array()))
            p.sequence.push_back(parse_answer(a));
        p.fallback = parse_answer(j.value("default", nlohmann::json::object()));
        programs[j.value("path", "/")] = p;
        c.out += response(200, "{}");
        return;
    }
    if (path == "/_control/requests") {
        const std::string want = query_value(target, "path");
        nlohmann::json out = nlohmann::json::array();
        for (const auto& r : recorded)
            if (want.empty() || r["path"] == want) out.push_back(r);
        c.out += response(200, out.dump());
        return;
    }
    if (path == "/_control/count") {
        c.out += response(200, nlohmann::json{{"total", total_requests}}.dump());
        return;
    }
    if (path == "/_control/clear" && method == "POST") {
        recorded = nlohmann::json::array();
        total_requests = 0;
        programs.clear();
        c.out += response(200, "{}");
        return;
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
        for (const auto& [k, v] : headers) h[k] = v;
        recorded.push_back(
            {{"path", path},
             {"method", method},
             {"headers", h},
             {"body", body},
             {"status_sent", a.reset ? 0 : a.status},
             {"received_at_ms", std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::system_clock::now().time_since_epoch())
                                    .count()}});
    }
    std::string extra;
    if (!a.retry_after.empty()) extra += "Retry-After: " + a.retry_after + "\r\n";
    if (a.status >= 300 && a.status < 400) extra += "Location: http://127.0.0.1:1/elsewhere\r\n";
    std::string bytes = a.reset ? std::string() : response(a.status, a.body, extra);
    if (a.delay_ms > 0 || a.reset) {
        ++c.waiting;
        due.push(Due{Clock::now() + std::chrono::milliseconds(a.delay_ms), c.fd, generations[c.fd],
                     std::move(bytes), a.reset});
        return;
    }
    c.out += bytes;
}

void parse_requests(Connection& c) {
    for (;;) {
        const auto end = c.in.find("\r\n\r\n");
        if (end == std::string::npos) return;
        const std::string head = c.in.substr(0, end);
        std::map<std::string, std::string> headers;
        size_t line_end = head.find("\r\n");
        const std::string request_line = head.substr(0, line_end);
        size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
        while (pos < head.size()) {
            const auto next = head.find("\r\n", pos);
            const std::string line =
                head.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
            const auto colon = line.find(':');
            if (colon != std::string::npos) {
                std::string name = line.substr(0, colon);
                for (char& ch : name)
                    ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
                std::string value = line.substr(colon + 1);
                while (!value.empty() && value.front() == ' ') value.erase(0, 1);
                headers[name] = value;
            }
            if (next == std::string::npos) break;
            pos = next + 2;
        }
        size_t length = 0;
        if (auto it = headers.find("content-length"); it != headers.end())
            length = std::stoul(it->second);
        if (c.in.size() < end + 4 + length) return;
        const std::string body = c.in.substr(end + 4, length);
        c.in.erase(0, end + 4 + length);
        const auto sp1 = request_line.find(' ');
        const auto sp2 = request_line.find(' ', sp1 + 1);
        const std::string method = request_line.substr(0, sp1);
        const std::string target = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
        if (auto it = headers.find("connection"); it != headers.end() && it->second == "close")
            c.close_after = true;
        handle(c, method, target, headers, body);
    }
}

void fire_due() {
    const auto now = Clock::now();
    while (!due.empty() && due.top().at <= now) {
        Due d = due.top();
        due.pop();
        auto it = connections.find(d.fd);
        if (it == connections.end() || generations[d.fd] != d.generation) continue;
        --it->second.waiting;
        if (d.reset) {
            close_connection(d.fd, true);
            continue;
        }
        it->second.out += d.bytes;
        flush(it->second);
    }
}

}  // namespace

int main(int argc, char** argv) {
    int port = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--port") port = std::atoi(argv[i + 1]);
        if (flag == "--record") record = std::string(argv[i + 1]) != "false";
    }
    signal(SIGPIPE, SIG_IGN);
    const int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    if (bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        listen(listener, 4096) != 0) {
        std::perror("fake_webhook_receiver: bind");
        return 1;
    }
    socklen_t len = sizeof addr;
    getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
    std::cout << "port " << ntohs(addr.sin_port) << std::endl;

    epoll_fd = epoll_create1(0);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = listener;
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, listener, &ev);
    std::vector<epoll_event> events(1024);
    for (;;) {
        int timeout = -1;
        if (!due.empty())
            timeout = static_cast<int>(std::max<long long>(
                0,
                std::chrono::duration_cast<std::chrono::milliseconds>(due.top().at - Clock::now())
                        .count() +
                    1));
        const int n = epoll_wait(epoll_fd, events.data(), static_cast<int>(events.size()), timeout);
        for (int i = 0; i < n; ++i) {
            const int fd = events[i].data.fd;
            if (fd == listener) {
                for (;;) {
                    const int client = accept4(listener, nullptr, nullptr, SOCK_NONBLOCK);
                    if (client < 0) break;
                    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    epoll_event cev{};
                    cev.events = EPOLLIN;
                    cev.data.fd = client;
                    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, client, &cev);
                    connections[client] = Connection{client, {}, {}, false, 0};
                }
                continue;
            }
            auto it = connections.find(fd);
            if (it == connections.end()) continue;
            Connection& c = it->second;
            if (events[i].events & EPOLLIN) {
                char buffer[65536];
                bool closed = false;
                for (;;) {
                    const ssize_t r = ::recv(fd, buffer, sizeof buffer, 0);
                    if (r > 0) {
                        c.in.append(buffer, static_cast<size_t>(r));
                        continue;
                    }
                    if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) closed = true;
                    break;
                }
                if (closed) {
                    close_connection(fd, false);
                    continue;
                }
                parse_requests(c);
            }
            flush(c);
            if (c.close_after && c.out.empty() && c.waiting == 0) close_connection(fd, false);
        }
        fire_due();
    }
}
