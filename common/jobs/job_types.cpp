#include "common/jobs/job_types.hpp"

namespace squawk::jobs {

std::optional<JobType> find_job_type(std::string_view name) {
    for (const JobType& t : {kTextToSpeech, kNoop})
        if (t.name == name) return t;
    return std::nullopt;
}

}  // namespace squawk::jobs
