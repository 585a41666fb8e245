#include "tests/support/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace squawk::testing {

std::string log_tail(const std::string& path, size_t bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "(no log)\n";
    std::stringstream all;
    all << in.rdbuf();
    const std::string text = all.str();
    return text.size() > bytes ? "..." + text.substr(text.size() - bytes) : text;
}
namespace {

using namespace std::chrono_literals;

int decode_status(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
}

// A bare command name is looked up in PATH, as a shell would; a path is used as it is.
std::string resolve_program(const std::string& name) {
    if (name.find('/') != std::string::npos) return name;
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    size_t start = 0;
    while (start <= dirs.size()) {
        const size_t end = std::min(dirs.find(':', start), dirs.size());
        const std::string candidate = dirs.substr(start, end - start) + "/" + name;
        if (access(candidate.c_str(), X_OK) == 0) return candidate;
        start = end + 1;
    }
    return name;
}

// Only async-signal-safe calls may run between fork and exec: everything is prepared before.
pid_t spawn(const std::vector<std::string>& argv, int out_fd, int err_fd) {
    if (argv.empty()) throw std::invalid_argument("empty command");
    const std::string program = resolve_program(argv[0]);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
        dup2(out_fd, STDOUT_FILENO);
        dup2(err_fd, STDERR_FILENO);
        const int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, STDIN_FILENO);
        // Sockets of the test process (MySQL, HTTP) must not live on in a daemon.
        close_range(3, ~0U, 0);
        execv(program.c_str(), args.data());
        _exit(127);
    }
    return pid;
}

std::optional<int> wait_for(pid_t pid, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        int status = 0;
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) return decode_status(status);
        if (done < 0 && errno != EINTR) return -1;
        if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
        std::this_thread::sleep_for(5ms);
    }
}

std::string read_all(std::FILE* file) {
    std::string text;
    std::rewind(file);
    char buffer[4096];
    size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, n);
    return text;
}

}  // namespace

CommandResult run_command(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
    std::FILE* out = std::tmpfile();
    std::FILE* err = std::tmpfile();
    if (!out || !err) throw std::runtime_error("tmpfile failed");
    CommandResult result;
    try {
        const pid_t pid = spawn(argv, fileno(out), fileno(err));
        auto code = wait_for(pid, timeout);
        if (!code) {
            kill(pid, SIGKILL);
            code = wait_for(pid, 10s);
        }
        result.exit_code = code.value_or(-1);
        result.out = read_all(out);
        result.err = read_all(err);
    } catch (...) {
        std::fclose(out);
        std::fclose(err);
        throw;
    }
    std::fclose(out);
    std::fclose(err);
    return result;
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::string& log_path) {
    const int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log < 0) throw std::runtime_error("cannot open " + log_path + ": " + std::strerror(errno));
    try {
        pid_ = spawn(argv, log, log);
    } catch (...) {
        close(log);
        throw;
    }
    close(log);
}

ChildProcess::~ChildProcess() {
    if (running()) stop(5s);
}

bool ChildProcess::running() {
    if (exit_code_) return false;
    exit_code_ = wait_for(pid_, 0ms);
    return !exit_code_;
}

void ChildProcess::signal(int signal_number) {
    if (running()) kill(pid_, signal_number);
}

std::optional<int> ChildProcess::wait_exit(std::chrono::milliseconds timeout) {
    if (!exit_code_) exit_code_ = wait_for(pid_, timeout);
    return exit_code_;
}

int ChildProcess::stop(std::chrono::milliseconds grace) {
    signal(SIGTERM);
    if (auto code = wait_exit(grace)) return *code;
    signal(SIGKILL);
    return wait_exit(10s).value_or(-1);
}

}  // namespace squawk::testing
