// The job types Squawk runs and the worker pool that runs each.
#pragma once

#include <optional>
#include <string_view>

namespace squawk::jobs {

struct JobType {
    std::string_view name;
    std::string_view pool;
};

inline constexpr JobType kTextToSpeech{"audio.text_to_speech", "generate"};
// Does nothing; measures the job path itself (benchmarks, chaos runs).
inline constexpr JobType kNoop{"noop", "generate"};

std::optional<JobType> find_job_type(std::string_view name);

}  // namespace squawk::jobs
