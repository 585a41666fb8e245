// Loopback TCP ports for third-party servers the benchmarks start (nginx), which cannot report a
// port they picked: one to hand a server that binds it moments later, and whether it listens yet.
// Squawk's own daemons bind port 0 and report what they got (--port-file; see Stack).
#pragma once

namespace squawk::testing {

// A port free now, chosen below the kernel's ephemeral range: a port from that range (what
// binding port 0 hands out) can be taken as the local end of any outgoing connection before the
// daemon it was meant for binds it.
int free_port();

// Whether something accepts connections on loopback `port`.
bool is_listening(int port);

}  // namespace squawk::testing
