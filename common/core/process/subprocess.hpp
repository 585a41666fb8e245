// Runs a helper program (espeak-ng, later ffmpeg) with posix_spawn: input on stdin, never on the
// command line; stderr kept for the error message; killed on timeout or when asked to stop.
#pragma once

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

namespace squawk::process {

// The program could not be started at all (missing binary, no resources).
class SubprocessStartError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct SubprocessRequest {
    std::vector<std::string> argv;  // argv[0] is looked up in PATH
    std::string stdin_data;
    // Where the child's standard output goes, created or truncated; empty: it is discarded.
    std::string stdout_path;
    std::chrono::milliseconds timeout{60000};
    const std::atomic<bool>* stop = nullptr;  // when it turns true the child is killed
};

struct SubprocessResult {
    int exit_code = -1;  // -1 when killed or ended by a signal
    bool timed_out = false;
    bool stopped = false;     // killed because `stop` turned true
    std::string stderr_text;  // first 64 KiB
};

// Blocks until the child ends; call it from a plain thread (a worker's BlockingExecutor), never
// from a fiber.
SubprocessResult run_subprocess(const SubprocessRequest& request);

}  // namespace squawk::process
