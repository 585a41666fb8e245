#include "common/core/process/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

extern char** environ;

namespace squawk::process {
namespace {

constexpr size_t kStderrLimit = 64 * 1024;
// The child runs on it from clone to exec: a few system calls, none deep.
constexpr size_t kChildStackBytes = 64 * 1024;

class Fd {
  public:
    Fd() = default;
    ~Fd() { reset(); }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }
    void reset(int fd = -1) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = fd;
    }

  private:
    int fd_ = -1;
};

void make_pipe(Fd& read_end, Fd& write_end) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw SubprocessStartError(std::string("pipe failed: ") + std::strerror(errno));
    read_end.reset(fds[0]);
    write_end.reset(fds[1]);
}

// A child that died writing to us must not kill this process with SIGPIPE: the signal is
// blocked on this thread while the child runs, and a pending one is consumed afterwards.
class SigpipeBlock {
  public:
    SigpipeBlock() {
        sigemptyset(&set_);
        sigaddset(&set_, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &set_, &previous_);
    }
    ~SigpipeBlock() {
        const timespec zero{0, 0};
        while (sigtimedwait(&set_, nullptr, &zero) > 0) {
        }
        pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
    }

  private:
    sigset_t set_;
    sigset_t previous_;
};

// The program's path as execvp would find it, resolved before forking: the child may only make
// async-signal-safe calls.
std::string resolve_program(const std::string& program) {
    if (program.find('/') != std::string::npos) return program;
    const char* path = std::getenv("PATH");
    std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    while (true) {
        const size_t colon = dirs.find(':');
        const std::string dir(dirs.substr(0, colon));
        const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
        if (colon == std::string_view::npos) break;
        dirs.remove_prefix(colon + 1);
    }
    throw SubprocessStartError("cannot start " + program + ": not found on PATH");
}

// What the child needs, all prepared before it starts: until its exec it shares this process's
// memory, so it may only make system calls, and it reports a failure here.
struct ChildStart {
    const char* program;
    char* const* argv;
    const char* stdout_path;
    int stdout_flags;
    int stdin_fd;
    int stderr_fd;
    pid_t parent;
    int error = 0;  // errno of the step that failed
};

// Not instrumented by AddressSanitizer: its frames live on a borrowed stack that never returns.
__attribute__((no_sanitize("address"))) int start_child(void* arg) {
    auto& start = *static_cast<ChildStart*>(arg);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != start.parent) ::_exit(127);  // the parent died before the line above
    // Every signal is blocked until here. A handler of ours must not run in the memory the child
    // still shares, and the program starts with default handling and an empty mask, whatever
    // ours is.
    for (int number = 1; number < NSIG; ++number) {
        struct sigaction action {};
        if (::sigaction(number, nullptr, &action) != 0) continue;
        if (number == SIGPIPE || (action.sa_handler != SIG_DFL && action.sa_handler != SIG_IGN)) {
            action = {};
            action.sa_handler = SIG_DFL;
            ::sigaction(number, &action, nullptr);
        }
    }
    sigset_t empty;
    sigemptyset(&empty);
    ::sigprocmask(SIG_SETMASK, &empty, nullptr);
    const int out = ::open(start.stdout_path, start.stdout_flags, 0600);
    if (::dup2(start.stdin_fd, STDIN_FILENO) < 0 || out < 0 || ::dup2(out, STDOUT_FILENO) < 0 ||
        ::dup2(start.stderr_fd, STDERR_FILENO) < 0) {
        start.error = errno;
        ::_exit(127);
    }
    ::execve(start.program, start.argv, environ);
    start.error = errno;
    ::_exit(127);
}

// Starts the program with the child killed when this thread's process dies (PR_SET_PDEATHSIG): a
// worker killed mid-render must not leave an ffmpeg behind still writing the file a later attempt
// of the job already cleaned away. posix_spawn cannot ask for that, so this does what it does:
// the child shares our memory until its exec (CLONE_VM, CLONE_VFORK), while this thread waits. A
// fork would copy the page tables of a worker holding thousands of fiber stacks, then make each
// of its pages fault again at its next write (copy-on-write), a burst's worth of page faults.
pid_t spawn(const SubprocessRequest& request, int stdin_fd, int stderr_fd) {
    const std::string program = resolve_program(request.argv[0]);
    std::vector<char*> argv;
    for (const auto& a : request.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ChildStart start{program.c_str(),
                     argv.data(),
                     request.stdout_path.empty() ? "/dev/null" : request.stdout_path.c_str(),
                     request.stdout_path.empty() ? O_WRONLY : O_WRONLY | O_CREAT | O_TRUNC,
                     stdin_fd,
                     stderr_fd,
                     ::getpid()};
    std::vector<char> child_stack(kChildStackBytes);

    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    const pid_t pid = ::clone(start_child, child_stack.data() + child_stack.size(),
                              CLONE_VM | CLONE_VFORK | SIGCHLD, &start);
    const int clone_error = errno;
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);

    if (pid < 0)
        throw SubprocessStartError(std::string("cannot start a process: ") +
                                   std::strerror(clone_error));
    if (start.error != 0) {
        int ignored = 0;
        ::waitpid(pid, &ignored, 0);
        throw SubprocessStartError("cannot start " + request.argv[0] + ": " +
                                   std::strerror(start.error));
    }
    return pid;
}

int exit_code_of(int status) {
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

SubprocessResult run_subprocess(const SubprocessRequest& request) {
    if (request.argv.empty()) throw SubprocessStartError("no program given");
    SigpipeBlock sigpipe_block;
    Fd stdin_read, stdin_write, stderr_read, stderr_write;
    make_pipe(stdin_read, stdin_write);
    make_pipe(stderr_read, stderr_write);
    const pid_t pid = spawn(request, stdin_read.get(), stderr_write.get());
    stdin_read.reset();
    stderr_write.reset();
    ::fcntl(stdin_write.get(), F_SETFL, O_NONBLOCK);
    ::fcntl(stderr_read.get(), F_SETFL, O_NONBLOCK);

    SubprocessResult result;
    size_t written = 0;
    if (request.stdin_data.empty()) stdin_write.reset();
    const auto deadline = std::chrono::steady_clock::now() + request.timeout;
    // Readable once the child has exited, so its end is seen at once rather than at the next
    // check; without pidfds (Linux before 5.3) the loop checks every 50 ms.
    Fd exited;
    exited.reset(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
    int status = 0;
    for (;;) {
        pollfd fds[3];
        nfds_t count = 0;
        if (stderr_read.get() >= 0) fds[count++] = {stderr_read.get(), POLLIN, 0};
        if (stdin_write.get() >= 0) fds[count++] = {stdin_write.get(), POLLOUT, 0};
        if (exited.get() >= 0) fds[count++] = {exited.get(), POLLIN, 0};
        ::poll(fds, count, 50);

        if (stdin_write.get() >= 0) {
            const ssize_t n = ::write(stdin_write.get(), request.stdin_data.data() + written,
                                      request.stdin_data.size() - written);
            if (n > 0) written += static_cast<size_t>(n);
            // EPIPE: the child stopped reading; its exit status tells why.
            if (written == request.stdin_data.size() || (n < 0 && errno != EAGAIN))
                stdin_write.reset();
        }
        if (stderr_read.get() >= 0) {
            char buffer[4096];
            const ssize_t n = ::read(stderr_read.get(), buffer, sizeof buffer);
            if (n > 0 && result.stderr_text.size() < kStderrLimit)
                result.stderr_text.append(
                    buffer, std::min<size_t>(n, kStderrLimit - result.stderr_text.size()));
            if (n == 0 || (n < 0 && errno != EAGAIN)) stderr_read.reset();
        }

        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid) {
            result.exit_code = exit_code_of(status);
            break;
        }
        const bool stop = request.stop && request.stop->load();
        if (stop || std::chrono::steady_clock::now() >= deadline) {
            ::kill(pid, SIGKILL);
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            result.stopped = stop;
            result.timed_out = !stop;
            result.exit_code = -1;
            break;
        }
    }
    if (stderr_read.get() >= 0) {
        char buffer[4096];
        ssize_t n;
        while ((n = ::read(stderr_read.get(), buffer, sizeof buffer)) > 0 &&
               result.stderr_text.size() < kStderrLimit)
            result.stderr_text.append(
                buffer, std::min<size_t>(n, kStderrLimit - result.stderr_text.size()));
    }
    return result;
}

}  // namespace squawk::process
