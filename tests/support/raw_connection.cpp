#include "tests/support/raw_connection.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

namespace squawk::testing {

RawConnection::RawConnection(const std::string& base_url, int receive_buffer_bytes) {
    const size_t colon = base_url.rfind(':');
    const int port = std::stoi(base_url.substr(colon + 1));
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    // Set before connecting, so the window the client offers is small from the start.
    if (fd_ >= 0 && receive_buffer_bytes > 0)
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer_bytes,
                     sizeof receive_buffer_bytes);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
        throw std::runtime_error("cannot connect to " + base_url);
}

RawConnection::~RawConnection() {
    close();
}

void RawConnection::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

void RawConnection::send(std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw std::runtime_error("the server closed the connection");
        bytes.remove_prefix(static_cast<size_t>(n));
    }
}

RawConnection::Read RawConnection::receive(std::chrono::steady_clock::time_point deadline) {
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return Read::timed_out;
        pollfd p{fd_, POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return Read::timed_out;
        char buffer[65536];
        const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return Read::closed;
        received_.append(buffer, static_cast<size_t>(n));
        return Read::data;
    }
}

std::string RawConnection::read_until(std::string_view marker, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (received_.find(marker) == std::string::npos && receive(deadline) == Read::data) {
    }
    const size_t at = received_.find(marker);
    const size_t end = at == std::string::npos ? received_.size() : at + marker.size();
    std::string out = received_.substr(0, end);
    received_.erase(0, end);
    return out;
}

std::string RawConnection::read_response(std::chrono::milliseconds timeout) {
    std::string head = read_until("\r\n\r\n", timeout);
    const size_t at = head.find("Content-Length: ");
    if (at == std::string::npos) return head;
    size_t length = std::stoul(head.substr(at + 16));
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (received_.size() < length && receive(deadline) == Read::data) {
    }
    length = std::min(length, received_.size());
    head += received_.substr(0, length);
    received_.erase(0, length);
    return head;
}

RawConnection::Ending RawConnection::read_to_close(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    Read last;
    do last = receive(deadline);
    while (last == Read::data);
    Ending ending{std::move(received_), last == Read::closed};
    received_.clear();
    return ending;
}

}  // namespace squawk::testing
