// Wall-clock time since a steady-clock start, in seconds: what the throughput run and the latency
// probes both time with.
#pragma once

#include <chrono>

namespace squawk::bench::cluster {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace squawk::bench::cluster
