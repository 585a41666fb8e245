#include "api/server/pistache_internals.hpp"

#include <mutex>

namespace squawk::api {
namespace {

// An explicit instantiation may name a private member (C++20 [temp.spec.general]/6); a member
// whose type is private too is deduced.
template <typename Tag, auto Member>
struct ExposeMember {
    friend constexpr auto member_of(Tag) { return Member; }
};

struct HandlerTransport {
    friend constexpr auto member_of(HandlerTransport);
};
struct WaitingWrites {
    friend constexpr auto member_of(WaitingWrites);
};
struct WaitingWritesLock {
    friend constexpr auto member_of(WaitingWritesLock);
};

template struct ExposeMember<HandlerTransport, &Pistache::Tcp::Handler::transport_>;
template struct ExposeMember<WaitingWrites, &Pistache::Tcp::Transport::toWrite>;
template struct ExposeMember<WaitingWritesLock, &Pistache::Tcp::Transport::toWriteLock>;

}  // namespace

void use_transport(Pistache::Tcp::Handler& handler, Pistache::Tcp::Transport* transport) {
    handler.*member_of(HandlerTransport{}) = transport;
}

bool holds_writes_for(Pistache::Tcp::Transport& transport, int fd) {
    transport.flush();
    std::lock_guard guard(transport.*member_of(WaitingWritesLock{}));
    // Pistache leaves a connection's list of waiting writes behind empty once it is written.
    const auto& waiting = transport.*member_of(WaitingWrites{});
    const auto found = waiting.find(fd);
    return found != waiting.end() && !found->second.empty();
}

}  // namespace squawk::api
