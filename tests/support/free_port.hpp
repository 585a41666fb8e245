// A loopback TCP port for a process the tests start and that binds it moments later.
#pragma once

namespace squawk::testing {

// A port free now, chosen below the kernel's ephemeral range: a port from that range (what
// binding port 0 hands out) can be taken as the local end of any outgoing connection before the
// daemon it was meant for binds it.
int free_port();

}  // namespace squawk::testing
