#include "api/server/connection_writer.hpp"

#include "api/server/pistache_internals.hpp"

#include <sys/socket.h>

#include <cerrno>

namespace squawk::api {

void write_to_connection(Pistache::Tcp::Transport& transport, const Pistache::Tcp::Peer& peer,
                         std::string bytes) {
    const int fd = peer.fd();
    size_t sent = 0;
    if (!holds_writes_for(transport, fd)) {
        while (sent < bytes.size()) {
            const ssize_t n =
                ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n > 0) {
                sent += static_cast<size_t>(n);
            } else if (n == 0 || errno == EAGAIN || errno == EWOULDBLOCK) {
                break;
            } else if (errno != EINTR) {
                return;
            }
        }
    }
    if (sent == bytes.size()) return;
    bytes.erase(0, sent);
    const size_t rest = bytes.size();
    transport.asyncWrite(fd, Pistache::RawBuffer(std::move(bytes), rest));
}

void queue_file(Pistache::Tcp::Transport& transport, const Pistache::Tcp::Peer& peer,
                const Pistache::FileBuffer& file) {
    transport.asyncWrite(peer.fd(), file);
}

}  // namespace squawk::api
