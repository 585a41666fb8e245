// Log lines: one JSON object per line on stdout, routine lines batched when asked, warnings and
// errors written at once after whatever waits.
#include "common/core/log/logger.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace squawk;

namespace {

// Points stdout at a file for the life of the object.
class CapturedStdout {
  public:
    CapturedStdout()
        : path_(std::filesystem::temp_directory_path() /
                ("squawk-logger-test-" + std::to_string(getpid()))) {
        std::fflush(stdout);
        saved_ = dup(fileno(stdout));
        REQUIRE(std::freopen(path_.c_str(), "w", stdout) != nullptr);
    }
    ~CapturedStdout() {
        std::fflush(stdout);
        dup2(saved_, fileno(stdout));
        close(saved_);
        std::remove(path_.c_str());
    }
    std::vector<nlohmann::json> lines() const {
        std::ifstream in(path_);
        std::vector<nlohmann::json> out;
        for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
        return out;
    }

  private:
    std::string path_;
    int saved_ = -1;
};

}  // namespace

TEST_CASE("a log line is one JSON object with time, level, component, message and the fields",
          "[unit][log]") {
    CapturedStdout out;
    log::set_level("info");
    log::info("request", {{"request_id", "req_1"}, {"status", 200}, {"bad", "\xff"}});
    log::flush();
    const auto lines = out.lines();
    REQUIRE(lines.size() == 1);
    CHECK(lines[0]["level"] == "info");
    CHECK(lines[0]["msg"] == "request");
    CHECK(lines[0]["request_id"] == "req_1");
    CHECK(lines[0]["status"] == 200);
    CHECK(lines[0].contains("ts"));
    CHECK(lines[0].contains("component"));
}

TEST_CASE("batched routine lines wait, and a warning writes them first, then itself",
          "[unit][log]") {
    CapturedStdout out;
    log::set_level("info");
    log::buffer_routine_lines(std::chrono::seconds(30));
    log::info("first");
    log::info("second");
    CHECK(out.lines().empty());
    log::warn("trouble");
    const auto lines = out.lines();
    REQUIRE(lines.size() == 3);
    CHECK(lines[0]["msg"] == "first");
    CHECK(lines[1]["msg"] == "second");
    CHECK(lines[2]["msg"] == "trouble");
}
