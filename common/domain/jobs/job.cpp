#include "common/domain/jobs/job.hpp"

#include <array>

namespace squawk::jobs {

namespace status {
bool is_known(std::string_view s) {
    static constexpr std::array all{scheduled, queued, running,  retrying,
                                    completed, failed, cancelled};
    for (const char* known : all)
        if (s == known) return true;
    return false;
}
bool is_terminal(std::string_view s) {
    return s == completed || s == failed || s == cancelled;
}
}  // namespace status

}  // namespace squawk::jobs
