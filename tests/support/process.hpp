// Child processes for end-to-end tests: daemons whose output goes to a log file for post-mortems,
// and short commands (squawkctl, scripts) whose output is captured.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace squawk::testing {

struct CommandResult {
    int exit_code = -1;  // 128 + signal number when the command died of a signal
    std::string out;
    std::string err;
};

// Runs `argv` to completion; a command still running after `timeout` is killed (exit 128+9).
CommandResult run_command(const std::vector<std::string>& argv,
                          std::chrono::milliseconds timeout = std::chrono::seconds(60));

// The last `bytes` of the log at `path` (for post-mortems), or a note that there is none.
std::string log_tail(const std::string& path, size_t bytes = 3000);

class ChildProcess {
  public:
    // Starts `argv` with stdout and stderr appended to `log_path`. The child is killed if the test
    // process dies first, so a crashed test leaves no daemon behind.
    ChildProcess(const std::vector<std::string>& argv, const std::string& log_path);
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    pid_t pid() const { return pid_; }
    bool running();
    void signal(int signal_number);
    // The exit code (128 + signal when killed), or nothing if it is still running at the deadline.
    std::optional<int> wait_exit(std::chrono::milliseconds timeout);
    // SIGTERM, then SIGKILL after `grace`; returns the exit code.
    int stop(std::chrono::milliseconds grace);

  private:
    pid_t pid_ = -1;
    std::optional<int> exit_code_;
};

}  // namespace squawk::testing
