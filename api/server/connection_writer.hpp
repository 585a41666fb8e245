// Writing an answer's bytes onto its connection. Pistache queues every write for the reactor's
// next turn: a wake-up through its event fd, two epoll_ctl calls to watch for and stop watching
// for writability, and a turn of the loop, around the one send that does the work
// (docs/profiling.md). An answer is sent at once instead when nothing waits before it.
#pragma once

#include <pistache/peer.h>
#include <pistache/stream.h>
#include <pistache/transport.h>

#include <string>

namespace squawk::api {

// Sends `bytes` now, or behind what Pistache still holds for the connection; what the socket does
// not take at once is queued to Pistache, which writes it when the socket has room. A client that
// has gone loses its answer, as with Pistache's own writes.
void write_to_connection(Pistache::Tcp::Transport& transport, const Pistache::Tcp::Peer& peer,
                         std::string bytes);

// Queues a file's bytes after everything written before; Pistache sends it with sendfile.
void queue_file(Pistache::Tcp::Transport& transport, const Pistache::Tcp::Peer& peer,
                const Pistache::FileBuffer& file);

}  // namespace squawk::api
