#include "common/core/process/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace squawk::process {
namespace {

constexpr size_t kStderrLimit = 64 * 1024;

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

pid_t spawn(const SubprocessRequest& request, int stdin_fd, int stderr_fd) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, stdin_fd, STDIN_FILENO);
    if (request.stdout_path.empty())
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    else
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, request.stdout_path.c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, stderr_fd, STDERR_FILENO);

    // The child starts with default signal handling and an empty mask, whatever ours is.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t empty;
    sigemptyset(&empty);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigmask(&attributes, &empty);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    std::vector<char*> argv;
    for (const auto& a : request.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);

    pid_t pid = -1;
    const int rc = posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (rc != 0)
        throw SubprocessStartError("cannot start " + request.argv[0] + ": " + std::strerror(rc));
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
    int status = 0;
    for (;;) {
        pollfd fds[2];
        nfds_t count = 0;
        if (stderr_read.get() >= 0) fds[count++] = {stderr_read.get(), POLLIN, 0};
        if (stdin_write.get() >= 0) fds[count++] = {stdin_write.get(), POLLOUT, 0};
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
