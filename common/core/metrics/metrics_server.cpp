#include "common/core/metrics/metrics_server.hpp"

#include "common/core/log/logger.hpp"
#include "common/core/metrics/registry.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

namespace squawk::metrics {
namespace {

constexpr size_t kMaxHeadBytes = 8192;

void send_all(int fd, const std::string& text) {
    size_t sent = 0;
    while (sent < text.size()) {
        const ssize_t n = ::send(fd, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) return;
        sent += static_cast<size_t>(n);
    }
}

std::string http_response(int status, const char* reason, const std::string& body) {
    return "HTTP/1.1 " + std::to_string(status) + " " + reason +
           "\r\nContent-Type: text/plain; version=0.0.4\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

}  // namespace

bool is_metrics_request(std::string_view head) {
    constexpr std::string_view prefix = "GET /metrics";
    if (!head.starts_with(prefix) || head.size() == prefix.size()) return false;
    const char next = head[prefix.size()];
    return next == ' ' || next == '?';
}

MetricsServer::MetricsServer(const std::string& host, int port) {
    listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listen_fd_ < 0) throw std::runtime_error("metrics: socket failed");
    const int yes = 1;
    setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    if (inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1 ||
        bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        listen(listen_fd_, 16) != 0) {
        const std::string why = std::strerror(errno);
        close(listen_fd_);
        throw std::runtime_error("metrics: cannot listen on " + host + ":" + std::to_string(port) +
                                 ": " + why);
    }
    socklen_t length = sizeof address;
    getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] { serve(); });
}

MetricsServer::~MetricsServer() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    close(listen_fd_);
}

void MetricsServer::serve() {
    while (!stop_) {
        pollfd ready{listen_fd_, POLLIN, 0};
        if (poll(&ready, 1, 200) <= 0) continue;
        const int client = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0) continue;
        answer(client);
        close(client);
    }
}

void MetricsServer::answer(int client) {
    // A scraper that stalls must not hold the only thread for long.
    const timeval timeout{2, 0};
    setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    std::string head;
    char buffer[1024];
    while (head.find("\r\n\r\n") == std::string::npos && head.size() < kMaxHeadBytes) {
        const ssize_t n = recv(client, buffer, sizeof buffer, 0);
        if (n <= 0) return;
        head.append(buffer, static_cast<size_t>(n));
    }
    if (is_metrics_request(head)) {
        send_all(client, http_response(200, "OK", Registry::global().render()));
    } else {
        send_all(client, http_response(404, "Not Found", "only GET /metrics is served here\n"));
    }
}

}  // namespace squawk::metrics
