// Helper programs run by the workers (ffmpeg, espeak-ng, pocketsphinx): output and exit status
// come back, a missing program is a start error, and a program never outlives the process that
// started it, so a worker killed mid-render leaves nothing running that could still write files.
#include "common/core/process/subprocess.hpp"

#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
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
