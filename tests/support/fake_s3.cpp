#include "tests/support/fake_s3.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace squawk::testing {
namespace {

std::string from_environment(const char* name, const std::string& fallback) {
    const char* value = std::getenv(name);
    return value && *value ? value : fallback;
}

std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Held while the packages are installed, so parallel test processes do not install at once.
class InstallLock {
  public:
    explicit InstallLock(const std::filesystem::path& file)
        : fd_(::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
        if (fd_ < 0 || ::flock(fd_, LOCK_EX) != 0)
            throw std::runtime_error("cannot lock " + file.string());
    }
    ~InstallLock() { ::close(fd_); }
    InstallLock(const InstallLock&) = delete;
    InstallLock& operator=(const InstallLock&) = delete;

  private:
    int fd_;
};

// The folder the server runs from: the launcher and its node_modules, installed from the
// committed lock file into the build tree (never into the source tree) and kept between runs.
std::filesystem::path installed_server() {
    const std::filesystem::path source =
        std::filesystem::path(from_environment("SQUAWK_SOURCE_DIR", SQUAWK_SOURCE_DIR_DEFAULT)) /
        "tests" / "fakes" / "s3";
    const std::filesystem::path dir =
        std::filesystem::path(from_environment("SQUAWK_BIN_DIR", SQUAWK_BIN_DIR_DEFAULT)) / ".." /
        "fake_s3";
    for (const char* tool : {"node", "npm"})
        if (run_command({"sh", "-c", std::string("command -v ") + tool}).exit_code != 0)
            throw std::runtime_error(std::string(tool) +
                                     " is missing: the S3 tests need Node.js (scripts/deps.sh)");
    std::filesystem::create_directories(dir);
    InstallLock lock(dir / ".install.lock");
    const auto copy = std::filesystem::copy_options::overwrite_existing;
    std::filesystem::copy_file(source / "s3_server.cjs", dir / "s3_server.cjs", copy);
    const bool current =
        std::filesystem::exists(dir / "node_modules" / "s3rver" / "package.json") &&
        std::filesystem::exists(dir / "package-lock.json") &&
        read_text(dir / "package-lock.json") == read_text(source / "package-lock.json");
    if (!current) {
        std::filesystem::copy_file(source / "package.json", dir / "package.json", copy);
        std::filesystem::copy_file(source / "package-lock.json", dir / "package-lock.json", copy);
        const auto installed = run_command(
            {"npm", "ci", "--prefix", dir.string(), "--no-audit", "--no-fund", "--loglevel=error"},
            std::chrono::minutes(5));
        if (installed.exit_code != 0) {
            std::filesystem::remove(dir / "package-lock.json");
            throw std::runtime_error("npm ci for the fake S3 server failed: " + installed.err);
        }
    }
    return dir;
}

}  // namespace

FakeS3::FakeS3(std::string bucket) : bucket_(std::move(bucket)), data_("squawk-fake-s3-") {
    const auto dir = installed_server();
    log_path_ = (data_.path() / "server.log").string();
    std::filesystem::create_directories(data_.path() / "objects");
    process_ = std::make_unique<ChildProcess>(
        std::vector<std::string>{"node", (dir / "s3_server.cjs").string(),
                                 (data_.path() / "objects").string(), bucket_},
        log_path_);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (port_ == 0 && std::chrono::steady_clock::now() < deadline && process_->running()) {
        std::ifstream in(log_path_);
        std::string word;
        int port = 0;
        if (in >> word >> port && word == "port")
            port_ = port;
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (port_ == 0)
        throw std::runtime_error("the fake S3 server did not start: " + read_text(log_path_));
}

FakeS3::~FakeS3() {
    process_->stop(std::chrono::milliseconds(1000));
}

std::string FakeS3::endpoint() const {
    return "http://127.0.0.1:" + std::to_string(port_);
}

}  // namespace squawk::testing
