// The status of a job, as its row stores it and clients see it (spec 2.12): one closed set with
// one name table.
#pragma once

#include "common/core/names/wire_names.hpp"

namespace squawk::jobs {

// `scheduled`: waiting for its run_after before the first run (a scheduled post's publish).
enum class JobStatus { scheduled, queued, running, retrying, completed, failed, cancelled };

inline bool is_terminal(JobStatus s) {
    return s == JobStatus::completed || s == JobStatus::failed || s == JobStatus::cancelled;
}

inline std::span<const char* const> wire_names(JobStatus) {
    static constexpr const char* names[] = {"scheduled", "queued", "running",  "retrying",
                                            "completed", "failed", "cancelled"};
    return names;
}

}  // namespace squawk::jobs
