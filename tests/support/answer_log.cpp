#include "tests/support/answer_log.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <mutex>

namespace squawk::testing {

void log_answer(const std::string& method, const std::string& path, const HttpResponse& response) {
    static const char* dir = std::getenv("SQUAWK_RESPONSE_LOG");
    if (!dir || !*dir) return;
    const nlohmann::json record = {{"method", method},
                                   {"path", path},
                                   {"status", response.status},
                                   {"content_type", response.header("content-type")},
                                   {"body", response.body}};
    // One file per test process; requests sent from several threads append whole lines.
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    std::ofstream out(std::string(dir) + "/" + std::to_string(getpid()) + ".jsonl", std::ios::app);
    out << record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace squawk::testing
