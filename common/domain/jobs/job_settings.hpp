// How jobs are retried and leased. Section [jobs]; the schema's rows are in job_settings.cpp.
#pragma once

#include "common/core/config/config_fwd.hpp"

namespace squawk::config {

struct JobSettings {
    int max_attempts = 5;
    double backoff_base_seconds = 2.0;
    double backoff_max_seconds = 600.0;
    int lease_seconds = 60;
};

SectionSchema<JobSettings> jobs_schema();

}  // namespace squawk::config
