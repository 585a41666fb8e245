#include "tests/fakes/loopback_http.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <queue>
#include <unordered_map>

namespace squawk::fakes {
namespace {

using Clock = std::chrono::steady_clock;

struct Connection {
    int fd = -1;
    std::string in;
    std::string out;
    bool close_after = false;
    int waiting = 0;  // answers scheduled but not yet due
};

struct Due {
    Clock::time_point at;
    int fd;
    long long generation;
    std::string bytes;
    bool reset;
    bool operator>(const Due& o) const { return at > o.at; }
};

const char* reason(int status) {
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
        case 401:
            return "Unauthorized";
        case 403:
            return "Forbidden";
        case 404:
            return "Not Found";
        case 429:
            return "Too Many Requests";
        case 500:
            return "Internal Server Error";
        case 502:
            return "Bad Gateway";
        case 503:
            return "Service Unavailable";
        default:
            return "Status";
    }
}

std::string encode(const HttpAnswer& a) {
    std::string out =
        "HTTP/1.1 " + std::to_string(a.status) + " " + reason(a.status) +
        "\r\nContent-Type: " + a.content_type + "\r\nContent-Length: " +
        std::to_string(a.head_length >= 0 ? a.head_length : static_cast<long long>(a.body.size())) +
        "\r\n";
    for (const auto& [name, value] : a.headers) out += name + ": " + value + "\r\n";
    return out + "\r\n" + a.body;
}

class Server {
  public:
    explicit Server(const Handler& handler) : handler_(handler) {}

    int run(int port) {
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
            std::perror("fake server: bind");
            return 1;
        }
        socklen_t len = sizeof addr;
        getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
        std::cout << "port " << ntohs(addr.sin_port) << std::endl;

        epoll_fd_ = epoll_create1(0);
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.fd = listener;
        epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listener, &ev);
        std::vector<epoll_event> events(1024);
        for (;;) {
            int timeout = -1;
            if (!due_.empty())
                timeout = static_cast<int>(std::max<long long>(
                    0, std::chrono::duration_cast<std::chrono::milliseconds>(due_.top().at -
                                                                             Clock::now())
                               .count() +
                           1));
            const int n =
                epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()), timeout);
            for (int i = 0; i < n; ++i) {
                const int fd = events[i].data.fd;
                if (fd == listener) {
                    accept_all(listener);
                    continue;
                }
                auto it = connections_.find(fd);
                if (it == connections_.end()) continue;
                Connection& c = it->second;
                if ((events[i].events & EPOLLIN) && !read_all(c)) {
                    close_connection(fd, false);
                    continue;
                }
                flush(c);
                if (c.close_after && c.out.empty() && c.waiting == 0) close_connection(fd, false);
            }
            fire_due();
        }
    }

  private:
    void accept_all(int listener) {
        int one = 1;
        for (;;) {
            const int client = accept4(listener, nullptr, nullptr, SOCK_NONBLOCK);
            if (client < 0) break;
            setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            epoll_event cev{};
            cev.events = EPOLLIN;
            cev.data.fd = client;
            epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, client, &cev);
            connections_[client] = Connection{client, {}, {}, false, 0};
        }
    }

    // False when the peer closed.
    bool read_all(Connection& c) {
        char buffer[65536];
        for (;;) {
            const ssize_t r = ::recv(c.fd, buffer, sizeof buffer, 0);
            if (r > 0) {
                c.in.append(buffer, static_cast<size_t>(r));
                continue;
            }
            if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) return false;
            break;
        }
        parse_requests(c);
        return true;
    }

    void parse_requests(Connection& c) {
        for (;;) {
            const auto end = c.in.find("\r\n\r\n");
            if (end == std::string::npos) return;
            const std::string head = c.in.substr(0, end);
            HttpRequest request;
            const size_t line_end = head.find("\r\n");
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
                    request.headers[name] = value;
                }
                if (next == std::string::npos) break;
                pos = next + 2;
            }
            size_t length = 0;
            if (auto it = request.headers.find("content-length"); it != request.headers.end())
                length = std::stoul(it->second);
            if (c.in.size() < end + 4 + length) return;
            request.body = c.in.substr(end + 4, length);
            c.in.erase(0, end + 4 + length);
            const auto sp1 = request_line.find(' ');
            const auto sp2 = request_line.find(' ', sp1 + 1);
            request.method = request_line.substr(0, sp1);
            request.target = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
            request.path = request.target.substr(0, request.target.find('?'));
            if (auto it = request.headers.find("connection");
                it != request.headers.end() && it->second == "close")
                c.close_after = true;
            auto reply = handler_(request);
            // A HEAD answer announces the body's length and sends none.
            if (request.method == "HEAD") {
                if (reply.head_length < 0)
                    reply.head_length = static_cast<long long>(reply.body.size());
                reply.body.clear();
            }
            answer(c, reply);
        }
    }

    void answer(Connection& c, const HttpAnswer& a) {
        std::string bytes = a.reset ? std::string() : encode(a);
        if (a.delay_ms > 0 || a.reset) {
            ++c.waiting;
            due_.push(Due{Clock::now() + std::chrono::milliseconds(a.delay_ms), c.fd,
                          generations_[c.fd], std::move(bytes), a.reset});
            return;
        }
        c.out += bytes;
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
        epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c.fd, &ev);
    }

    void close_connection(int fd, bool reset) {
        if (reset) {
            linger l{1, 0};  // RST instead of FIN
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
        }
        epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
        ::close(fd);
        connections_.erase(fd);
        ++generations_[fd];
    }

    void fire_due() {
        const auto now = Clock::now();
        while (!due_.empty() && due_.top().at <= now) {
            Due d = due_.top();
            due_.pop();
            auto it = connections_.find(d.fd);
            if (it == connections_.end() || generations_[d.fd] != d.generation) continue;
            --it->second.waiting;
            if (d.reset) {
                close_connection(d.fd, true);
                continue;
            }
            it->second.out += d.bytes;
            flush(it->second);
        }
    }

    const Handler& handler_;
    int epoll_fd_ = -1;
    std::unordered_map<int, Connection> connections_;
    std::unordered_map<int, long long> generations_;
    std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due_;
};

}  // namespace

std::string HttpRequest::query(const std::string& name) const {
    const auto q = target.find('?');
    if (q == std::string::npos) return {};
    const std::string rest = target.substr(q + 1);
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

std::map<std::string, std::string> HttpRequest::parameters() const {
    const auto question = target.find('?');
    auto out = question == std::string::npos
                   ? std::map<std::string, std::string>()
                   : form_decode(std::string_view(target).substr(question + 1));
    const auto type = headers.find("content-type");
    if (type != headers.end() && type->second.starts_with("application/x-www-form-urlencoded"))
        for (auto& [name, value] : form_decode(body)) out[name] = std::move(value);
    return out;
}

namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::string url_decode(std::string_view text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') {
            out += ' ';
        } else if (text[i] == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 &&
                   hex_value(text[i + 2]) >= 0) {
            out += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

std::string url_encode(std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~') {
            out += c;
        } else {
            out += '%';
            out += kHex[byte >> 4];
            out += kHex[byte & 15];
        }
    }
    return out;
}

std::map<std::string, std::string> form_decode(std::string_view text) {
    std::map<std::string, std::string> out;
    while (!text.empty()) {
        const auto amp = text.find('&');
        const auto pair = text.substr(0, amp);
        const auto eq = pair.find('=');
        if (!pair.empty())
            out[url_decode(pair.substr(0, eq))] =
                eq == std::string_view::npos ? "" : url_decode(pair.substr(eq + 1));
        text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
    }
    return out;
}

int serve(int port, const Handler& handler) {
    Server server(handler);
    return server.run(port);
}

}  // namespace squawk::fakes
