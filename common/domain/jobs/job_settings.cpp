#include "common/domain/jobs/job_settings.hpp"

#include "common/core/config/section_schema.hpp"

namespace squawk::config {

SectionSchema<JobSettings> jobs_schema() {
    using S = JobSettings;
    return {{
                integer("max_attempts", &S::max_attempts, 1, 50),
                real("backoff_base_seconds", &S::backoff_base_seconds, 0.001, 3600),
                real("backoff_max_seconds", &S::backoff_max_seconds, 0.001, 86400),
                integer("lease_seconds", &S::lease_seconds, 1, 3600),
            },
            [](S& jobs, const std::string& section) {
                if (jobs.backoff_max_seconds < jobs.backoff_base_seconds)
                    bad_value(section + ".backoff_max_seconds",
                              "must not be below " + section + ".backoff_base_seconds");
            }};
}

}  // namespace squawk::config
