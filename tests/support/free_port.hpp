// Loopback TCP ports for the processes the tests start: one to hand a process that binds it
// moments later, and whether a started process listens on its port yet.
#pragma once

namespace squawk::testing {

// A port free now, chosen below the kernel's ephemeral range: a port from that range (what
// binding port 0 hands out) can be taken as the local end of any outgoing connection before the
// daemon it was meant for binds it.
int free_port();

// Whether something accepts connections on loopback `port`.
bool is_listening(int port);

}  // namespace squawk::testing
