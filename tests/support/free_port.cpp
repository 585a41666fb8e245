#include "tests/support/free_port.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <random>
#include <stdexcept>

namespace squawk::testing {
namespace {

// The lowest port the kernel hands out for outgoing connections.
int ephemeral_low() {
    std::ifstream in("/proc/sys/net/ipv4/ip_local_port_range");
    int low = 0;
    if (!(in >> low) || low <= 2048) return 32768;
    return low;
}

// Runs `use` on a fresh TCP socket and the loopback address of `port`; false when no socket.
template <class Use>
bool on_loopback(int port, Use use) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<uint16_t>(port));
    const bool done = use(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address);
    close(fd);
    return done;
}

bool can_bind(int port) {
    return on_loopback(port,
                       [](int fd, const sockaddr* a, socklen_t n) { return bind(fd, a, n) == 0; });
}

}  // namespace

int free_port() {
    const int high = ephemeral_low() - 1;
    const int low = std::max(1024, high - 12000);
    static thread_local std::mt19937 random{std::random_device{}()};
    std::uniform_int_distribution<int> pick(low, high);
    for (int attempt = 0; attempt < 200; ++attempt) {
        const int port = pick(random);
        if (can_bind(port)) return port;
    }
    throw std::runtime_error("cannot find a free port below the ephemeral range");
}

bool is_listening(int port) {
    return on_loopback(
        port, [](int fd, const sockaddr* a, socklen_t n) { return connect(fd, a, n) == 0; });
}

}  // namespace squawk::testing
