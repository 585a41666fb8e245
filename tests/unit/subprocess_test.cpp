// Helper programs run by the workers (ffmpeg, espeak-ng, pocketsphinx): output and exit status
// come back, a missing program is a start error, and a program never outlives the process that
// started it, so a worker killed mid-render leaves nothing running that could still write files.
#include "common/core/process/subprocess.hpp"

#include <catch2/catch.hpp>

#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

using namespace squawk::process;

namespace {

// Gone, or a zombie nobody reaped yet (PID 1 here reaps late).
bool process_gone(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!std::getline(stat, text)) return true;
    const size_t close = text.rfind(')');
    return close != std::string::npos && text.size() > close + 2 && text[close + 2] == 'Z';
}

}  // namespace

TEST_CASE("a program's exit status and error output come back, and a missing one cannot start") {
    SubprocessRequest request;
    request.argv = {"sh", "-c", "echo oops >&2; exit 3"};
    request.timeout = std::chrono::seconds(10);
    const auto result = run_subprocess(request);
    CHECK(result.exit_code == 3);
    CHECK(result.stderr_text.find("oops") != std::string::npos);

    request.argv = {"squawk-no-such-program"};
    CHECK_THROWS_AS(run_subprocess(request), SubprocessStartError);
    // Found, but its exec fails: the child reports why before it ends.
    request.argv = {"/dev/null"};
    CHECK_THROWS_WITH(run_subprocess(request), Catch::Contains("Permission denied"));
}

TEST_CASE(
    "a program starts with default signal handling and nothing blocked, whatever its "
    "starter's") {
    const auto status_file =
        std::filesystem::temp_directory_path() / ("squawk-status-" + std::to_string(getpid()));
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    struct sigaction previous_pipe {};
    sigaction(SIGPIPE, &ignore, &previous_pipe);
    sigset_t usr2, previous_mask;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    pthread_sigmask(SIG_BLOCK, &usr2, &previous_mask);

    SubprocessRequest request;
    request.argv = {"cat", "/proc/self/status"};
    request.stdout_path = status_file.string();
    request.timeout = std::chrono::seconds(10);
    const auto result = run_subprocess(request);
    pthread_sigmask(SIG_SETMASK, &previous_mask, nullptr);
    sigaction(SIGPIPE, &previous_pipe, nullptr);

    REQUIRE(result.exit_code == 0);
    std::ifstream status(status_file);
    std::map<std::string, unsigned long long> masks;
    for (std::string line; std::getline(status, line);)
        if (line.rfind("Sig", 0) == 0 && line.find(':') == 6)
            masks[line.substr(0, 6)] = std::stoull(line.substr(7), nullptr, 16);
    CHECK(masks.at("SigBlk") == 0);
    CHECK((masks.at("SigIgn") & (1ULL << (SIGPIPE - 1))) == 0);
    std::filesystem::remove(status_file);
}

TEST_CASE("a program dies with the process that started it") {
    const auto pid_file =
        std::filesystem::temp_directory_path() / ("squawk-child-" + std::to_string(getpid()));
    std::filesystem::remove(pid_file);
    const pid_t starter = fork();
    REQUIRE(starter >= 0);
    if (starter == 0) {
        SubprocessRequest request;
        request.argv = {"sh", "-c", "echo $$ > " + pid_file.string() + "; exec sleep 30"};
        request.timeout = std::chrono::seconds(60);
        run_subprocess(request);
        _exit(0);
    }
    pid_t child = 0;
    for (int i = 0; i < 100 && child == 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        std::ifstream(pid_file) >> child;
    }
    REQUIRE(child > 0);
    CHECK_FALSE(process_gone(child));
    kill(starter, SIGKILL);
    waitpid(starter, nullptr, 0);
    bool gone = false;
    for (int i = 0; i < 100 && !gone; ++i) {
        gone = process_gone(child);
        if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(gone);
    std::filesystem::remove(pid_file);
}
